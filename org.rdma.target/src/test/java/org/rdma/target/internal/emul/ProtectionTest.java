package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.T10Pi;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.device.DeviceAttributes;

/**
 * T10 protection information (SBC-3 4.22) on ramdisks formatted with DIF types 1, 2 and 3: what
 * the device reports, the tuples it generates, and the checks of each RDPROTECT, WRPROTECT and
 * VRPROTECT value with their sense data. Tuples are written out by hand: zero blocks have a zero
 * guard; other guards come from the CRC whose check value T10PiTest pins down.
 */
class ProtectionTest {
    private static final int RD1 = 1 << 5, RD2 = 2 << 5, RD3 = 3 << 5, RD4 = 4 << 5, RD6 = 6 << 5;

    private static Harness formatted(int type) {
        // 64 MiB, allocated only where written.
        return new Harness(Harness.device(new RamdiskBackstore(64 << 20, 512, type), DeviceAttributes.DEFAULTS));
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    /** A block of {@code fill} and its tuple, interleaved as SBC-3 4.22.1 transfers them. */
    private static byte[] withTuple(int fill, int guard, int app, long ref) {
        byte[] b = Arrays.copyOf(block(fill), 520);
        System.arraycopy(hex(String.format("%04x %04x %08x", guard, app, ref)), 0, b, 512, 8);
        return b;
    }

    private static byte[] block(int fill) {
        byte[] b = new byte[512];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private static int guardOf(int fill) {
        return T10Pi.crc16(block(fill), 0, 512);
    }

    private static byte[] concat(byte[]... parts) {
        byte[] all = new byte[Arrays.stream(parts).mapToInt(p -> p.length).sum()];
        int off = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, off, p.length);
            off += p.length;
        }
        return all;
    }

    private static void expectPi(Harness h, Asc asc, long lba, byte[] cdb, byte[] data) {
        Sense s = h.expect(SenseKey.ABORTED_COMMAND, asc, cdb, data);
        assertEquals(lba, s.information().getAsLong(), s.toString());
    }

    @Test
    void theDeviceReportsItsProtectionType() {
        int[] readCapacityByte12 = {0x00, 0x01, 0x03, 0x05};
        int[] extendedInquiryByte4 = {0x00, 0x07, 0x17, 0x26};
        for (int type = 0; type <= 3; type++) {
            Harness h = type == 0 ? Harness.ramdisk(2048, 512, DeviceAttributes.DEFAULTS) : formatted(type);
            assertEquals(readCapacityByte12[type], h.run(Cdb.readCapacity16(32)).good().data()[12], "P_TYPE, PROT_EN");
            assertEquals(type == 0 ? 0 : 1, h.run(Cdb.inquiry(false, 0, 96)).good().data()[5], "PROTECT");
            assertEquals(extendedInquiryByte4[type], h.run(Cdb.inquiry(true, 0x86, 64)).good().data()[4], "SPT GRD_CHK APP_CHK REF_CHK");
            assertEquals(type == 0 ? 0x40 : 0xC0, h.run(Cdb.modeSense6(true, 0, 0x0A, 0, 64)).good().data()[4 + 5] & 0xFF, "ATO, TAS");
        }
    }

    @Test
    void writesWithoutProtectionInformationGetTuplesGenerated() {
        Harness h = formatted(1);
        h.run(Cdb.write10(0x12345, 2, 0), new byte[1024]).good();
        assertArrayEquals(hex("0000 0000 00012345"), Arrays.copyOfRange(h.run(Cdb.read10(0x12345, 1, RD1)).good().data(), 512, 520));
        byte[] two = h.run(Cdb.read16(0x12345, 2, RD1)).good().data();
        assertEquals(1040, two.length);
        assertArrayEquals(hex("0000 0000 00012346"), Arrays.copyOfRange(two, 1032, 1040));
        h.run(Cdb.write10(7, 1, 0), block(0x5A)).good();
        assertArrayEquals(withTuple(0x5A, guardOf(0x5A), 0, 7), h.run(Cdb.read10(7, 1, RD1)).good().data());
        assertArrayEquals(block(0x5A), h.run(Cdb.read10(7, 1, 0)).good().data(), "RDPROTECT 000b strips the tuples");
    }

    @Test
    void unwrittenBlocksCarryTheEscapeTupleAndPassEveryCheck() {
        Harness h = formatted(1);
        assertArrayEquals(concat(block(0), hex("ffff ffff ffffffff")), h.run(Cdb.read10(100, 1, RD1)).good().data());
        h.run(Cdb.read10(100, 8, 0)).good();
    }

    @Test
    void wrprotectChecksTheTuplesBeforeWritingAnything() {
        Harness h = formatted(1);
        byte[] good = concat(withTuple(0x11, guardOf(0x11), 0x0042, 20), withTuple(0x22, guardOf(0x22), 0x0043, 21));
        h.run(Cdb.write10(20, 2, RD1), good).good();
        assertArrayEquals(good, h.run(Cdb.read10(20, 2, RD1)).good().data(), "the application tags are kept (ATO)");
        byte[] badGuard = concat(withTuple(0x33, guardOf(0x33), 0, 30), withTuple(0x44, guardOf(0x44) ^ 1, 0, 31));
        expectPi(h, Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, 31, Cdb.write10(30, 2, RD1), badGuard);
        byte[] badRef = concat(withTuple(0x33, guardOf(0x33), 0, 30), withTuple(0x44, guardOf(0x44), 0, 30));
        expectPi(h, Asc.LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED, 31, Cdb.write16(30, 2, RD1), badRef);
        assertArrayEquals(block(0), h.run(Cdb.read10(30, 1, 0)).good().data(), "nothing of a refused write is written");
        h.run(Cdb.write10(30, 2, RD4), badRef).good();
        h.run(Cdb.write10(32, 1, RD2), withTuple(0x55, 0xDEAD, 0, 32)).good();
        h.run(Cdb.write10(33, 1, RD3), withTuple(0x66, 0xDEAD, 0, 99)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED, 31, Cdb.write10(30, 2, RD2), badRef);
    }

    @Test
    void rdprotectSaysWhichChecksTheMediumGets() {
        Harness h = formatted(1);
        h.run(Cdb.write10(40, 1, RD3), withTuple(0x77, 0xDEAD, 0, 40)).good();
        h.run(Cdb.write10(41, 1, RD3), withTuple(0x77, guardOf(0x77), 0, 99)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, 40, Cdb.read10(40, 2, 0), new byte[0]);
        expectPi(h, Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, 40, Cdb.read10(40, 2, RD1), new byte[0]);
        expectPi(h, Asc.LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED, 41, Cdb.read10(40, 2, RD2), new byte[0]);
        h.run(Cdb.read10(40, 2, RD3)).good();
        h.run(Cdb.read10(41, 1, RD4)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, 40, Cdb.read10(40, 2, RD4), new byte[0]);
        h.run(Cdb.write10(42, 1, RD3), withTuple(0x77, 0xDEAD, 0xFFFF, 0)).good();
        h.run(Cdb.read10(42, 1, RD1)).good();
        Sense reserved = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB, Cdb.read10(40, 1, RD6));
        assertEquals(Sense.invalidFieldInCdb(1, 7), reserved);
    }

    @Test
    void typeThreeOwnsNoReferenceTagAndEscapesOnlyWithBothTags() {
        Harness h = formatted(3);
        h.run(Cdb.write10(5, 1, 0), block(0x10)).good();
        assertArrayEquals(withTuple(0x10, guardOf(0x10), 0, 0), h.run(Cdb.read10(5, 1, RD1)).good().data());
        h.run(Cdb.write10(6, 1, RD1), withTuple(0x10, guardOf(0x10), 0x1234, 0xCAFEBABEL)).good();
        h.run(Cdb.write10(7, 1, RD3), withTuple(0x10, 0xDEAD, 0xFFFF, 0)).good();
        h.run(Cdb.write10(8, 1, RD3), withTuple(0x10, 0xDEAD, 0xFFFF, 0xFFFFFFFFL)).good();
        h.run(Cdb.read10(6, 1, RD1)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, 7, Cdb.read10(6, 3, RD1), new byte[0]);
        h.run(Cdb.read10(8, 1, RD1)).good();
    }

    private static byte[] cdb32(int sa, int flags, long lba, int blocks, long ref, int app, int mask) {
        return Cdb.variableLength32(sa, flags, lba, blocks, ref, app, mask);
    }

    @Test
    void typeTwoGoesThroughTheThirtyTwoByteCdbs() {
        Harness h = formatted(2);
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_COMMAND_OPERATION_CODE, Cdb.read10(0, 1, RD1));
        h.run(Cdb.read10(0, 1, 0)).good();
        h.run(cdb32(Opcode.VL_WRITE_32, 0, 50, 2, 0x1000, 0xBEEF, 0xFFFF), concat(block(0x21), block(0x22))).good();
        byte[] both = h.run(cdb32(Opcode.VL_READ_32, RD1, 50, 2, 0x1000, 0xBEEF, 0xFFFF)).good().data();
        assertArrayEquals(concat(withTuple(0x21, guardOf(0x21), 0xBEEF, 0x1000), withTuple(0x22, guardOf(0x22), 0xBEEF, 0x1001)),
                both);
        expectPi(h, Asc.LOGICAL_BLOCK_APPLICATION_TAG_CHECK_FAILED, 50,
                cdb32(Opcode.VL_READ_32, RD1, 50, 2, 0x1000, 0xBEEE, 0xFFFF), new byte[0]);
        h.run(cdb32(Opcode.VL_READ_32, RD1, 50, 2, 0x1000, 0xBE00, 0xFF00)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED, 50,
                cdb32(Opcode.VL_READ_32, 0, 50, 2, 0x2000, 0xBEEF, 0xFFFF), new byte[0]);
        h.run(Cdb.read16(50, 2, 0)).good();
        byte[] badLength = cdb32(Opcode.VL_READ_32, 0, 50, 1, 0, 0, 0);
        badLength[7] = 0x10;
        assertEquals(Sense.invalidFieldInCdb(7, 7), h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB, badLength));
        byte[] unknown = cdb32(0x0F, 0, 0, 1, 0, 0, 0);
        assertEquals(Sense.invalidFieldInCdb(8, 7), h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB, unknown));
        formatted(1).expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_COMMAND_OPERATION_CODE,
                cdb32(Opcode.VL_READ_32, 0, 0, 1, 0, 0, 0));
    }

    @Test
    void verifyChecksTheMediumAndTheDataOut() {
        Harness h = formatted(1);
        h.run(Cdb.write10(60, 1, 0), block(0x31)).good();
        h.run(Cdb.write10(61, 1, RD3), withTuple(0x32, 0xDEAD, 0, 61)).good();
        h.run(Cdb.verify10(60, 1, 0)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, 61, Cdb.verify10(60, 2, 0), new byte[0]);
        byte[] verifyWithPi = Cdb.verify10(60, 1, 1);
        verifyWithPi[1] |= (byte) RD1;
        h.run(verifyWithPi, withTuple(0x31, guardOf(0x31), 0, 60)).good();
        expectPi(h, Asc.LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED, 60, verifyWithPi, withTuple(0x31, guardOf(0x31), 0, 61));
        byte[] differs = block(0x31);
        differs[100] = 0;
        byte[] other = concat(differs, hex(String.format("%04x 0000 0000003c", T10Pi.crc16(differs, 0, 512))));
        Sense miscompare = h.expect(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION, verifyWithPi, other);
        assertEquals(100, miscompare.information().getAsLong());
        byte[] reservedVrprotect = Cdb.verify10(60, 1, 0);
        reservedVrprotect[1] |= (byte) (5 << 5);
        assertEquals(Sense.invalidFieldInCdb(1, 7), h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB, reservedVrprotect));
    }

    @Test
    void unmapReturnsTheEscapeTuple() {
        Harness h = new Harness(Harness.device(new RamdiskBackstore(1 << 20, 512, 1),
                DeviceAttributes.DEFAULTS.withThinProvisioning(true)));
        h.run(Cdb.write10(0, 256, 0), new byte[256 * 512]).good();
        byte[] list = Cdb.unmapParameterList(0, 256);
        h.run(Cdb.unmap(list.length), list).good();
        assertArrayEquals(hex("ffff ffff ffffffff"), Arrays.copyOfRange(h.run(Cdb.read10(130, 1, RD1)).good().data(), 512, 520));
    }
}
