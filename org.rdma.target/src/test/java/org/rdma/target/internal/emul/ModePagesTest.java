package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.device.DeviceAttributes;

/** MODE SENSE/SELECT laid out from SPC-4 7.5.5 (headers), SBC-3 6.4.2 and the three pages' tables. */
class ModePagesTest {
    private final Harness h = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS);
    private static final String CACHING_WCE = "08 12 04 00 0000 0000 0000 0000 00 00 0000 00 00 00 00";
    private static final String CONTROL = "0a 0a 00 10 00 00 0000 ffff 0000";
    private static final String IEC_DEXCPT = "1c 0a 08 00 00000000 00000000";

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void modeSense6AllPagesWithBlockDescriptor() {
        // Header: length, medium type, DPOFUA, block descriptor length 8; then 1024 blocks of 512.
        byte[] expected = hex("37 00 10 08 00000400 00 000200" + CACHING_WCE + CONTROL + IEC_DEXCPT);
        assertArrayEquals(expected, h.run(Cdb.modeSense6(false, 0, 0x3F, 0, 255)).good().data());
    }

    @Test
    void modeSense10LongLbaAndChangeableMasks() {
        byte[] expected = hex("0022 00 10 01 00 0010 0000000000000400 00000000 00000200" + "0a 0a 04 00 00 00 0000 0000 0000");
        assertArrayEquals(expected, h.run(Cdb.modeSense10(true, false, 1, 0x0A, 0, 512)).good().data());
        assertArrayEquals(hex("0032 00 10 00 00 0000"), java.util.Arrays.copyOf(
                h.run(Cdb.modeSense10(false, true, 0, 0x3F, 0xFF, 8)).good().data(), 8), "header of all pages, no descriptor");
    }

    @Test
    void writeProtectBitForReadOnlyDevice() {
        Harness ro = Harness.ramdisk(64, 512, DeviceAttributes.DEFAULTS.withReadOnly(true));
        assertEquals((byte) 0x90, ro.run(Cdb.modeSense6(true, 0, 0x08, 0, 255)).good().data()[2]);
    }

    @Test
    void modeSenseChecks() {
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.SAVING_PARAMETERS_NOT_SUPPORTED, Cdb.modeSense6(false, 3, 0x08, 0, 255));
        h.expectInvalidField(Cdb.modeSense6(false, 0, 0x19, 0, 255), 2, 5);
        h.expectInvalidField(Cdb.modeSense6(false, 0, 0x08, 1, 255), 3, 7);
    }

    @Test
    void modeSelectTurnsTheWriteCacheOffAndTellsTheOtherNexuses() {
        byte[] p = hex("00 00 00 00" + CACHING_WCE.replaceFirst("08 12 04", "08 12 00"));
        h.run(Cdb.modeSelect6(true, false, p.length), p).good();
        assertFalse(h.dev.writeCacheEnabled());
        assertEquals(List.of("mode parameters changed", "status GOOD"), h.events);
        byte[] d = hex("00000000 0000 0000" + CONTROL.replaceFirst("0a 0a 00", "0a 0a 04"));
        h.run(Cdb.modeSelect10(true, false, d.length), d).good();
        assertTrue(h.dev.descriptorSense());
    }

    @Test
    void modeSelectRefusesChangesOutsideTheMask() {
        byte[] p = hex("00 00 00 08 00000000 00 000200" + CONTROL.replaceFirst("0a 0a 00 10", "0a 0a 00 00"));
        Sense s = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST, Cdb.modeSelect6(true, false, p.length), p);
        assertEquals(Sense.invalidFieldInParameterList(4 + 8 + 3, 4), s);
        byte[] wrongBlock = hex("00 00 00 08 00000000 00 001000");
        s = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST, Cdb.modeSelect6(true, false, 12), wrongBlock);
        assertEquals(Sense.invalidFieldInParameterList(9, 7), s);
        byte[] unknown = hex("00 00 00 00 19 02 00 00");
        s = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST, Cdb.modeSelect6(true, false, 8), unknown);
        assertEquals(Sense.invalidFieldInParameterList(4, 5), s);
        byte[] badLength = hex("00 00 00 00 08 11 04");
        s = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST, Cdb.modeSelect6(true, false, 7), badLength);
        assertEquals(Sense.invalidFieldInParameterList(5, 7), s);
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR, Cdb.modeSelect6(true, false, 3), new byte[3]);
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR, Cdb.modeSelect6(true, false, 10),
                hex("00 00 00 00 08 12 04 00 00 00"));
        h.expectInvalidField(Cdb.modeSelect6(false, false, 4), 1, 4);
        h.expectInvalidField(Cdb.modeSelect10(true, true, 8), 1, 0);
        assertTrue(h.dev.writeCacheEnabled());
        assertFalse(h.events.contains("mode parameters changed"));
    }

    @Test
    void modeSelectOfTheCurrentValuesChangesNothing() {
        byte[] p = hex("00 00 00 00" + CACHING_WCE + CONTROL + IEC_DEXCPT);
        h.run(Cdb.modeSelect6(true, false, p.length), p).good();
        assertFalse(h.events.contains("mode parameters changed"));
    }
}
