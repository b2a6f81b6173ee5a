package org.rdma.rvt.internal.pi;

import java.nio.ByteBuffer;

/**
 * T10 protection information (SBC-3 "protection information", the DIF tuple): the 16-bit block
 * guard and the 8-byte tuple layout. The guard is either the T10-DIF CRC-16 (polynomial 0x8BB7,
 * MSB first, no reflection, no final XOR; its check value over "123456789" is 0xD0DB) or, for the
 * host-side DIX alternative, the Internet checksum (RFC 1071: the complemented ones' complement
 * sum of big-endian 16-bit words). Both are computed piecewise, so a block may be spread over
 * several buffers; nothing here allocates.
 *
 * <p>Tuple layout on the wire and in memory, big-endian: bytes 0-1 guard, 2-3 application tag,
 * 4-7 reference tag. As a {@code long}: guard in bits 63-48, application tag 47-32, reference
 * tag 31-0.
 */
public final class T10Pi {
    private T10Pi() {
    }

    /** The T10-DIF CRC polynomial x^16 + x^15 + x^11 + x^9 + x^8 + x^7 + x^5 + x^4 + x^2 + x + 1. */
    public static final int CRC_POLY = 0x8BB7;
    /** Bytes in one tuple. */
    public static final int TUPLE_BYTES = 8;

    /**
     * Slicing-by-8 tables: {@code T[k][v]} is the CRC contribution of byte value {@code v} followed
     * by {@code k} zero bytes, so eight bytes fold into the CRC with eight independent lookups
     * instead of a chain of eight.
     */
    private static final char[][] T = new char[8][256];
    private static final char[] TABLE = T[0];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i << 8;
            for (int b = 0; b < 8; b++) {
                c = (c & 0x8000) != 0 ? (c << 1) ^ CRC_POLY : c << 1;
            }
            TABLE[i] = (char) c;
        }
        for (int k = 1; k < 8; k++) {
            for (int i = 0; i < 256; i++) {
                int prev = T[k - 1][i];
                T[k][i] = (char) ((prev << 8) ^ TABLE[prev >>> 8]);
            }
        }
    }

    /** Continues a T10-DIF CRC-16 {@code crc} over {@code len} bytes of {@code b} at absolute index {@code idx}. */
    public static int crc16(int crc, ByteBuffer b, int idx, int len) {
        int c = crc & 0xffff;
        int i = 0;
        boolean little = b.order() == java.nio.ByteOrder.LITTLE_ENDIAN;
        for (; i + 8 <= len; i += 8) {
            long v = b.getLong(idx + i);
            if (little) {
                v = Long.reverseBytes(v);
            }
            c = T[7][(int) (v >>> 56) ^ (c >>> 8)] ^ T[6][(int) (v >>> 48) & 0xff ^ c & 0xff]
                    ^ T[5][(int) (v >>> 40) & 0xff] ^ T[4][(int) (v >>> 32) & 0xff]
                    ^ T[3][(int) (v >>> 24) & 0xff] ^ T[2][(int) (v >>> 16) & 0xff]
                    ^ T[1][(int) (v >>> 8) & 0xff] ^ T[0][(int) v & 0xff];
        }
        for (; i < len; i++) {
            c = ((c << 8) ^ TABLE[((c >>> 8) ^ b.get(idx + i)) & 0xff]) & 0xffff;
        }
        return c;
    }

    /** {@link #crc16(int, ByteBuffer, int, int)} over a byte array. */
    public static int crc16(int crc, byte[] b, int off, int len) {
        int c = crc & 0xffff;
        for (int i = 0; i < len; i++) {
            c = ((c << 8) ^ TABLE[((c >>> 8) ^ b[off + i]) & 0xff]) & 0xffff;
        }
        return c;
    }

    /**
     * Adds {@code len} bytes of {@code b} at {@code idx} to a ones' complement running sum;
     * {@code odd} says the first byte is the low byte of a 16-bit word (the piece starts at an odd
     * offset of the block). Finish with {@link #csumFold}.
     */
    public static int csumAdd(int sum, ByteBuffer b, int idx, int len, boolean odd) {
        int s = sum;
        boolean lo = odd;
        for (int i = 0; i < len; i++) {
            int v = b.get(idx + i) & 0xff;
            s += lo ? v : v << 8;
            lo = !lo;
            if ((i & 0xfff) == 0xfff) {
                s = (s & 0xffff) + (s >>> 16);
            }
        }
        return s;
    }

    /** The Internet checksum of a running sum: folded to 16 bits and complemented. */
    public static int csumFold(int sum) {
        int s = sum;
        while ((s >>> 16) != 0) {
            s = (s & 0xffff) + (s >>> 16);
        }
        return ~s & 0xffff;
    }

    /** The tuple {@code (guard, appTag, refTag)} as a {@code long} in wire order. */
    public static long tuple(int guard, int appTag, int refTag) {
        return (long) (guard & 0xffff) << 48 | (long) (appTag & 0xffff) << 32 | (refTag & 0xffff_ffffL);
    }

    /** The guard of a tuple. */
    public static int guard(long tuple) {
        return (int) (tuple >>> 48) & 0xffff;
    }

    /** The application tag of a tuple. */
    public static int appTag(long tuple) {
        return (int) (tuple >>> 32) & 0xffff;
    }

    /** The reference tag of a tuple. */
    public static int refTag(long tuple) {
        return (int) tuple;
    }

    /** Byte {@code i} (0 = guard high byte) of a tuple. */
    public static byte byteAt(long tuple, int i) {
        return (byte) (tuple >>> (56 - 8 * i));
    }

    /** {@code tuple} with byte {@code i} replaced by {@code v}. */
    public static long withByte(long tuple, int i, byte v) {
        int sh = 56 - 8 * i;
        return tuple & ~(0xffL << sh) | (v & 0xffL) << sh;
    }
}
