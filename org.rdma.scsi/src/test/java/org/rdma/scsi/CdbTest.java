package org.rdma.scsi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rdma.scsi.SenseTest.assertErrno;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** CDBs laid out by hand from the SPC-4 / SBC-3 command tables. */
class CdbTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void readWriteFamily() {
        assertArrayEquals(hex("08 1fffff 00 00"), Cdb.read6(0x1FFFFF, 256));
        assertArrayEquals(hex("0a 000010 08 00"), Cdb.write6(0x10, 8));
        assertArrayEquals(hex("28 08 12345678 00 0102 00"), Cdb.read10(0x12345678, 0x102, Cdb.FUA));
        assertArrayEquals(hex("2a 10 00000001 00 0001 00"), Cdb.write10(1, 1, Cdb.DPO));
        assertArrayEquals(hex("a8 00 00000002 00010000 00 00"), Cdb.read12(2, 0x10000, 0));
        assertArrayEquals(hex("aa 08 00000002 00000003 00 00"), Cdb.write12(2, 3, Cdb.FUA));
        assertArrayEquals(hex("88 00 0000000100000000 00000010 00 00"), Cdb.read16(1L << 32, 16, 0));
        assertArrayEquals(hex("8a 08 0000000000000007 00000001 00 00"), Cdb.write16(7, 1, Cdb.FUA));
        assertErrno(() -> Cdb.read6(1 << 21, 1));
        assertErrno(() -> Cdb.read10(1L << 32, 1, 0));
        assertErrno(() -> Cdb.read10(0, 0x10000, 0));
    }

    @Test
    void verifyCompareWriteSameUnmapSync() {
        assertArrayEquals(hex("2f 02 00000010 00 0004 00"), Cdb.verify10(0x10, 4, 1));
        assertArrayEquals(hex("8f 06 0000000000000010 00000004 00 00"), Cdb.verify16(0x10, 4, 3));
        assertArrayEquals(hex("2e 00 00000001 00 0002 00"), Cdb.writeAndVerify10(1, 2));
        assertArrayEquals(hex("89 08 0000000000000100 000000 02 00 00"), Cdb.compareAndWrite(0x100, 2, Cdb.FUA));
        assertArrayEquals(hex("41 08 00000000 00 0010 00"), Cdb.writeSame10(0, 16, Cdb.WS_UNMAP));
        assertArrayEquals(hex("93 00 0000000000000001 00000002 00 00"), Cdb.writeSame16(1, 2, 0));
        assertArrayEquals(hex("42 00 00000000 00 0018 00"), Cdb.unmap(24));
        // UNMAP data length 22, block descriptor data length 16, reserved, LBA 5, 9 blocks.
        assertArrayEquals(hex("0016 0010 00000000 0000000000000005 00000009 00000000"), Cdb.unmapParameterList(5, 9));
        assertArrayEquals(hex("35 00 00000000 00 0000 00"), Cdb.synchronizeCache10(0, 0));
        assertArrayEquals(hex("91 00 0000000000000003 00000004 00 00"), Cdb.synchronizeCache16(3, 4));
        assertErrno(() -> Cdb.unmapParameterList(1));
    }

    @Test
    void spcCommands() {
        assertArrayEquals(hex("00 0000000000"), Cdb.testUnitReady());
        assertArrayEquals(hex("03 01 0000 fc 00"), Cdb.requestSense(true, 252));
        assertArrayEquals(hex("12 01 83 0100 00"), Cdb.inquiry(true, 0x83, 256));
        assertArrayEquals(hex("a0 00 02 000000 00001000 00 00"), Cdb.reportLuns(2, 4096));
        assertArrayEquals(hex("1a 08 7f 00 ff 00"), Cdb.modeSense6(true, 1, 0x3F, 0, 255));
        assertArrayEquals(hex("5a 10 88 00 000000 0400 00"), Cdb.modeSense10(true, false, 2, 8, 0, 1024));
        assertArrayEquals(hex("15 11 0000 18 00"), Cdb.modeSelect6(true, true, 24));
        assertArrayEquals(hex("55 10 00000000 00 0020 00"), Cdb.modeSelect10(true, false, 32));
        assertArrayEquals(hex("a3 0c 82 28 0010 00000200 00 00"), Cdb.reportSupportedOperationCodes(true, 2, 0x28, 0x10, 512));
        assertArrayEquals(hex("a3 0d 80 000000 00000010 00 00"), Cdb.reportSupportedTaskManagementFunctions(true, 16));
        assertArrayEquals(hex("1b 01 0000 02 00"), Cdb.startStopUnit(true, true, false));
        assertArrayEquals(hex("1e 00 0000 01 00"), Cdb.preventAllowMediumRemoval(1));
        assertArrayEquals(hex("5e 01 00000000 00 2000 00"), Cdb.persistentReserveIn(Opcode.PRI_READ_RESERVATION, 0x2000));
        assertArrayEquals(hex("5f 00 05 0000 00000018 00"), Cdb.persistentReserveOut(Opcode.PRO_REGISTER, 5, 24));
        assertArrayEquals(hex("9e 10 0000000000000000 00000020 00 00"), Cdb.readCapacity16(32));
        assertArrayEquals(hex("9e 12 0000000000000009 00000018 00 00"), Cdb.getLbaStatus(9, 24));
        assertArrayEquals(hex("25 00 00000000 0000 00 00"), Cdb.readCapacity10());
        assertArrayEquals(hex("16 00 00 00 00 00"), Cdb.reserve6());
        assertArrayEquals(hex("57 00 00 00 00 00 00 00 00 00"), Cdb.release10());
    }

    @Test
    void opcodeNamesAndGroupLengths() {
        assertEquals("READ(10)", Opcode.name(0x28));
        assertEquals("SERVICE ACTION IN(16)", Opcode.name(0x9E));
        assertEquals("0xC0", Opcode.name(0xC0));
        assertEquals(6, Opcode.cdbLength(Opcode.INQUIRY));
        assertEquals(10, Opcode.cdbLength(Opcode.UNMAP));
        assertEquals(10, Opcode.cdbLength(Opcode.MODE_SENSE_10));
        assertEquals(12, Opcode.cdbLength(Opcode.REPORT_LUNS));
        assertEquals(16, Opcode.cdbLength(Opcode.COMPARE_AND_WRITE));
        assertEquals(0, Opcode.cdbLength(Opcode.VARIABLE_LENGTH));
    }
}
