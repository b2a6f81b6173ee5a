package org.rdma.target.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.pr.FilePrStore;
import org.rdma.target.internal.pr.PrState;
import org.rdma.target.internal.pr.PrStore;
import org.rdma.target.internal.pr.PrType;

/**
 * SPC-2 and persistent reservations through the fabric SPI, several I_T nexuses at once: the
 * service actions of SPC-4 6.16, the PERSISTENT RESERVE IN data laid out by hand from SPC-4 6.15,
 * the conflicts of SPC-4 table 53, the unit attentions, PRgeneration and APTPL; after what
 * libiscsi's SCSI.PersistentReserve* and SCSI.Reserve6* tests check.
 */
class ReservationsTest extends CoreFixture {
    private static final long KA = 0xA1A2A3A4A5A6A7A8L;
    private static final long KB = 0xB1B2B3B4B5B6B7B8L;
    private static final long KC = 0xC1C2C3C4C5C6C7C8L;
    private static final int APTPL = 0x01, ALL_TG_PT = 0x04, SPEC_I_PT = 0x08;

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static String ascii(String s) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.US_ASCII));
    }

    /** The basic PERSISTENT RESERVE OUT parameter list (SPC-4 table 207). */
    private static byte[] params(long key, long sark, int flags) {
        byte[] p = new byte[24];
        Cdb.put(p, 0, key, 8);
        Cdb.put(p, 8, sark, 8);
        p[20] = (byte) flags;
        return p;
    }

    private RecordingFabric.Outcome prout(FabricSession s, int lun, int sa, int type, byte[] params) {
        return run(s, lun, Cdb.persistentReserveOut(sa, type, params.length), params.length, params);
    }

    private RecordingFabric.Outcome prout(FabricSession s, int sa, int type, byte[] params) {
        return prout(s, 0, sa, type, params);
    }

    private byte[] prin(FabricSession s, int lun, int sa) {
        RecordingFabric.Outcome o = run(s, lun, Cdb.persistentReserveIn(sa, 4096), 4096, null);
        assertGood(o);
        return o.data();
    }

    private byte[] prin(FabricSession s, int sa) {
        return prin(s, 0, sa);
    }

    private void register(FabricSession s, long key) {
        assertGood(prout(s, Opcode.PRO_REGISTER_AND_IGNORE_EXISTING_KEY, 0, params(0, key, 0)));
    }

    private static void assertStatus(ScsiStatus expected, RecordingFabric.Outcome o) {
        assertEquals(expected, o.cmd().status(), () -> String.valueOf(o.sense()));
    }

    private static void assertConflict(RecordingFabric.Outcome o) {
        assertStatus(ScsiStatus.RESERVATION_CONFLICT, o);
    }

    private RecordingFabric.Outcome read(FabricSession s) {
        return run(s, 0, Cdb.read10(0, 1, 0), 512, null);
    }

    private RecordingFabric.Outcome write(FabricSession s) {
        return run(s, 0, Cdb.write10(0, 1, 0), 512, new byte[512]);
    }

    @Test
    void registerChangesAndRemovesKeysAndCountsGenerations() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        assertArrayEquals(hex("00000000 00000000"), prin(a, Opcode.PRI_READ_KEYS));
        assertGood(prout(a, Opcode.PRO_REGISTER, 0, params(0, KA, 0)));
        register(b, KB);
        assertArrayEquals(hex("00000002 00000010 a1a2a3a4a5a6a7a8 b1b2b3b4b5b6b7b8"), prin(a, Opcode.PRI_READ_KEYS));
        RecordingFabric.Outcome cut = run(a, 0, Cdb.persistentReserveIn(Opcode.PRI_READ_KEYS, 8), 8, null);
        assertArrayEquals(hex("00000002 00000010"), cut.data(), "ADDITIONAL LENGTH is not cut to the allocation length");
        assertConflict(prout(a, Opcode.PRO_REGISTER, 0, params(0, KA + 1, 0)));
        assertGood(prout(a, Opcode.PRO_REGISTER, 0, params(KA, KC, 0)));
        assertGood(prout(b, Opcode.PRO_REGISTER, 0, params(KB, 0, 0)));
        assertArrayEquals(hex("00000004 00000008 c1c2c3c4c5c6c7c8"), prin(b, Opcode.PRI_READ_KEYS));
        FabricSession c = loginReady(INI3);
        assertGood(prout(c, Opcode.PRO_REGISTER, 0, params(0, 0, 0)));
        assertConflict(prout(c, Opcode.PRO_REGISTER, 0, params(KB, KB, 0)));
        assertConflict(prout(c, Opcode.PRO_RESERVE, 1, params(0, 0, 0)));
        assertArrayEquals(hex("00000004 00000008 c1c2c3c4c5c6c7c8"), prin(c, Opcode.PRI_READ_KEYS),
                "unregistered no-ops and refusals leave PRgeneration alone");
    }

    @ParameterizedTest
    @EnumSource(PrType.class)
    void accessThroughEachReservationType(PrType type) {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        register(a, KA);
        register(b, KB);
        assertGood(prout(a, Opcode.PRO_RESERVE, type.code(), params(KA, 0, 0)));
        String key = type.allRegistrants() ? "0000000000000000" : "a1a2a3a4a5a6a7a8";
        assertArrayEquals(hex("00000002 00000010" + key + "00000000 00 0" + Integer.toHexString(type.code()) + " 0000"),
                prin(c, Opcode.PRI_READ_RESERVATION));
        assertGood(read(a));
        assertGood(write(a));
        boolean registrants = type.registrantsHaveAccess();
        assertStatus(registrants || type.writeExclusive() ? ScsiStatus.GOOD : ScsiStatus.RESERVATION_CONFLICT, read(b));
        assertStatus(registrants ? ScsiStatus.GOOD : ScsiStatus.RESERVATION_CONFLICT, write(b));
        assertStatus(type.writeExclusive() ? ScsiStatus.GOOD : ScsiStatus.RESERVATION_CONFLICT, read(c));
        assertConflict(write(c));
        assertGood(prout(a, Opcode.PRO_RESERVE, type.code(), params(KA, 0, 0)));
        assertConflict(prout(a, Opcode.PRO_RESERVE, type == PrType.WRITE_EXCLUSIVE ? 3 : 1, params(KA, 0, 0)));
        assertStatus(type.allRegistrants() ? ScsiStatus.GOOD : ScsiStatus.RESERVATION_CONFLICT,
                prout(b, Opcode.PRO_RESERVE, type.code(), params(KB, 0, 0)));
    }

    @Test
    void commandsUnderAnExclusiveAccessReservationFollowTable53() {
        tpg.addLun(1, device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS.withThinProvisioning(true)));
        FabricSession a = loginReady(INI);
        FabricSession c = loginReady(INI3);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        run(c, 1, Cdb.testUnitReady(), 0, null);
        assertGood(prout(a, 1, Opcode.PRO_REGISTER, 0, params(0, KA, 0)));
        assertGood(prout(a, 1, Opcode.PRO_RESERVE, 3, params(KA, 0, 0)));
        for (byte[] allowed : List.of(Cdb.inquiry(false, 0, 96), Cdb.reportLuns(0, 64), Cdb.requestSense(false, 18),
                Cdb.testUnitReady(), Cdb.readCapacity10(), Cdb.readCapacity16(32), Cdb.preventAllowMediumRemoval(0),
                Cdb.startStopUnit(false, false, true), Cdb.persistentReserveIn(Opcode.PRI_READ_KEYS, 64))) {
            int len = allowed[0] == 0 || allowed[0] == 0x1E || allowed[0] == 0x1B ? 0 : 96;
            assertGood(run(c, 1, allowed, len, null));
        }
        for (byte[] conflicting : List.of(Cdb.modeSense6(false, 0, 0x3F, 0, 255), Cdb.verify10(0, 1, 0),
                Cdb.reportSupportedOperationCodes(false, 0, 0, 0, 64), Cdb.getLbaStatus(0, 64),
                Cdb.preventAllowMediumRemoval(1), Cdb.startStopUnit(false, false, false), Cdb.synchronizeCache10(0, 0),
                Cdb.read16(0, 1, 0))) {
            assertConflict(run(c, 1, conflicting, conflicting[0] == 0x1E || conflicting[0] == 0x1B
                    || conflicting[0] == 0x35 || conflicting[0] == 0x2F ? 0 : 255, null));
        }
        byte[] unmap = Cdb.unmapParameterList(0, 1);
        assertConflict(run(c, 1, Cdb.unmap(unmap.length), unmap.length, unmap));
        assertConflict(run(c, 1, Cdb.writeSame16(0, 1, 0), 512, new byte[512]));
        byte[] caching = hex("00000000 0812" + "00".repeat(18));
        assertConflict(run(c, 1, Cdb.modeSelect6(true, false, caching.length), caching.length, caching));
        assertGood(prout(c, 1, Opcode.PRO_REGISTER, 0, params(0, KC, 0)));
        assertConflict(prout(c, 1, Opcode.PRO_RELEASE, 3, params(KA, 0, 0)));
    }

    @Test
    void releaseByTheHolderOnlyAndWithItsType() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        register(a, KA);
        register(b, KB);
        assertGood(prout(a, Opcode.PRO_RESERVE, 5, params(KA, 0, 0)));
        assertGood(prout(b, Opcode.PRO_RELEASE, 5, params(KB, 0, 0)));
        assertConflict(prout(b, Opcode.PRO_RELEASE, 5, params(KA, 0, 0)));
        assertSense(prout(a, Opcode.PRO_RELEASE, 6, params(KA, 0, 0)), SenseKey.ILLEGAL_REQUEST,
                Asc.INVALID_RELEASE_OF_PERSISTENT_RESERVATION);
        assertEquals(24, prin(c, Opcode.PRI_READ_RESERVATION).length, "still reserved");
        assertGood(prout(a, Opcode.PRO_RELEASE, 5, params(KA, 0, 0)));
        assertArrayEquals(hex("00000002 00000000"), prin(c, Opcode.PRI_READ_RESERVATION), "RELEASE leaves PRgeneration");
        assertGood(run(a, 0, Cdb.testUnitReady(), 0, null));
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.RESERVATIONS_RELEASED);
        assertGood(run(c, 0, Cdb.testUnitReady(), 0, null));
        assertGood(prout(a, Opcode.PRO_RESERVE, 1, params(KA, 0, 0)));
        assertGood(prout(a, Opcode.PRO_RELEASE, 1, params(KA, 0, 0)));
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null), "releasing write exclusive tells nobody");
    }

    private static void assertGood(RecordingFabric.Outcome o, String why) {
        assertEquals(ScsiStatus.GOOD, o.cmd().status(), why);
    }

    @Test
    void unregisteringTheHolderReleasesUnlessAllRegistrantsHold() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        register(a, KA);
        register(b, KB);
        assertGood(prout(a, Opcode.PRO_RESERVE, 6, params(KA, 0, 0)));
        assertGood(prout(a, Opcode.PRO_REGISTER, 0, params(KA, 0, 0)));
        assertArrayEquals(hex("00000003 00000000"), prin(a, Opcode.PRI_READ_RESERVATION));
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.RESERVATIONS_RELEASED);
        register(a, KA);
        assertGood(prout(a, Opcode.PRO_RESERVE, 8, params(KA, 0, 0)));
        assertGood(prout(a, Opcode.PRO_REGISTER, 0, params(KA, 0, 0)));
        assertArrayEquals(hex("00000005 00000010 0000000000000000 00000000 0008 0000"), prin(a, Opcode.PRI_READ_RESERVATION),
                "an all registrants reservation stays with the other registrant");
        assertConflict(write(a));
        assertGood(write(b));
        assertGood(prout(b, Opcode.PRO_REGISTER, 0, params(KB, 0, 0)));
        assertArrayEquals(hex("00000006 00000000"), prin(a, Opcode.PRI_READ_RESERVATION), "ended with the last registration");
    }

    @Test
    void clearRemovesEverythingAndTellsTheOtherRegistrants() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        register(a, KA);
        register(b, KB);
        assertGood(prout(a, Opcode.PRO_RESERVE, 3, params(KA, 0, 0)));
        assertConflict(prout(b, Opcode.PRO_CLEAR, 0, params(KA, 0, 0)));
        assertGood(prout(b, Opcode.PRO_CLEAR, 0, params(KB, 0, 0)));
        assertArrayEquals(hex("00000003 00000000"), prin(c, Opcode.PRI_READ_KEYS));
        assertArrayEquals(hex("00000003 00000000"), prin(c, Opcode.PRI_READ_RESERVATION));
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.RESERVATIONS_PREEMPTED);
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
        assertGood(run(c, 0, Cdb.testUnitReady(), 0, null));
        assertGood(write(c));
    }

    @Test
    void preemptRemovesRegistrationsOrTakesTheReservationOver() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        register(a, KA);
        register(b, KB);
        assertGood(prout(b, Opcode.PRO_PREEMPT, 3, params(KB, KA, 0)));
        assertArrayEquals(hex("00000003 00000008 b1b2b3b4b5b6b7b8"), prin(b, Opcode.PRI_READ_KEYS),
                "without a reservation PREEMPT only removes registrations");
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.REGISTRATIONS_PREEMPTED);
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
        register(a, KA);
        register(c, KC);
        assertGood(prout(a, Opcode.PRO_RESERVE, 1, params(KA, 0, 0)));
        assertConflict(prout(b, Opcode.PRO_PREEMPT, 3, params(KB, 0x1234, 0)));
        assertSense(prout(b, Opcode.PRO_PREEMPT, 3, params(KB, 0, 0)), SenseKey.ILLEGAL_REQUEST,
                Asc.INVALID_FIELD_IN_PARAMETER_LIST);
        assertGood(prout(b, Opcode.PRO_PREEMPT, 3, params(KB, KA, 0)));
        assertArrayEquals(hex("00000006 00000010 b1b2b3b4b5b6b7b8 00000000 0003 0000"), prin(b, Opcode.PRI_READ_RESERVATION),
                "refused PREEMPTs left PRgeneration alone");
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.REGISTRATIONS_PREEMPTED);
        assertSense(run(c, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.RESERVATIONS_RELEASED);
        assertConflict(read(a));
        assertGood(read(b));
    }

    @Test
    void preemptingAnAllRegistrantsReservationWithKeyZero() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        register(a, KA);
        register(b, KB);
        register(c, KC);
        assertGood(prout(a, Opcode.PRO_RESERVE, 7, params(KA, 0, 0)));
        assertGood(prout(c, Opcode.PRO_PREEMPT, 1, params(KC, 0, 0)));
        assertArrayEquals(hex("00000004 00000008 c1c2c3c4c5c6c7c8"), prin(c, Opcode.PRI_READ_KEYS));
        assertArrayEquals(hex("00000004 00000010 c1c2c3c4c5c6c7c8 00000000 0001 0000"), prin(c, Opcode.PRI_READ_RESERVATION));
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.REGISTRATIONS_PREEMPTED);
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.REGISTRATIONS_PREEMPTED);
    }

    @Test
    void preemptAndAbortAbortsThePreemptedNexusesCommandsBeforeItsStatus() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        register(a, KA);
        register(b, KB);
        assertGood(prout(a, Opcode.PRO_RESERVE, 1, params(KA, 0, 0)));
        events.clear();
        submit(a, 0, Cdb.write10(0, 1, 0), 10, TaskAttribute.SIMPLE, 512, new byte[512]);
        submit(b, 0, Cdb.testUnitReady(), 20, TaskAttribute.SIMPLE, 0, null);
        byte[] p = params(KB, KA, 0);
        submit(b, 0, Cdb.persistentReserveOut(Opcode.PRO_PREEMPT_AND_ABORT, 1, 24), 21, TaskAttribute.SIMPLE, 24, p);
        exec.pollLast().run();
        exec.drain();
        assertEquals(List.of("write_pending 10", "write_pending 21", "status 10 TASK_ABORTED", "status 21 GOOD",
                "status 20 GOOD"), events, "a's write never ran; b's own command went on");
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.REGISTRATIONS_PREEMPTED);
    }

    @Test
    void readFullStatusAndReportCapabilitiesByteForByte() {
        FabricSession a = loginReady(INI);
        FabricSession b = login(INI2, "400001370000");
        run(b, 0, Cdb.testUnitReady(), 0, null);
        assertArrayEquals(hex("0008 1c 90 ea 01 0000"), prin(a, Opcode.PRI_REPORT_CAPABILITIES),
                "CRH SIP_C ATP_C, no PTPL_C; TMV, ALLOW COMMANDS 001b; every type");
        register(a, KA);
        assertGood(prout(b, Opcode.PRO_REGISTER, 0, params(0, KB, ALL_TG_PT)));
        assertGood(prout(a, Opcode.PRO_RESERVE, 1, params(KA, 0, 0)));
        String tidA = "45 00 0030" + ascii(INI + ",i,0x023d00000001") + "00 00";
        String tidB = "45 00 0030" + ascii(INI2 + ",i,0x400001370000") + "00 00";
        byte[] expected = hex("00000002 00000098"
                + "a1a2a3a4a5a6a7a8 00000000 01 01 00000000 0001 00000034" + tidA
                + "b1b2b3b4b5b6b7b8 00000000 02 00 00000000 0000 00000034" + tidB);
        assertArrayEquals(expected, prin(a, Opcode.PRI_READ_FULL_STATUS));
    }

    @Test
    void specifyInitiatorPortsRegistersTheNamedInitiatorsToo() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        byte[] tid = hex("05 00 0020" + ascii(INI2) + "00".repeat(32 - INI2.length()));
        byte[] p = new byte[28 + tid.length];
        System.arraycopy(params(0, KA, SPEC_I_PT), 0, p, 0, 24);
        Cdb.put(p, 24, tid.length, 4);
        System.arraycopy(tid, 0, p, 28, tid.length);
        assertGood(prout(a, Opcode.PRO_REGISTER, 0, p));
        assertArrayEquals(hex("00000001 00000010 a1a2a3a4a5a6a7a8 a1a2a3a4a5a6a7a8"), prin(b, Opcode.PRI_READ_KEYS));
        byte[] full = prin(a, Opcode.PRI_READ_FULL_STATUS);
        assertArrayEquals(tid, java.util.Arrays.copyOfRange(full, 8 + 24 + 52 + 24, full.length),
                "a registration without ISID reads back as the device TransportID it came from");
        assertGood(prout(b, Opcode.PRO_REGISTER, 0, params(KA, KB, 0)), "b's session finds its registration");
        Cdb.put(p, 0, KA, 8);
        assertEquals(Sense.invalidFieldInParameterList(20, 3), prout(a, Opcode.PRO_REGISTER, 0, p).sense(),
                "SPEC_I_PT from a registered nexus");
        tpg.setGenerateNodeAcls(false);
        FabricSession c = loginReadyWithAcl();
        byte[] nobody = hex("05 00 0014" + ascii("iqn.x") + "00".repeat(15));
        byte[] q = new byte[28 + nobody.length];
        System.arraycopy(params(0, KC, SPEC_I_PT), 0, q, 0, 24);
        Cdb.put(q, 24, nobody.length, 4);
        System.arraycopy(nobody, 0, q, 28, nobody.length);
        assertEquals(Sense.invalidFieldInParameterList(28, 7), prout(c, Opcode.PRO_REGISTER, 0, q).sense(),
                "an initiator that cannot see the LUN is not registered");
    }

    private FabricSession loginReadyWithAcl() {
        tpg.addNodeAcl(INI3).mapLun(0, 0, false);
        return loginReady(INI3);
    }

    @Test
    void registerAndMoveHandsTheReservationToAnotherNexus() {
        FabricSession a = loginReady(INI);
        FabricSession b = login(INI2, "400001370000");
        run(b, 0, Cdb.testUnitReady(), 0, null);
        register(a, KA);
        byte[] tidB = hex("45 00 0030" + ascii(INI2 + ",i,0x400001370000") + "00 00");
        byte[] tidA = hex("45 00 0030" + ascii(INI + ",i,0x023d00000001") + "00 00");
        assertSense(prout(a, Opcode.PRO_REGISTER_AND_MOVE, 0, move(KA, KB, 0x02, 1, tidB)), SenseKey.ILLEGAL_REQUEST,
                Asc.INVALID_FIELD_IN_CDB);
        assertGood(prout(a, Opcode.PRO_RESERVE, 3, params(KA, 0, 0)));
        assertEquals(Sense.invalidFieldInParameterList(24, 7), prout(a, Opcode.PRO_REGISTER_AND_MOVE, 0,
                move(KA, KB, 0, 1, tidA)).sense(), "not to the nexus it came from");
        assertEquals(Sense.invalidFieldInParameterList(18, 7), prout(a, Opcode.PRO_REGISTER_AND_MOVE, 0,
                move(KA, KB, 0, 9, tidB)).sense(), "no relative target port 9");
        assertConflict(prout(b, Opcode.PRO_REGISTER_AND_MOVE, 0, move(KB, KB, 0, 1, tidA)));
        assertGood(prout(a, Opcode.PRO_REGISTER_AND_MOVE, 0, move(KA, KB, 0x02, 1, tidB)));
        assertArrayEquals(hex("00000002 00000008 b1b2b3b4b5b6b7b8"), prin(a, Opcode.PRI_READ_KEYS), "UNREG unregistered a");
        assertArrayEquals(hex("00000002 00000010 b1b2b3b4b5b6b7b8 00000000 0003 0000"), prin(a, Opcode.PRI_READ_RESERVATION));
        assertGood(write(b));
        assertConflict(write(a));
    }

    /** The REGISTER AND MOVE parameter list (SPC-4 table 209). */
    private static byte[] move(long key, long sark, int flags, int relativePort, byte[] tid) {
        byte[] p = new byte[24 + tid.length];
        Cdb.put(p, 0, key, 8);
        Cdb.put(p, 8, sark, 8);
        p[17] = (byte) flags;
        Cdb.put(p, 18, relativePort, 2);
        Cdb.put(p, 20, tid.length, 4);
        System.arraycopy(tid, 0, p, 24, tid.length);
        return p;
    }

    @Test
    void parameterListAndCdbChecks() {
        FabricSession a = loginReady(INI);
        register(a, KA);
        assertEquals(Sense.invalidFieldInCdb(2, 7), run(a, 0, scoped(Opcode.PRO_RESERVE, 0x11), 24, params(KA, 0, 0)).sense());
        assertEquals(Sense.invalidFieldInCdb(2, 3), prout(a, Opcode.PRO_RESERVE, 2, params(KA, 0, 0)).sense());
        assertEquals(Sense.invalidFieldInCdb(5, 7), run(a, 0, Cdb.persistentReserveOut(Opcode.PRO_REGISTER, 0, 1 << 20),
                0, null).sense());
        assertSense(prout(a, Opcode.PRO_REGISTER, 0, new byte[23]), SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
        assertSense(prout(a, Opcode.PRO_REGISTER, 0, java.util.Arrays.copyOf(params(KA, KB, 0), 28)), SenseKey.ILLEGAL_REQUEST,
                Asc.PARAMETER_LIST_LENGTH_ERROR);
        assertEquals(Sense.invalidFieldInParameterList(20, 3), prout(a, Opcode.PRO_RESERVE, 1, params(KA, 0, SPEC_I_PT)).sense());
        assertEquals(Sense.invalidFieldInParameterList(20, 0), prout(a, Opcode.PRO_REGISTER, 0, params(KA, KB, APTPL)).sense(),
                "APTPL without PTPL_C");
        for (int sa = 4; sa < 0x20; sa++) {
            assertEquals(Sense.invalidFieldInCdb(1, 4), run(a, 0, Cdb.persistentReserveIn(sa, 64), 64, null).sense());
        }
        assertEquals(Sense.invalidFieldInCdb(1, 4), prout(a, 8, 0, params(KA, 0, 0)).sense());
        assertArrayEquals(hex("00000001 00000008 a1a2a3a4a5a6a7a8"), prin(a, Opcode.PRI_READ_KEYS), "nothing changed");
    }

    private static byte[] scoped(int sa, int scopeType) {
        byte[] cdb = Cdb.persistentReserveOut(sa, 0, 24);
        cdb[2] = (byte) scopeType;
        return cdb;
    }

    @Test
    void spc2ReservationsAsLioKeepsThem() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        assertGood(run(a, 0, Cdb.reserve6(), 0, null));
        assertGood(run(a, 0, Cdb.reserve6(), 0, null));
        assertConflict(run(b, 0, Cdb.reserve6(), 0, null));
        assertGood(run(b, 0, Cdb.release6(), 0, null), "a release from another nexus is GOOD and does nothing");
        assertConflict(run(b, 0, Cdb.modeSense6(false, 0, 0x3F, 0, 255), 255, null));
        assertConflict(run(b, 0, Cdb.testUnitReady(), 0, null));
        assertGood(run(b, 0, Cdb.inquiry(false, 0, 96), 96, null));
        assertGood(run(b, 0, Cdb.reportLuns(0, 64), 64, null));
        assertConflict(run(a, 0, Cdb.persistentReserveIn(Opcode.PRI_READ_KEYS, 64), 64, null));
        assertConflict(prout(b, Opcode.PRO_REGISTER, 0, params(0, KB, 0)));
        assertGood(write(a));
        assertGood(run(a, 0, Cdb.release10(), 0, null));
        assertGood(run(b, 0, Cdb.reserve10(), 0, null));
        b.submitTmr(TmfFunction.LOGICAL_UNIT_RESET, 0, 70, 0);
        run(a, 0, Cdb.testUnitReady(), 0, null);
        assertGood(run(a, 0, Cdb.reserve6(), 0, null), "a logical unit reset released b's reservation");
        a.close();
        FabricSession a2 = loginReady(INI);
        run(b, 0, Cdb.testUnitReady(), 0, null);
        assertGood(run(b, 0, Cdb.reserve6(), 0, null), "a's reservation ended with its nexus");
        b.submitTmr(TmfFunction.I_T_NEXUS_RESET, 0, 71, 0);
        assertGood(run(a2, 0, Cdb.reserve6(), 0, null), "so did b's with I_T NEXUS RESET");
        assertGood(run(a2, 0, Cdb.release6(), 0, null));
        assertEquals(Sense.invalidFieldInCdb(1, 1), run(a2, 0, new byte[] {0x56, 0x02, 0, 0, 0, 0, 0, 0, 0, 0}, 0, null).sense(),
                "RESERVE(10) LONGID (third-party) is not supported");
    }

    @Test
    void spc2ReservationsYieldToPersistentOnes() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        register(a, KA);
        assertConflict(run(a, 0, Cdb.reserve6(), 0, null));
        assertConflict(run(b, 0, Cdb.release6(), 0, null));
        assertGood(prout(a, Opcode.PRO_RESERVE, 5, params(KA, 0, 0)));
        assertGood(run(a, 0, Cdb.reserve6(), 0, null), "the holder's RESERVE(6) is GOOD and changes nothing");
        register(b, KB);
        assertGood(run(b, 0, Cdb.release6(), 0, null), "a registrant under registrants only: GOOD, nothing");
        assertEquals(24, prin(b, Opcode.PRI_READ_RESERVATION).length);
        assertNull(ram.reservations().spc2Holder());
    }

    /** A store in memory that can be made to fail. */
    private static final class MemoryStore implements PrStore {
        PrState saved;
        boolean failing;

        @Override
        public boolean persistent() {
            return true;
        }

        @Override
        public Optional<PrState> load() {
            return Optional.ofNullable(saved);
        }

        @Override
        public void save(PrState s) throws IOException {
            if (failing) {
                throw new IOException("EIO: disk full");
            }
            saved = s;
        }

        @Override
        public void clear() {
            saved = null;
        }
    }

    private ScsiDevice persistentDevice(PrStore store) throws IOException {
        return new ScsiDevice("p", new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS,
                DeviceIdentity.of("5ec0ffee", DeviceIdentity.DEFAULT_COMPANY_ID), store);
    }

    @Test
    void aptplStateSurvivesARestartThroughItsFile(@TempDir Path dir) throws IOException {
        FilePrStore store = new FilePrStore(dir, "5ec0ffee");
        tpg.addLun(1, persistentDevice(store));
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        run(b, 1, Cdb.testUnitReady(), 0, null);
        assertArrayEquals(hex("0008 1d 90 ea 01 0000"), prin(a, 1, Opcode.PRI_REPORT_CAPABILITIES), "PTPL_C, not yet PTPL_A");
        assertGood(prout(a, 1, Opcode.PRO_REGISTER, 0, params(0, KA, APTPL)));
        assertGood(prout(b, 1, Opcode.PRO_REGISTER, 0, params(0, KB, APTPL)));
        assertGood(prout(a, 1, Opcode.PRO_RESERVE, 3, params(KA, 0, 0)));
        assertEquals(dir.resolve("aptpl_5ec0ffee"), store.file());
        String port = IQN + ",t,0x0001";
        assertEquals("pr_state 1\n"
                + "registration key=0xa1a2a3a4a5a6a7a8 initiator=" + INI + " isid=023d00000001 port=" + port + " all_tg_pt=0\n"
                + "registration key=0xb1b2b3b4b5b6b7b8 initiator=" + INI2 + " isid=023d00000001 port=" + port + " all_tg_pt=0\n"
                + "reservation holder=0 type=0x3\n", Files.readString(store.file()));

        TargetCoreImpl restarted = new TargetCoreImpl(exec);
        Tpg t = restarted.addTpg("iscsi", IQN, 1, 5);
        t.setGenerateNodeAcls(true);
        t.setDemoModeWriteProtect(false);
        t.addLun(0, persistentDevice(new FilePrStore(dir, "5ec0ffee")));
        FabricSession a2 = t.openSession(INI, INI + ",i,0x023d00000001", new RecordingFabric(events));
        FabricSession b2 = t.openSession(INI2, INI2 + ",i,0x023d00000001", new RecordingFabric(events));
        run(a2, 0, Cdb.testUnitReady(), 0, null);
        run(b2, 0, Cdb.testUnitReady(), 0, null);
        assertArrayEquals(hex("0008 1d 91 ea 01 0000"), prin(a2, Opcode.PRI_REPORT_CAPABILITIES), "PTPL_A");
        assertArrayEquals(hex("00000000 00000010 a1a2a3a4a5a6a7a8 b1b2b3b4b5b6b7b8"), prin(a2, Opcode.PRI_READ_KEYS));
        assertArrayEquals(hex("00000000 00000010 a1a2a3a4a5a6a7a8 00000000 0003 0000"), prin(b2, Opcode.PRI_READ_RESERVATION));
        assertGood(write(a2));
        assertConflict(read(b2));
        assertGood(prout(a2, Opcode.PRO_REGISTER, 0, params(KA, KA, 0)));
        assertFalse(Files.exists(store.file()), "APTPL off: nothing to restore");
    }

    @Test
    void aStoreThatFailsLeavesTheStateAsItWas() throws IOException {
        MemoryStore store = new MemoryStore();
        tpg.addLun(1, persistentDevice(store));
        FabricSession a = loginReady(INI);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        assertGood(prout(a, 1, Opcode.PRO_REGISTER, 0, params(0, KA, APTPL)));
        store.failing = true;
        assertSense(prout(a, 1, Opcode.PRO_RESERVE, 1, params(KA, 0, 0)), SenseKey.HARDWARE_ERROR, Asc.INTERNAL_TARGET_FAILURE);
        assertSense(prout(a, 1, Opcode.PRO_REGISTER, 0, params(KA, KB, APTPL)), SenseKey.HARDWARE_ERROR,
                Asc.INTERNAL_TARGET_FAILURE);
        assertArrayEquals(hex("00000001 00000000"), prin(a, 1, Opcode.PRI_READ_RESERVATION));
        assertArrayEquals(hex("00000001 00000008 a1a2a3a4a5a6a7a8"), prin(a, 1, Opcode.PRI_READ_KEYS));
        assertTrue(store.saved.reservation() == null && store.saved.registrations().size() == 1);
    }
}
