package org.rdma.rvt.testkit;

import java.nio.ByteBuffer;

/**
 * T10 DIF worked out independently of the transport's engine, for checking it: a bit-at-a-time
 * CRC-16 (polynomial 0x8BB7, SBC-3), the RFC 1071 checksum, and builders of the memory (DIX
 * metadata) and wire (interleaved) images of a run of protection intervals.
 */
public final class Dif {
    private Dif() {
    }

    /** The T10-DIF CRC of {@code len} bytes at {@code off}, one bit at a time. */
    public static int crc(ByteBuffer b, int off, int len) {
        int c = 0;
        for (int i = 0; i < len; i++) {
            c ^= (b.get(off + i) & 0xff) << 8;
            for (int k = 0; k < 8; k++) {
                c = (c & 0x8000) != 0 ? (c << 1) ^ 0x8BB7 : c << 1;
                c &= 0xffff;
            }
        }
        return c;
    }

    /** The Internet checksum (RFC 1071) of {@code len} bytes at {@code off}. */
    public static int csum(ByteBuffer b, int off, int len) {
        long s = 0;
        for (int i = 0; i < len; i += 2) {
            s += (b.get(off + i) & 0xff) << 8 | (i + 1 < len ? b.get(off + i + 1) & 0xff : 0);
        }
        while ((s >>> 16) != 0) {
            s = (s & 0xffff) + (s >>> 16);
        }
        return (int) ~s & 0xffff;
    }

    /** Writes the tuple {@code (guard, app, ref)} big-endian at {@code off}. */
    public static void putTuple(ByteBuffer b, int off, int guard, int app, int ref) {
        b.put(off, (byte) (guard >>> 8)).put(off + 1, (byte) guard);
        b.put(off + 2, (byte) (app >>> 8)).put(off + 3, (byte) app);
        b.put(off + 4, (byte) (ref >>> 24)).put(off + 5, (byte) (ref >>> 16)).put(off + 6, (byte) (ref >>> 8))
                .put(off + 7, (byte) ref);
    }

    /** The guard of a tuple at {@code off}. */
    public static int guardAt(ByteBuffer b, int off) {
        return (b.get(off) & 0xff) << 8 | b.get(off + 1) & 0xff;
    }

    /** The tuples of {@code blocks} intervals of {@code data} (CRC guards), DIX style, into {@code meta}. */
    public static void fillMeta(ByteBuffer data, int blocks, int interval, ByteBuffer meta, int app, int ref) {
        for (int i = 0; i < blocks; i++) {
            putTuple(meta, 8 * i, crc(data, i * interval, interval), app, ref + i);
        }
    }

    /** The wire image of {@code blocks} intervals of {@code data}: each followed by its tuple (CRC guard). */
    public static void fillWire(ByteBuffer data, int blocks, int interval, ByteBuffer wire, int app, int ref) {
        for (int i = 0; i < blocks; i++) {
            wire.put(i * (interval + 8), data, i * interval, interval);
            putTuple(wire, i * (interval + 8) + interval, crc(data, i * interval, interval), app, ref + i);
        }
    }
}
