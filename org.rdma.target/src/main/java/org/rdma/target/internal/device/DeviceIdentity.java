package org.rdma.target.internal.device;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A device's names in VPD pages 0x80 and 0x83: the unit serial number and the NAA IEEE Registered
 * Extended (NAA 6) designator derived from it, as LIO's {@code spc_gen_naa_6h_vendor_specific()}
 * derives its designator from the serial, so both stay the same as long as the serial does.
 *
 * @param serial the unit serial number (ASCII)
 * @param naa the 16-byte NAA 6 designator
 */
public record DeviceIdentity(String serial, byte[] naa) {
    /**
     * The IEEE company ID of the NAA designator. 0xACDE48 is the IEEE's own example CID (IEEE
     * 802-2014, 8.2); a deployment that owns an OUI configures that instead.
     */
    public static final int DEFAULT_COMPANY_ID = 0xACDE48;
    /** T10 VENDOR IDENTIFICATION of INQUIRY and the T10 vendor ID designator (8 bytes). */
    public static final String VENDOR = "OSGIRDMA";

    /** A serial that is stable for a backstore: a name-based UUID of its type and name. */
    public static String defaultSerial(String type, String name) {
        return UUID.nameUUIDFromBytes((type + "/" + name).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The identity of a serial: NAA 6 (bits 127-124), the company ID (bits 123-100), then 100 bits
     * of vendor-specific identifier and extension from the serial's hex digits (non-hex characters
     * skipped, missing digits zero).
     *
     * @throws IllegalArgumentException {@code EINVAL} for a serial with other than printable ASCII
     */
    public static DeviceIdentity of(String serial, int companyId) {
        if (serial.isEmpty() || !serial.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
            throw new IllegalArgumentException("EINVAL: unit serial '" + serial + "' is not printable ASCII");
        }
        int[] nibbles = new int[32];
        nibbles[0] = 6;
        for (int i = 0; i < 6; i++) {
            nibbles[1 + i] = companyId >> (20 - 4 * i) & 0xF;
        }
        int n = 7;
        for (int i = 0; i < serial.length() && n < 32; i++) {
            int d = Character.digit(serial.charAt(i), 16);
            if (d >= 0) {
                nibbles[n++] = d;
            }
        }
        byte[] naa = new byte[16];
        for (int i = 0; i < 16; i++) {
            naa[i] = (byte) (nibbles[2 * i] << 4 | nibbles[2 * i + 1]);
        }
        return new DeviceIdentity(serial, naa);
    }

    /** The NAA designator as 32 hex digits. */
    public String wwn() {
        return java.util.HexFormat.of().formatHex(naa);
    }
}
