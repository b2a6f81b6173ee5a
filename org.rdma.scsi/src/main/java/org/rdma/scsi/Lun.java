package org.rdma.scsi;

/**
 * The 8-byte LUN of SAM-5 4.6, as a big-endian {@code long} (byte 0 of the LUN in the top byte).
 * Single-level LUNs use peripheral device addressing (4.6.6, method 00b, bus 0) up to 255 and
 * flat space addressing (4.6.8, method 01b) up to 16,383; the well-known REPORT LUNS LUN is
 * extended addressing (4.6.9, 4.6.10). Linux's {@code int_to_scsilun()}/{@code scsilun_to_int()},
 * without their multi-level arithmetic.
 */
public final class Lun {
    /** The largest LUN peripheral device addressing encodes. */
    public static final int MAX_PERIPHERAL = 255;
    /** The largest LUN flat space addressing encodes. */
    public static final int MAX_FLAT = 0x3FFF;
    /** The REPORT LUNS well-known logical unit (SPC-4 8.2), W-LUN 0x01. */
    public static final long REPORT_LUNS_WELL_KNOWN = 0xC101_0000_0000_0000L;

    private static final int METHOD_PERIPHERAL = 0b00;
    private static final int METHOD_FLAT = 0b01;
    private static final int METHOD_EXTENDED = 0b11;

    private Lun() {
    }

    /**
     * The SAM-5 encoding of a single-level LUN: peripheral device addressing for 0..255, flat
     * space addressing for 256..16383.
     *
     * @throws IllegalArgumentException {@code EINVAL} outside 0..16383
     */
    public static long encode(int lun) {
        if (lun < 0 || lun > MAX_FLAT) {
            throw new IllegalArgumentException("EINVAL: LUN " + lun + " outside 0.." + MAX_FLAT);
        }
        long first = lun <= MAX_PERIPHERAL ? lun : (long) (METHOD_FLAT << 14 | lun);
        return first << 48;
    }

    /**
     * The LUN number of a single-level peripheral (bus 0) or flat space LUN.
     *
     * @throws IllegalArgumentException {@code EINVAL} for multi-level LUNs, a non-zero bus
     *         identifier, logical unit and extended addressing (well-known LUNs included): a
     *         target answers those as LOGICAL UNIT NOT SUPPORTED
     */
    public static int decode(long lun) {
        if ((lun & 0x0000_FFFF_FFFF_FFFFL) != 0) {
            throw new IllegalArgumentException("EINVAL: multi-level LUN " + toString(lun));
        }
        int first = (int) (lun >>> 48);
        int method = first >>> 14;
        if (method == METHOD_PERIPHERAL && first >>> 8 == 0) {
            return first;
        }
        if (method == METHOD_FLAT) {
            return first & MAX_FLAT;
        }
        throw new IllegalArgumentException("EINVAL: LUN " + toString(lun) + " is not a single-level peripheral or flat LUN");
    }

    /** Whether the LUN is a well-known logical unit (extended addressing, SAM-5 4.6.10). */
    public static boolean isWellKnown(long lun) {
        return (lun >>> 62) == METHOD_EXTENDED && (lun >>> 56 & 0x3F) == 0x01;
    }

    /** The 8 bytes of a LUN, byte 0 first. */
    public static byte[] toBytes(long lun) {
        byte[] b = new byte[8];
        Sense.putBe(b, 0, lun, 8);
        return b;
    }

    /** The LUN in 8 bytes at {@code off}. */
    public static long fromBytes(byte[] b, int off) {
        return Sense.getBe(b, off, 8);
    }

    /** Sixteen hex digits, as sg3_utils prints LUNs. */
    public static String toString(long lun) {
        return String.format("%016x", lun);
    }
}
