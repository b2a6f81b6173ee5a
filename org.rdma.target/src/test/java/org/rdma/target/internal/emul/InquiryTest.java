package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Cdb;
import org.rdma.target.internal.device.DeviceAttributes;

/** INQUIRY data laid out by hand from SPC-4 6.6.2, 7.8 and SBC-3 6.5. */
class InquiryTest {
    private final Harness h = Harness.ramdisk(2048, 512, DeviceAttributes.DEFAULTS.withThinProvisioning(true)
            .withNonRotational(true));

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static byte[] cat(Object... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (Object p : parts) {
            o.writeBytes(p instanceof String s ? s.getBytes(StandardCharsets.US_ASCII) : (byte[]) p);
        }
        return o.toByteArray();
    }

    @Test
    void standardData() {
        byte[] expected = cat(hex("00 00 06 12 3b 00 00 02"), "OSGIRDMA", "RAMDISK         ", "1.0 ", new byte[22],
                hex("00a0 0460 04c0"));
        assertArrayEquals(expected, h.run(Cdb.inquiry(false, 0, 255)).good().data());
        // The allocation length cuts the data; it is not an error.
        assertArrayEquals(java.util.Arrays.copyOf(expected, 5), h.run(Cdb.inquiry(false, 0, 5)).good().data());
    }

    @Test
    void supportedPagesAndSerial() {
        assertArrayEquals(hex("00 00 0007 00 80 83 86 b0 b1 b2"), h.run(Cdb.inquiry(true, 0, 255)).good().data());
        assertArrayEquals(cat(hex("00 80 0020"), Harness.SERIAL), h.run(Cdb.inquiry(true, 0x80, 255)).good().data());
    }

    @Test
    void deviceIdentificationDesignators() {
        byte[] expected = cat(hex("00 83 0090"),
                // NAA 6: company ID ACDE48, then the serial's first 25 hex digits.
                hex("01 03 00 10 6acde480 12345678 9abcdef0 12345678"),
                // T10 vendor ID: vendor then serial.
                hex("02 01 00 28"), "OSGIRDMA", Harness.SERIAL,
                // Relative target port 1: iSCSI (5), binary, PIV, target port association.
                hex("51 94 00 04 0000 0001"),
                // Target port name, UTF-8, null-terminated, padded to 36.
                hex("53 98 00 24"), "iqn.2003-01.org.example:t1,t,0x0001", new byte[1],
                // Target device name, padded to 28.
                hex("53 a8 00 1c"), "iqn.2003-01.org.example:t1", new byte[2]);
        assertArrayEquals(expected, h.run(Cdb.inquiry(true, 0x83, 512)).good().data());
    }

    @Test
    void blockPages() {
        byte[] b0 = h.run(Cdb.inquiry(true, 0xB0, 255)).good().data();
        byte[] expected = new byte[64];
        System.arraycopy(hex("00 b0 003c 01 40 0001 00004000 00004000 00000000 00100000 00000100 00000080 00000000"
                + "0000000000100000"), 0, expected, 0, 44);
        assertArrayEquals(expected, b0);
        byte[] b1 = h.run(Cdb.inquiry(true, 0xB1, 255)).good().data();
        assertArrayEquals(hex("00 b1 003c 0001"), java.util.Arrays.copyOf(b1, 6));
        assertEquals(64, b1.length);
        assertArrayEquals(hex("00 b2 0004 00 e4 02 00"), h.run(Cdb.inquiry(true, 0xB2, 255)).good().data());
        byte[] ext = h.run(Cdb.inquiry(true, 0x86, 255)).good().data();
        assertArrayEquals(hex("00 86 003c 00 07 01"), java.util.Arrays.copyOf(ext, 7));
    }

    @Test
    void badPageCodes() {
        h.expectInvalidField(Cdb.inquiry(false, 0x80, 255), 2, 7);
        h.expectInvalidField(Cdb.inquiry(true, 0x84, 255), 2, 7);
        h.expectInvalidField(new byte[] {0x12, 0x02, 0, 0, (byte) 0xFF, 0}, 1, 1); // CMDDT, obsolete
    }

    @Test
    void unmappedLunAnswersPeripheralQualifier3() {
        Cmd c = new Cmd(Cdb.inquiry(false, 0, 96), null, h);
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> {
            CommandTable.parse(c);
            c.setData(java.nio.ByteBuffer.allocate(c.length()));
            c.exec().execute(c);
        });
        assertEquals(0x7F, c.data().get(0) & 0xFF);
        assertEquals(36, c.dataInLength());
    }
}
