package org.rdma.target.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.backstore.FileioBackstore;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.backstore.RecordingChannel;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/** The command path behind the fabric SPI, driven by a recording fabric and a hand-drained executor. */
class CommandPathTest {
    static final String IQN = "iqn.2003-01.org.example:t1";
    static final String INI = "iqn.1994-05.com.example:host1";
    static final String INI2 = "iqn.1994-05.com.example:host2";

    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final RecordingFabric.Manual exec = new RecordingFabric.Manual();
    final TargetCoreImpl core = new TargetCoreImpl(exec);
    final Tpg tpg = core.addTpg("iscsi", IQN, 1, 5);
    final ScsiDevice ram = device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS);

    static ScsiDevice device(org.rdma.target.internal.backstore.Backstore b, DeviceAttributes a) {
        return new ScsiDevice("d", b, a, DeviceIdentity.of(DeviceIdentity.defaultSerial(b.type(), "d"), DeviceIdentity.DEFAULT_COMPANY_ID));
    }

    CommandPathTest() {
        tpg.addLun(0, ram);
        tpg.setGenerateNodeAcls(true);
        tpg.setDemoModeWriteProtect(false);
    }

    private RecordingFabric fabric;
    private long nextTag = 1;

    private FabricSession login(String initiator) {
        fabric = new RecordingFabric(events);
        return tpg.openSession(initiator, initiator + ",i,0x023d00000001", fabric);
    }

    /** Submits, drains the executor, and returns the outcome. */
    private RecordingFabric.Outcome run(FabricSession s, int lun, byte[] cdb, int edtl, byte[] data) {
        long tag = nextTag++;
        RecordingFabric f = (RecordingFabric) ((Session) s).ops;
        if (data != null) {
            f.writeData.put(tag, data);
        }
        s.submit(Lun.encode(lun), cdb, tag, TaskAttribute.SIMPLE, edtl, data != null ? DataDirection.DATA_OUT
                : edtl > 0 ? DataDirection.DATA_IN : DataDirection.NONE);
        exec.drain();
        return f.outcomes.get(tag);
    }

    private static void assertSense(RecordingFabric.Outcome o, SenseKey key, Asc asc) {
        assertEquals(ScsiStatus.CHECK_CONDITION, o.cmd().status());
        assertEquals(key, o.sense().key(), o.sense().toString());
        assertEquals(asc, o.sense().asc(), o.sense().toString());
    }

    private static void assertGood(RecordingFabric.Outcome o) {
        assertEquals(ScsiStatus.GOOD, o.cmd().status(), () -> String.valueOf(o.sense()));
    }

    @Test
    void powerOnUnitAttentionComesOncePerNexusAndInquiryDoesNotTakeIt() {
        FabricSession a = login(INI);
        assertGood(run(a, 0, Cdb.inquiry(false, 0, 96), 96, null));
        assertGood(run(a, 0, Cdb.reportLuns(0, 64), 64, null));
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED);
        assertGood(run(a, 0, Cdb.testUnitReady(), 0, null));
        FabricSession b = login(INI2);
        RecordingFabric.Outcome rs = run(b, 0, Cdb.requestSense(false, 18), 18, null);
        assertGood(rs);
        assertEquals(Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED, Sense.decode(rs.data(), 0, 18).asc());
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
    }

    @Test
    void writeThenReadThroughTheCallbacks() {
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        events.clear();
        byte[] data = new byte[1024];
        new java.util.Random(1).nextBytes(data);
        RecordingFabric.Outcome w = run(s, 0, Cdb.write10(4, 2, 0), 1024, data);
        assertGood(w);
        assertEquals(DataDirection.DATA_OUT, w.cmd().direction());
        RecordingFabric.Outcome r = run(s, 0, Cdb.read10(4, 2, 0), 1024, null);
        assertArrayEquals(data, r.data());
        assertEquals(List.of("write_pending 2", "status 2 GOOD", "data_in 3 GOOD"), events);
        assertFalse(r.cmd().residualOverflow() || r.cmd().residualUnderflow());
    }

    @Test
    void residualsAgainstTheExpectedLength() {
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        RecordingFabric.Outcome under = run(s, 0, Cdb.inquiry(false, 0, 255), 255, null);
        assertEquals(64, under.data().length);
        assertTrue(under.cmd().residualUnderflow());
        assertEquals(255 - 64, under.cmd().residualCount());
        RecordingFabric.Outcome over = run(s, 0, Cdb.read10(0, 2, 0), 512, null);
        assertEquals(512, over.data().length);
        assertTrue(over.cmd().residualOverflow());
        assertEquals(512, over.cmd().residualCount());
        RecordingFabric.Outcome none = run(s, 0, Cdb.testUnitReady(), 100, null);
        assertTrue(none.cmd().residualUnderflow());
        assertEquals(100, none.cmd().residualCount());
        // Data-out must match the CDB exactly (LIO's target_cmd_size_check()).
        assertSense(run(s, 0, Cdb.write10(0, 2, 0), 512, new byte[512]), SenseKey.ILLEGAL_REQUEST,
                Asc.INVALID_FIELD_IN_COMMAND_INFORMATION_UNIT);
    }

    @Test
    void unmappedLunsAndAcls() {
        tpg.setGenerateNodeAcls(false);
        TargetException e = assertThrows(TargetException.class, () -> login(INI));
        assertEquals("EACCES", e.errno());
        ScsiDevice second = device(new RamdiskBackstore(1 << 20, 4096), DeviceAttributes.DEFAULTS);
        tpg.addLun(1, second);
        NodeAcl acl = tpg.addNodeAcl(INI);
        acl.mapLun(0, 1, false);
        acl.mapLun(7, 0, true);
        assertEquals("ENOENT", assertThrows(TargetException.class, () -> acl.mapLun(8, 9, false)).errno());
        assertEquals("EEXIST", assertThrows(TargetException.class, () -> acl.mapLun(7, 1, false)).errno());
        FabricSession s = login(INI);
        RecordingFabric.Outcome luns = run(s, 3, Cdb.reportLuns(0, 64), 64, null);
        assertArrayEquals(java.util.HexFormat.of().parseHex("00000010000000000000000000000000" + "0007000000000000"), luns.data());
        assertSense(run(s, 3, Cdb.testUnitReady(), 0, null), SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_UNIT_NOT_SUPPORTED);
        assertEquals(0x7F, run(s, 3, Cdb.inquiry(false, 0, 36), 36, null).data()[0]);
        assertGood(run(s, 3, Cdb.requestSense(false, 18), 18, null));
        run(s, 0, Cdb.testUnitReady(), 0, null);
        run(s, 7, Cdb.testUnitReady(), 0, null);
        // LUN 0 of this initiator is the 4096-byte device; LUN 7 is read-only.
        assertEquals(8, run(s, 0, Cdb.readCapacity10(), 8, null).data().length);
        assertArrayEquals(new byte[] {0, 0, 0x10, 0}, java.util.Arrays.copyOfRange(run(s, 0, Cdb.readCapacity10(), 8, null).data(), 4, 8));
        assertSense(run(s, 7, Cdb.write10(0, 1, 0), 512, new byte[512]), SenseKey.DATA_PROTECT, Asc.WRITE_PROTECTED);
        assertEquals((byte) 0x90, run(s, 7, Cdb.modeSense6(true, 0, 0x08, 0, 64), 64, null).data()[2]);
        // An address the target does not use is a LUN it does not have.
        s.submit(0x0100_0000_0000_0000L, Cdb.testUnitReady(), 99, TaskAttribute.SIMPLE, 0, DataDirection.NONE);
        assertSense(fabric.outcomes.get(99L), SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_UNIT_NOT_SUPPORTED);
        tpg.setEnabled(false);
        assertEquals("ENODEV", assertThrows(TargetException.class, () -> login(INI)).errno());
    }

    @Test
    void demoModeWriteProtectByDefault() {
        tpg.setDemoModeWriteProtect(true);
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        assertSense(run(s, 0, Cdb.write10(0, 1, 0), 512, new byte[512]), SenseKey.DATA_PROTECT, Asc.WRITE_PROTECTED);
    }

    @Test
    void modeSelectTellsOtherNexusesOnly() {
        FabricSession a = login(INI);
        RecordingFabric fa = fabric;
        FabricSession b = login(INI2);
        run(a, 0, Cdb.testUnitReady(), 0, null);
        run(b, 0, Cdb.testUnitReady(), 0, null);
        byte[] caching = java.util.HexFormat.of().parseHex("00000000" + "0812" + "00".repeat(18));
        fabric = fa;
        assertGood(run(a, 0, Cdb.modeSelect6(true, false, caching.length), caching.length, caching));
        assertGood(run(a, 0, Cdb.testUnitReady(), 0, null));
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.MODE_PARAMETERS_CHANGED);
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
    }

    @Test
    void newLunsAreAnnouncedToOpenSessions() {
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        tpg.addLun(1, device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS));
        assertSense(run(s, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.REPORTED_LUNS_DATA_HAS_CHANGED);
    }

    @Test
    void taskAttributesOrderExecution() {
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        events.clear();
        submit(s, 10, TaskAttribute.SIMPLE);
        submit(s, 11, TaskAttribute.SIMPLE);
        assertEquals(2, exec.pending(), "SIMPLE tasks run together");
        submit(s, 12, TaskAttribute.ORDERED);
        submit(s, 13, TaskAttribute.SIMPLE);
        assertEquals(2, exec.pending(), "ORDERED and what follows it wait");
        submit(s, 14, TaskAttribute.HEAD_OF_QUEUE);
        assertEquals(3, exec.pending(), "HEAD OF QUEUE runs at once");
        runOne();
        runOne();
        assertEquals(1, exec.pending(), "ORDERED still waits for the HEAD OF QUEUE task");
        runOne();
        assertEquals(1, exec.pending());
        runOne();
        runOne();
        assertEquals(List.of("status 10 GOOD", "status 11 GOOD", "status 14 GOOD", "status 12 GOOD", "status 13 GOOD"), events);
        assertEquals(0, exec.pending());
    }

    private void submit(FabricSession s, long tag, TaskAttribute attr) {
        s.submit(Lun.encode(0), Cdb.testUnitReady(), tag, attr, 0, DataDirection.NONE);
    }

    private void runOne() {
        exec.poll().run();
    }

    @Test
    void acaAndOverlappedTags() {
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        s.submit(Lun.encode(0), Cdb.testUnitReady(), 50, TaskAttribute.ACA, 0, DataDirection.NONE);
        assertSense(fabric.outcomes.get(50L), SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB);
        submit(s, 51, TaskAttribute.SIMPLE);
        RecordingFabric f = fabric;
        s.submit(Lun.encode(0), Cdb.read10(0, 1, 0), 51, TaskAttribute.SIMPLE, 512, DataDirection.DATA_IN);
        assertSense(f.outcomes.get(51L), SenseKey.ABORTED_COMMAND, Asc.OVERLAPPED_COMMANDS_ATTEMPTED);
        exec.drain();
        assertGood(f.outcomes.get(51L));
    }

    @Test
    void closingASessionDeliversNothingMore() {
        FabricSession s = login(INI);
        run(s, 0, Cdb.testUnitReady(), 0, null);
        events.clear();
        fabric.holdWriteData = true;
        s.submit(Lun.encode(0), Cdb.write10(0, 1, 0), 60, TaskAttribute.SIMPLE, 512, DataDirection.DATA_OUT);
        submit(s, 61, TaskAttribute.SIMPLE);
        submit(s, 62, TaskAttribute.ORDERED);
        s.close();
        exec.drain();
        assertEquals(List.of("write_pending 60"), events);
        assertEquals("ENOTCONN", assertThrows(TargetException.class, () -> submit(s, 63, TaskAttribute.SIMPLE)).errno());
        FabricSession t = login(INI2);
        run(t, 0, Cdb.testUnitReady(), 0, null);
        assertGood(run(t, 0, Cdb.testUnitReady(), 0, null));
    }

    @Test
    void taskManagementIsRefusedUntilImplemented() {
        FabricSession s = login(INI);
        s.submitTmr(TmfFunction.ABORT_TASK, Lun.encode(0), 70, 1);
        assertEquals(List.of("70 ABORT_TASK FUNCTION_NOT_SUPPORTED"), fabric.tmResponses);
    }

    @Test
    void fuaWriteIsForcedBeforeItsStatusLeaves(@TempDir Path dir) throws Exception {
        FileioBackstore store = FileioBackstore.open(dir.resolve("f.img"), 1 << 20, 512, false, RecordingChannel.opener(events));
        ScsiDevice dev = device(store, DeviceAttributes.DEFAULTS);
        tpg.addLun(1, dev);
        FabricSession s = login(INI);
        run(s, 1, Cdb.testUnitReady(), 0, null);
        events.clear();
        run(s, 1, Cdb.write10(3, 1, Cdb.FUA), 512, new byte[512]);
        run(s, 1, Cdb.write10(4, 1, 0), 512, new byte[512]);
        assertEquals(List.of("write_pending 2", "write data 1536+512", "force data", "status 2 GOOD",
                "write_pending 3", "write data 2048+512", "status 3 GOOD"), events);
        assertNull(fabric.outcomes.get(3L).sense());
        store.close();
    }
}
