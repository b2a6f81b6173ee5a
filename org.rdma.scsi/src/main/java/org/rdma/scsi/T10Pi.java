package org.rdma.scsi;

import java.nio.ByteBuffer;

/**
 * T10 protection information (SBC-3 4.22.2, the 8-byte DIF tuple of each logical block): the
 * LOGICAL BLOCK GUARD, a CRC-16 of the block's data with the T10-DIF polynomial 8BB7h (MSB
 * first, initial value zero, no final XOR; its check value over {@code "123456789"} is D0DBh),
 * then the LOGICAL BLOCK APPLICATION TAG (2 bytes) and the LOGICAL BLOCK REFERENCE TAG (4
 * bytes), big-endian. Linux's {@code crc_t10dif()} and {@code struct t10_pi_tuple}.
 */
public final class T10Pi {
    /** x^16 + x^15 + x^11 + x^9 + x^8 + x^7 + x^5 + x^4 + x^2 + x + 1. */
    public static final int CRC_POLY = 0x8BB7;
    /** Bytes of protection information per logical block. */
    public static final int TUPLE_BYTES = 8;
    /** An application tag of FFFFh disables the checks of its block (types 1 and 2; type 3 with an all-ones reference tag). */
    public static final int ESCAPE_APPLICATION_TAG = 0xFFFF;
    /** The reference tag that, with the escape application tag, disables the checks of a type 3 block. */
    public static final long ESCAPE_REFERENCE_TAG = 0xFFFF_FFFFL;

    private static final char[] TABLE = new char[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i << 8;
            for (int b = 0; b < 8; b++) {
                c = (c & 0x8000) != 0 ? c << 1 ^ CRC_POLY : c << 1;
            }
            TABLE[i] = (char) c;
        }
    }

    private T10Pi() {
    }

    /** The guard of {@code len} bytes of {@code b} from absolute index {@code idx}; the buffer's position is not moved. */
    public static int crc16(ByteBuffer b, int idx, int len) {
        int c = 0;
        for (int i = 0; i < len; i++) {
            c = (c << 8 ^ TABLE[(c >>> 8 ^ b.get(idx + i)) & 0xFF]) & 0xFFFF;
        }
        return c;
    }

    /** The guard of {@code len} bytes of {@code b} from {@code off}. */
    public static int crc16(byte[] b, int off, int len) {
        return crc16(ByteBuffer.wrap(b), off, len);
    }

    /** Writes a tuple at absolute index {@code idx}. */
    public static void put(ByteBuffer pi, int idx, int guard, int applicationTag, long referenceTag) {
        pi.putShort(idx, (short) guard).putShort(idx + 2, (short) applicationTag).putInt(idx + 4, (int) referenceTag);
    }

    public static int guard(ByteBuffer pi, int idx) {
        return pi.getShort(idx) & 0xFFFF;
    }

    public static int applicationTag(ByteBuffer pi, int idx) {
        return pi.getShort(idx + 2) & 0xFFFF;
    }

    public static long referenceTag(ByteBuffer pi, int idx) {
        return pi.getInt(idx + 4) & 0xFFFF_FFFFL;
    }
}
