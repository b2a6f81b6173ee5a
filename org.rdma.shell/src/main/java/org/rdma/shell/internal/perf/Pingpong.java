package org.rdma.shell.internal.perf;

import java.nio.ByteBuffer;
import java.util.List;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WrOpcode;

/**
 * The traffic of rdma-core's {@code ibv_rc_pingpong} ({@code libibverbs/examples/rc_pingpong.c})
 * between the two sides of an {@link RcPair}: side A (the tool's client) sends a SEND of
 * {@code size} bytes, side B (the server) receives it and answers with one of the same size, and
 * so on {@code iters} times. Unlike the tool (whose {@code -c} checks one byte per page), every
 * received message is checked byte for byte against a pattern that changes with the iteration
 * and the direction ({@link #pattern}), so a lost, repeated or corrupted message is an error
 * ({@code EIO}). Timing and the two result lines are the tool's.
 *
 * <p>Each side's buffer holds the message to send at offset 0 and the receive area at
 * {@code size}; a receive is posted before the peer can send, so no RNR NAK happens.
 */
public final class Pingpong {
    /** rc_pingpong's {@code PINGPONG_RECV_WRID}. */
    static final long RECV_WRID = 1;
    /** rc_pingpong's {@code PINGPONG_SEND_WRID}. */
    static final long SEND_WRID = 2;
    /** How long a wait may go without any completion before it is {@code ETIMEDOUT}. */
    static final long STALL_NANOS = 10_000_000_000L;

    /** The measurement: what the tool prints at the end. */
    public record Result(int size, int iters, long nanos) {
        /** Bytes moved: {@code size * iters * 2}, as the tool counts. */
        public long bytes() {
            return (long) size * iters * 2;
        }

        /**
         * The two lines of the tool:
         * {@code 8192000 bytes in 0.05 seconds = 1310.72 Mbit/sec} and
         * {@code 1000 iters in 0.05 seconds = 50.00 usec/iter}.
         */
        public List<String> lines() {
            double usec = Math.max(nanos, 1) / 1000.0;
            return List.of(
                    PerfFormat.f("%d bytes in %.2f seconds = %.2f Mbit/sec", bytes(), usec / 1e6, bytes() * 8.0 / usec),
                    PerfFormat.f("%d iters in %.2f seconds = %.2f usec/iter", iters, usec / 1e6, usec / iters));
        }
    }

    private final RcPair pair;
    private final int size;
    private final int[] sends = new int[2];
    private final int[] recvs = new int[2];
    private final Wc[] wc = Wc.array(4);

    private Pingpong(RcPair pair, int size) {
        this.pair = pair;
        this.size = size;
    }

    /** The buffer bytes each side needs for messages of {@code size}. */
    public static int bufferSize(int size) {
        return Math.max(2 * size, 1);
    }

    /**
     * Runs {@code iters} round trips of {@code size}-byte messages on QP 0 of a connected pair
     * (built with at least {@link #bufferSize} bytes per side). {@code EIO} for a failed
     * completion or a message that is not what was sent, {@code ETIMEDOUT} when nothing
     * completes for 10 s.
     */
    public static Result run(RcPair pair, int size, int iters) {
        RdmaException.check(pair.a().buffer().capacity() >= bufferSize(size), Errno.EINVAL, "buffer too small");
        return new Pingpong(pair, size).loop(iters);
    }

    private Result loop(int iters) {
        RcPair.Side a = pair.a();
        RcPair.Side b = pair.b();
        postRecv(a);
        postRecv(b);
        long start = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            send(a, i, 0);
            await(b, i + 1, i);
            verify(b, i, 0);
            if (i + 1 < iters) {
                postRecv(b);
            }
            send(b, i, 1);
            await(a, i + 1, i + 1);
            verify(a, i, 1);
            if (i + 1 < iters) {
                postRecv(a);
            }
        }
        await(b, iters, iters);
        return new Result(size, iters, System.nanoTime() - start);
    }

    /**
     * The byte at {@code offset} of the message of iteration {@code iter} in direction
     * {@code dir} (0: A to B, 1: B to A).
     */
    static byte pattern(int iter, int dir, int offset) {
        int x = iter * 0x9e3779b1 + dir * 0x7f4a7c15 + offset * 31;
        return (byte) (x ^ (x >>> 11) ^ (offset >>> 8));
    }

    private void send(RcPair.Side s, int iter, int dir) {
        ByteBuffer buf = s.buffer();
        for (int k = 0; k < size; k++) {
            buf.put(k, pattern(iter, dir, k));
        }
        SendWr wr = new SendWr();
        wr.wrId = SEND_WRID;
        wr.opcode = WrOpcode.SEND;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.sg(new Sge(s.mr().iova(), size, s.mr().lkey()));
        SendWr[] bad = new SendWr[1];
        int rc = s.qp(0).postSend(wr, bad);
        if (rc != 0) {
            throw new RdmaException(errno(rc), "Couldn't post send on " + s.deviceName());
        }
    }

    private void postRecv(RcPair.Side s) {
        RecvWr wr = new RecvWr();
        wr.wrId = RECV_WRID;
        wr.sg(new Sge(s.mr().iova() + size, size, s.mr().lkey()));
        int rc = s.qp(0).postRecv(wr, new RecvWr[1]);
        if (rc != 0) {
            throw new RdmaException(errno(rc), "Couldn't post receive on " + s.deviceName());
        }
    }

    /** Polls both sides until {@code s} has {@code recvTarget} receives and (unless -1) {@code sendTarget} sends. */
    private void await(RcPair.Side s, int recvTarget, int sendTarget) {
        int idx = s == pair.a() ? 0 : 1;
        long last = System.nanoTime();
        int spins = 0;
        while (recvs[idx] < recvTarget || (sendTarget >= 0 && sends[idx] < sendTarget)) {
            int n = drain(pair.a(), 0) + drain(pair.b(), 1);
            if (n > 0) {
                last = System.nanoTime();
                spins = 0;
            } else if (System.nanoTime() - last > STALL_NANOS) {
                throw new RdmaException(Errno.ETIMEDOUT, "no completion for 10 s on " + s.deviceName()
                        + " (receives " + recvs[idx] + "/" + recvTarget + ", sends " + sends[idx] + ")");
            } else if (++spins > 1000) {
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }

    private int drain(RcPair.Side s, int idx) {
        int n = s.poll(wc);
        for (int i = 0; i < n; i++) {
            if (wc[i].wrId == SEND_WRID) {
                sends[idx]++;
            } else if (wc[i].wrId == RECV_WRID) {
                if (wc[i].byteLen != size) {
                    throw new RdmaException(Errno.EIO, "received " + wc[i].byteLen + " bytes on " + s.deviceName()
                            + ", expected " + size);
                }
                recvs[idx]++;
            } else {
                throw new RdmaException(Errno.EIO, "Completion for unknown wr_id " + wc[i].wrId);
            }
        }
        return n;
    }

    private void verify(RcPair.Side s, int iter, int dir) {
        ByteBuffer buf = s.buffer();
        for (int k = 0; k < size; k++) {
            if (buf.get(size + k) != pattern(iter, dir, k)) {
                throw new RdmaException(Errno.EIO, PerfFormat.f(
                        "invalid data on %s at byte %d of message %d: 0x%02x, expected 0x%02x", s.deviceName(), k,
                        iter, buf.get(size + k) & 0xff, pattern(iter, dir, k) & 0xff));
            }
        }
    }

    static Errno errno(int rc) {
        Errno e = Errno.of(rc);
        return e == null ? Errno.EIO : e;
    }
}
