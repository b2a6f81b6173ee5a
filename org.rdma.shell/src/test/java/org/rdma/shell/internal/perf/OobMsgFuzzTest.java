package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The messages a peer sends over the out-of-band TCP connection of the pingpong tools and of
 * perftest, decoded as the tools read them (fixed-size buffers): an address or keys message
 * either fails with {@code EPROTO} or yields values in the ranges of their fields (16-bit LID,
 * 24-bit QPN and PSN) that encode back to a message decoding to the same values; the scalar
 * messages never fail, and the page size a peer announces is taken only when it is one.
 */
class OobMsgFuzzTest {

    private static <T> T orEproto(java.util.function.Supplier<T> decode) {
        try {
            return decode.get();
        } catch (RdmaException e) {
            assertEquals(Errno.EPROTO, e.errno(), e.getMessage());
            return null;
        }
    }

    /** A pingpong address message ({@value PingpongMsg#SIZE} bytes as read), then the {@code "done"} message. */
    @FuzzTest
    void pingpongAddress(byte[] input) {
        byte[] msg = Arrays.copyOf(input, PingpongMsg.SIZE);
        RcPair.Dest d = orEproto(() -> PingpongMsg.decode(msg));
        if (d != null) {
            assertTrue(d.lid() >= 0 && d.lid() <= 0xffff && d.qpn() >= 0 && d.qpn() <= 0xff_ffff && d.psn() >= 0
                    && d.psn() <= 0xff_ffff, "address out of its fields' ranges: " + d);
            assertEquals(d, PingpongMsg.decode(PingpongMsg.encode(d)));
        }
        PingpongMsg.isDone(Arrays.copyOfRange(input, Math.min(input.length, PingpongMsg.SIZE),
                PingpongMsg.SIZE + PingpongMsg.DONE_SIZE));
    }

    /** Byte 0, bit 0: the GID form; then a perftest keys message of that form's size. */
    @FuzzTest
    void perftestKeys(byte[] input) {
        boolean withGid = input.length > 0 && (input[0] & 1) != 0;
        int size = withGid ? PerftestMsg.KEY_MSG_SIZE_GID : PerftestMsg.KEY_MSG_SIZE;
        byte[] msg = Arrays.copyOfRange(input, Math.min(1, input.length), 1 + size);
        PerftestMsg.Keys k = orEproto(() -> PerftestMsg.decodeKeys(msg, withGid));
        if (k != null) {
            assertTrue(k.lid() >= 0 && k.lid() <= 0xffff && k.outReads() >= 0 && k.outReads() <= 0xffff
                    && k.qpn() >= 0 && k.qpn() <= 0xff_ffff && k.psn() >= 0 && k.psn() <= 0xff_ffff,
                    "keys out of their fields' ranges: " + k);
            assertEquals(withGid, k.gid() != null);
            assertEquals(k, PerftestMsg.decodeKeys(PerftestMsg.encodeKeys(k), withGid));
        }
    }

    /**
     * The fixed-size exchanges of a perftest session, in order: version (16 bytes), page size and
     * cache line (4 each), MTU (2 or 4), report size, iterations, peak, average and rate (8 each).
     */
    @FuzzTest
    void perftestScalars(byte[] input) {
        byte[] in = Arrays.copyOf(input, PerftestMsg.VERSION_SIZE + 4 + 4 + 4 + 5 * 8);
        int off = 0;
        String version = PerftestMsg.decodeVersion(Arrays.copyOfRange(in, off, off += PerftestMsg.VERSION_SIZE));
        double v = PerftestMsg.versionNumber(version);
        assertTrue(v >= 0, "version " + v + " of '" + version + "'");
        byte[] page = Arrays.copyOfRange(in, off, off += 4);
        Integer pageSize = orEproto(() -> PerftestMsg.decodePageSize(page));
        if (pageSize != null) {
            assertTrue(pageSize > 0 && Integer.bitCount(pageSize) == 1 && pageSize <= PerftestMsg.MAX_PAGE_SIZE,
                    "a page size of " + pageSize);
        }
        PerftestMsg.decodeInt(Arrays.copyOfRange(in, off, off += 4));
        int mtuLen = (in[0] & 1) != 0 ? PerftestMsg.MTU_SIZE : 4;
        PerftestMsg.decodeMtu(Arrays.copyOfRange(in, off, off + mtuLen));
        off += 4;
        PerftestMsg.decodeLong(Arrays.copyOfRange(in, off, off += 8));
        PerftestMsg.decodeLong(Arrays.copyOfRange(in, off, off += (in[1] & 1) != 0 ? 8 : 4));
        PerftestMsg.decodeDouble(Arrays.copyOfRange(in, off, off += 8));
    }
}
