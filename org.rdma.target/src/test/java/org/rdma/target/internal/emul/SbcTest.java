package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.device.DeviceAttributes;

/** SBC-3 medium access and capacity commands, each rule with its sense. */
class SbcTest {
    private final Harness h = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS);

    static byte[] pattern(int len, int seed) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (seed + i * 7);
        }
        return b;
    }

    @Test
    void everyReadAndWriteSizeRoundTrips() {
        byte[] d = pattern(3 * 512, 1);
        h.run(Cdb.write10(10, 3, 0), d).good();
        assertArrayEquals(d, h.run(Cdb.read10(10, 3, 0)).good().data());
        assertArrayEquals(d, h.run(Cdb.read6(10, 3)).good().data());
        assertArrayEquals(d, h.run(Cdb.read12(10, 3, 0)).good().data());
        assertArrayEquals(d, h.run(Cdb.read16(10, 3, Cdb.FUA)).good().data());
        byte[] e = pattern(512, 9);
        h.run(Cdb.write6(1, 1), e).good();
        h.run(Cdb.write12(2, 1, Cdb.FUA), e).good();
        h.run(Cdb.write16(3, 1, 0), e).good();
        h.run(Cdb.writeAndVerify10(4, 1), e).good();
        h.run(Cdb.writeAndVerify16(5, 1), e).good();
        for (int lba = 1; lba <= 5; lba++) {
            assertArrayEquals(e, h.run(Cdb.read10(lba, 1, 0)).good().data(), "LBA " + lba);
        }
    }

    @Test
    void sixByteTransferLengthZeroMeans256Blocks() {
        assertEquals(256 * 512, h.run(Cdb.read6(0, 0)).good().data().length);
        assertEquals(0, h.run(Cdb.read10(0, 0, 0)).good().data().length);
    }

    @Test
    void lbaOutOfRange() {
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.read10(1023, 2, 0));
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.write16(-1L, 1, 0));
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.read16(1025, 0, 0));
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.verify16(1024, 1, 0));
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.synchronizeCache10(1000, 100));
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.compareAndWrite(1024, 1, 0));
        h.run(Cdb.read10(1023, 1, 0)).good();
        h.run(Cdb.read10(1024, 0, 0)).good();
    }

    @Test
    void transferLongerThanBlockLimitsPointsAtTheLength() {
        Harness big = Harness.ramdisk(32768, 512, DeviceAttributes.DEFAULTS);
        big.expectInvalidField(Cdb.read16(0, 16385, 0), 10, 7);
        big.expectInvalidField(Cdb.write12(0, 16385, 0), 6, 7);
    }

    @Test
    void protectionFieldsWithoutProtectionInformation() {
        h.expectInvalidField(Cdb.read10(0, 1, 0x20), 1, 7);
        h.expectInvalidField(Cdb.write16(0, 1, 0xE0), 1, 7);
        h.expectInvalidField(new byte[] {0x2F, 0x40, 0, 0, 0, 0, 0, 0, 1, 0}, 1, 7); // VRPROTECT
        h.expectInvalidField(Cdb.compareAndWrite(0, 1, 0x20), 1, 7);
    }

    @Test
    void readOnlyDeviceRefusesEveryWrite() {
        Harness ro = Harness.ramdisk(64, 512, DeviceAttributes.DEFAULTS.withReadOnly(true).withThinProvisioning(true));
        for (byte[] cdb : new byte[][] {Cdb.write6(0, 1), Cdb.write10(0, 1, 0), Cdb.write12(0, 1, 0), Cdb.write16(0, 1, 0),
            Cdb.writeAndVerify10(0, 1), Cdb.writeSame16(0, 1, 0), Cdb.compareAndWrite(0, 1, 0), Cdb.unmap(24)}) {
            ro.expect(SenseKey.DATA_PROTECT, Asc.WRITE_PROTECTED, cdb);
        }
        ro.run(Cdb.read10(0, 1, 0)).good();
    }

    @Test
    void reservedBitsNacaAndUnknownOpcodes() {
        byte[] r = Cdb.read10(0, 1, 0);
        r[1] = 0x01; // obsolete
        h.expectInvalidField(r, 1, 0);
        byte[] naca = Cdb.read10(0, 1, 0);
        naca[9] = 0x04;
        h.expectInvalidField(naca, 9, 2);
        byte[] group = Cdb.write10(0, 1, 0);
        group[6] = (byte) 0x20; // above the 5-bit GROUP NUMBER
        h.expectInvalidField(group, 6, 5);
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_COMMAND_OPERATION_CODE, new byte[] {(byte) 0xC0, 0, 0, 0, 0, 0});
        // UNMAP is unsupported without thin provisioning.
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_COMMAND_OPERATION_CODE, Cdb.unmap(24));
        // A SERVICE ACTION IN(16) service action that is not supported points at the field.
        byte[] sa = Cdb.readCapacity16(32);
        sa[1] = 0x11;
        h.expectInvalidField(sa, 1, 4);
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_COMMAND_INFORMATION_UNIT, new byte[] {0x28, 0, 0});
    }

    @Test
    void readCapacity() {
        assertArrayEquals(HexFormat.of().parseHex("000003ff00000200"), h.run(Cdb.readCapacity10()).good().data());
        byte[] rc16 = h.run(Cdb.readCapacity16(32)).good().data();
        byte[] expected = new byte[32];
        System.arraycopy(HexFormat.of().parseHex("00000000000003ff00000200"), 0, expected, 0, 12);
        assertArrayEquals(expected, rc16);
        Harness thin = Harness.ramdisk(64, 4096, DeviceAttributes.DEFAULTS.withThinProvisioning(true));
        assertEquals((byte) 0xC0, thin.run(Cdb.readCapacity16(32)).good().data()[14]);
        byte[] pmi = Cdb.readCapacity10();
        pmi[5] = 1;
        h.expectInvalidField(pmi, 2, 7);
        pmi[8] = 1;
        h.run(pmi).good();
    }

    @Test
    void verifyComparesAndReportsTheFirstDifference() {
        byte[] d = pattern(1024, 3);
        h.run(Cdb.write10(20, 2, 0), d).good();
        h.run(Cdb.verify10(20, 2, 0)).good();
        h.run(Cdb.verify10(20, 2, 1), d).good();
        byte[] bad = d.clone();
        bad[700] ^= 1;
        var s = h.expect(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION, Cdb.verify16(20, 2, 1), bad);
        assertEquals(OptionalLong.of(700), s.information());
        byte[] same = pattern(512, 5);
        h.run(Cdb.write10(30, 1, 0), same).good();
        h.run(Cdb.write10(31, 1, 0), same).good();
        h.run(Cdb.verify10(30, 2, 3), same).good();
        h.expectInvalidField(Cdb.verify10(30, 2, 2), 1, 2);
    }

    @Test
    void compareAndWriteWritesOnlyOnMatch() {
        byte[] old = pattern(512, 1);
        byte[] neu = pattern(512, 2);
        h.run(Cdb.write10(7, 1, 0), old).good();
        byte[] both = new byte[1024];
        System.arraycopy(old, 0, both, 0, 512);
        System.arraycopy(neu, 0, both, 512, 512);
        h.run(Cdb.compareAndWrite(7, 1, 0), both).good();
        assertArrayEquals(neu, h.run(Cdb.read10(7, 1, 0)).good().data());
        var s = h.expect(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION, Cdb.compareAndWrite(7, 1, 0), both);
        assertEquals(OptionalLong.of(0), s.information());
        assertArrayEquals(neu, h.run(Cdb.read10(7, 1, 0)).good().data());
        h.expectInvalidField(Cdb.compareAndWrite(0, 65, 0), 13, 7);
        assertEquals(0, h.run(Cdb.compareAndWrite(0, 0, 0)).good().data().length);
    }

    @Test
    void startStopUnitAndPreventAllow() {
        h.run(Cdb.startStopUnit(false, false, false)).good();
        h.expect(SenseKey.NOT_READY, Asc.LOGICAL_UNIT_NOT_READY_INITIALIZING_COMMAND_REQUIRED, Cdb.testUnitReady());
        h.expect(SenseKey.NOT_READY, Asc.LOGICAL_UNIT_NOT_READY_INITIALIZING_COMMAND_REQUIRED, Cdb.read10(0, 1, 0));
        assertEquals(SenseKey.NOT_READY, org.rdma.scsi.Sense.decode(h.run(Cdb.requestSense(false, 18)).good().data(), 0, 18).key());
        h.run(Cdb.inquiry(false, 0, 36)).good();
        h.run(Cdb.startStopUnit(false, false, true)).good();
        h.run(Cdb.testUnitReady()).good();
        h.run(Cdb.preventAllowMediumRemoval(1)).good();
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.MEDIUM_REMOVAL_PREVENTED, Cdb.startStopUnit(false, true, false));
        h.run(Cdb.preventAllowMediumRemoval(0)).good();
        h.run(Cdb.startStopUnit(false, true, false)).good();
        h.expectInvalidField(Cdb.preventAllowMediumRemoval(2), 4, 1);
        byte[] power = Cdb.startStopUnit(false, false, true);
        power[4] |= 0x10;
        h.expectInvalidField(power, 4, 7);
    }

    @Test
    void synchronizeCacheIsGoodInRange() {
        h.run(Cdb.synchronizeCache10(0, 0)).good();
        h.run(Cdb.synchronizeCache16(1000, 24)).good();
    }

    @Test
    void requestSenseReportsAndClearsUnitAttentionInEitherFormat() {
        h.unitAttentions.add(org.rdma.scsi.Sense.of(SenseKey.UNIT_ATTENTION, Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED));
        byte[] d = h.run(Cdb.requestSense(true, 252)).good().data();
        assertArrayEquals(HexFormat.of().parseHex("7206290000000000"), d);
        byte[] f = h.run(Cdb.requestSense(false, 252)).good().data();
        assertEquals(18, f.length);
        assertEquals(SenseKey.NO_SENSE, org.rdma.scsi.Sense.decode(f, 0, f.length).key());
        assertTrue(Arrays.equals(new byte[0], h.run(Cdb.requestSense(false, 0)).good().data()));
    }
}
