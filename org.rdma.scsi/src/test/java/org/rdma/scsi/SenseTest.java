package org.rdma.scsi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Sense data laid out by hand from SPC-4 tables 26-30 (descriptor) and 48 (fixed). */
class SenseTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void fixedInvalidFieldInCdbPointsAtTheField() {
        // byte 0: VALID 0, 0x70; 2: ILLEGAL REQUEST; 7: additional length 10; 12-13: 24h/00h;
        // 15-17: SKSV|C/D|BPV|bit 7, field pointer 0x0002.
        byte[] expected = hex("70 00 05 00000000 0a 00000000 24 00 00 cf 0002");
        assertArrayEquals(expected, Sense.invalidFieldInCdb(2, 7).encode(false));
    }

    @Test
    void fixedCarriesInformationWithValidBit() {
        Sense s = Sense.of(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION).withInformation(0x1234);
        assertArrayEquals(hex("f0 00 0e 00001234 0a 00000000 1d 00 00 000000"), s.encode(false));
    }

    @Test
    void fixedClearsValidWhenInformationNeedsMoreThan32Bits() {
        Sense s = Sense.of(SenseKey.MEDIUM_ERROR, Asc.UNRECOVERED_READ_ERROR).withInformation(0x1_0000_0000L);
        byte[] b = s.encode(false);
        assertEquals(0x70, b[0] & 0xFF);
        assertEquals(OptionalLong.empty(), Sense.decode(b, 0, b.length).information());
        assertEquals(OptionalLong.of(0x1_0000_0000L), Sense.decode(s.encode(true), 0, 16 + 4).information());
    }

    @Test
    void descriptorWithInformationAndSenseKeySpecific() {
        Sense s = Sense.invalidFieldInParameterList(10, -1).withInformation(0x0102030405060708L);
        // header 72 05 26 00 000000 length 20; information descriptor 00 0a 80 00 + 8 bytes;
        // sense key specific descriptor 02 06 0000 SKSV (C/D 0, BPV 0) field pointer 0x000a, 00.
        byte[] expected = hex("72 05 26 00 000000 14" + "00 0a 80 00 0102030405060708" + "02 06 0000 80000a 00");
        assertArrayEquals(expected, s.encode(true));
        assertEquals(s, Sense.decode(expected, 0, expected.length));
    }

    @Test
    void deferredCodesAndCommandSpecificRoundTrip() {
        Sense s = new Sense(SenseKey.HARDWARE_ERROR, Asc.INTERNAL_TARGET_FAILURE, true, OptionalLong.empty(), 0x55, 0);
        byte[] fixed = s.encode(false);
        assertEquals(0x71, fixed[0] & 0xFF);
        assertEquals(s, Sense.decode(fixed, 0, fixed.length));
        byte[] desc = s.encode(true);
        assertArrayEquals(hex("73 04 44 00 000000 0c 01 0a 0000 0000000000000055"), desc);
        assertEquals(s, Sense.decode(desc, 0, desc.length));
    }

    @Test
    void decodeOfShortFixedSenseReadsMissingFieldsAsZero() {
        byte[] b = hex("70 00 06 00000000 00"); // UNIT ATTENTION, additional length 0
        Sense s = Sense.decode(b, 0, b.length);
        assertEquals(SenseKey.UNIT_ATTENTION, s.key());
        assertEquals(Asc.NO_ADDITIONAL_SENSE_INFORMATION, s.asc());
    }

    @Test
    void decodeSkipsUnknownAndStopsAtTruncatedDescriptors() {
        // a vendor descriptor 0x80 of 2 bytes, then an information descriptor cut by the length.
        byte[] b = hex("72 06 29 00 000000 10 80 02 aaaa 00 0a 80 00 00000000");
        Sense s = Sense.decode(b, 0, b.length);
        assertEquals(Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED, s.asc());
        assertFalse(s.information().isPresent());
    }

    @Test
    void decodeRefusesUnknownResponseCodesAndTooShortData() {
        assertErrno(() -> Sense.decode(hex("7f 00 05"), 0, 3));
        assertErrno(() -> Sense.decode(hex("70 00"), 0, 2));
        assertErrno(() -> Sense.decode(hex("72 05 24"), 0, 3));
        assertErrno(() -> Sense.decode(new byte[0], 0, 0));
        assertErrno(() -> Sense.decode(new byte[4], 2, 4));
    }

    @Test
    void fieldPointerAccessors() {
        Sense s = Sense.invalidFieldInCdb(1, 4);
        assertTrue(s.sksValid());
        assertEquals(1, s.fieldPointerByte());
        assertEquals(4, s.fieldPointerBit());
        assertEquals(-1, Sense.invalidFieldInCdb(4, -1).fieldPointerBit());
        assertEquals("ILLEGAL REQUEST: INVALID FIELD IN CDB, field pointer CDB byte 1 bit 4", s.toString());
        assertErrno(() -> Sense.fieldPointer(true, 0x10000, 0));
    }

    @Test
    void ascLookupNamesKnownPairsAndHexForOthers() {
        assertEquals("LOGICAL BLOCK ADDRESS OUT OF RANGE", Asc.of(0x21, 0x00).description());
        assertEquals("ASC 0x80 ASCQ 0x01", Asc.of(0x80, 0x01).description());
        assertEquals(Asc.WRITE_PROTECTED, Asc.of(0x27, 0));
    }

    @Test
    void statusCodes() {
        assertEquals(0x18, ScsiStatus.RESERVATION_CONFLICT.code());
        assertEquals(ScsiStatus.TASK_ABORTED, ScsiStatus.valueOf(0x40));
        assertErrno(() -> ScsiStatus.valueOf(0x22));
        assertEquals(SenseKey.MISCOMPARE, SenseKey.of(0xE));
        assertErrno(() -> new ScsiException(ScsiStatus.GOOD));
        assertEquals(ScsiStatus.CHECK_CONDITION, new ScsiException(SenseKey.NOT_READY, Asc.MEDIUM_NOT_PRESENT).status());
    }

    static void assertErrno(org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        assertTrue(x.getMessage().startsWith("EINVAL: "), x.getMessage());
    }
}
