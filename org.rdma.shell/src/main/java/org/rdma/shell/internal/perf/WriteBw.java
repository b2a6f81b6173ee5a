package org.rdma.shell.internal.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * The traffic and report of perftest's {@code ib_write_bw} ({@code src/write_bw.c},
 * {@code run_iter_bw()}, {@code print_report_bw()} in {@code src/perftest_parameters.c}) between
 * the two sides of an {@link RcPair}: side A RDMA-WRITEs {@code size}-byte messages into side
 * B's buffer on every QP, keeping up to {@code txDepth} in flight per QP, for {@code iters}
 * messages per QP or for {@code seconds}. Every write is signalled (CQ moderation 1).
 *
 * <p>QP {@code q} writes A's region {@code q} (filled once with a pattern unique to the run and
 * the QP) into B's region {@code q} (zeroed first); at the end B's buffer is read back and must
 * equal what was written ({@code EIO} otherwise). Once a second a progress line is handed to
 * the caller. BW peak is the best rate over a window of {@link #PEAK_WINDOW} completions
 * (perftest takes the best per-message time); in duration mode it is 0, as perftest prints it.
 */
public final class WriteBw {
    /** Completions per window of the peak bandwidth. */
    static final int PEAK_WINDOW = 100;
    /** perftest's {@code MBS} format factor: MB here means 2^20 bytes. */
    static final double MB = 0x100000;
    /** perftest's {@code RESULT_LINE}. */
    public static final String RESULT_LINE =
            "---------------------------------------------------------------------------------------";
    /** perftest's {@code RESULT_FMT} (as perftest 24.07 and older spell the unit). */
    public static final String RESULT_FMT =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";

    /** The parameters of one run. */
    public record Params(int size, long iters, int seconds, int txDepth, long runId) {
    }

    /** The measurement. */
    public record Result(int size, long iters, double peakMBps, double avgMBps, double msgRateMpps, long bytes,
            double seconds) {
        /** perftest's {@code REPORT_FMT} row. */
        public String row() {
            return PerfFormat.f(" %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f", size, iters, peakMBps,
                    avgMBps, msgRateMpps);
        }
    }

    /**
     * What went wrong in a run, as perftest reports it, once every write posted has completed:
     * a device removed under the run (the core flushes its QPs, as {@code ib_uverbs} does when it
     * disassociates a process from a device) completes the outstanding writes with
     * {@code WR_FLUSH_ERR}, and the tool accounts for each of them before it fails.
     */
    private static final class Failure {
        private final RcPair.Side side;
        private String first;
        private final Map<WcStatus, Long> byStatus = new EnumMap<>(WcStatus.class);
        private long inError;
        private int postErrno;

        Failure(RcPair.Side side) {
            this.side = side;
        }

        boolean failed() {
            return first != null;
        }

        void postFailed(int rc, int q, long count) {
            postErrno = rc;
            if (first == null) {
                first = PerfFormat.f("Couldn't post send: qp %d scnt=%d (%s)", q, count, Pingpong.errno(rc));
            }
        }

        void completedInError(Wc wc) {
            inError++;
            byStatus.merge(wc.status, 1L, Long::sum);
            if (first == null) {
                first = PerfFormat.f("Failed status %s (%d) for wr_id %d on %s/%d", wc.status.message(),
                        wc.status.ordinal(), wc.wrId, side.deviceName(), side.port());
            }
        }

        String summary() {
            return byStatus.isEmpty() ? "" : ", completed in error: " + byStatus;
        }

        RdmaException exception(long succeeded) {
            StringBuilder b = new StringBuilder(first).append("; ").append(succeeded).append(" writes completed, ")
                    .append(inError).append(" completed in error");
            byStatus.forEach((st, n) -> b.append(' ').append(st.name()).append(' ').append(n));
            b.append(", none outstanding");
            Errno e = postErrno != 0 && inError == 0 ? Pingpong.errno(postErrno) : Errno.EIO;
            return new RdmaException(e, b.toString());
        }
    }

    private WriteBw() {
    }

    /** The bytes each side's buffer needs. */
    public static int bufferSize(int size, int qps) {
        return Math.max(1, size * qps);
    }

    /**
     * perftest's test header ({@code ctx_print_test_info()}) and the address lines
     * ({@code ctx_print_pingpong_data()}) for this pair.
     */
    public static List<String> header(RcPair pair, Params p) {
        RcPair.Side a = pair.a();
        RcPair.Side b = pair.b();
        List<String> out = testInfo(a.deviceName(), pair.qps(), a.portAttr().linkLayer == LinkLayer.ETHERNET,
                pair.mtu().bytes, pair.gidIndex(), p.txDepth(), "local");
        for (int q = 0; q < pair.qps(); q++) {
            out.addAll(addressLines("local", keys(a, q), pair.gidIndex() >= 0));
        }
        for (int q = 0; q < pair.qps(); q++) {
            out.addAll(addressLines("remote", keys(b, q), pair.gidIndex() >= 0));
        }
        return out;
    }

    /**
     * perftest's {@code ctx_print_test_info()} for an RC WRITE bandwidth test: {@code txDepth}
     * is printed only on the side that writes (0 on the passive server), {@code exchange} is the
     * "Data ex. method" ({@code Ethernet} for the TCP exchange).
     */
    public static List<String> testInfo(String device, int qps, boolean roce, int mtuBytes, int gidIndex, int txDepth,
            String exchange) {
        List<String> out = new ArrayList<>();
        out.add(RESULT_LINE);
        out.add("                    RDMA_Write BW Test");
        out.add(" Dual-port       : OFF\t\tDevice         : " + device);
        out.add(" Number of qps   : " + qps + "\t\tTransport type : IB");
        out.add(" Connection type : RC\t\tUsing SRQ      : OFF");
        if (txDepth > 0) {
            out.add(" TX depth        : " + txDepth);
        }
        out.add(" CQ Moderation   : 1");
        out.add(" Mtu             : " + mtuBytes + "[B]");
        out.add(" Link type       : " + (roce ? "Ethernet" : "IB"));
        if (gidIndex >= 0) {
            out.add(" GID index       : " + gidIndex);
        }
        out.add(" Max inline data : 0[B]");
        out.add(" rdma_cm QPs\t : OFF");
        out.add(" Data ex. method : " + exchange);
        out.add(RESULT_LINE);
        return out;
    }

    /** What side {@code s} announces for QP {@code q} (its region of the buffer as vaddr). */
    private static PerftestMsg.Keys keys(RcPair.Side s, int q) {
        RcPair.Dest d = s.dest(q);
        long vaddr = s.mr().iova() + (long) q * (s.buffer().capacity() / Math.max(1, s.qpCount()));
        return new PerftestMsg.Keys(d.lid(), 1, d.qpn(), d.psn(), s.mr().rkey(), vaddr, d.gid(), 0);
    }

    /**
     * {@code ctx_print_pingpong_data()} of a WRITE test: {@code BASIC_ADDR_FMT} and
     * {@code RDMA_FMT} ({@code %#0Nx}), and with a GID the {@code PERF_GID_FMT} line, which
     * prints the GID bytes in decimal ({@code %02d}) as perftest does.
     */
    public static List<String> addressLines(String side, PerftestMsg.Keys k, boolean gid) {
        List<String> out = new ArrayList<>();
        out.add(" " + side + " address: LID " + PerfFormat.altHex(k.lid(), 4) + " QPN " + PerfFormat.altHex(k.qpn(), 6)
                + " PSN " + PerfFormat.altHex(k.psn(), 6) + " RKey " + PerfFormat.altHex(k.rkey() & 0xffff_ffffL, 8)
                + " VAddr " + PerfFormat.altHex(k.vaddr(), 16));
        if (gid && k.gid() != null) {
            byte[] g = k.gid().bytes();
            StringBuilder sb = new StringBuilder(" GID: ");
            for (int i = 0; i < 16; i++) {
                sb.append(i == 0 ? "" : ":").append(PerfFormat.f("%02d", g[i] & 0xff));
            }
            out.add(sb.toString());
        }
        return out;
    }

    /**
     * Runs the test on a connected pair. {@code progress} receives a line about once a second.
     * {@code EIO} for a failed completion or a destination that does not match,
     * {@code ETIMEDOUT} when nothing completes for 10 s.
     */
    public static Result run(RcPair pair, Params p, Consumer<String> progress) {
        int qps = pair.qps();
        int size = p.size();
        RcPair.Side b = pair.b();
        RdmaException.check(pair.a().buffer().capacity() >= bufferSize(size, qps), Errno.EINVAL, "buffer too small");
        long[] remoteAddr = new long[qps];
        int[] rkey = new int[qps];
        for (int q = 0; q < qps; q++) {
            for (int k = 0; k < size; k++) {
                b.buffer().put(q * size + k, (byte) 0);
            }
            remoteAddr[q] = b.mr().iova() + (long) q * size;
            rkey[q] = b.mr().rkey();
        }
        Result r = write(pair.a(), remoteAddr, rkey, p, progress);
        verify(pair, p, qps, size);
        return r;
    }

    /**
     * The writer's half of a run ({@code run_iter_bw()}): RDMA WRITEs from region {@code q} of
     * {@code a}'s buffer (filled with {@link #pattern} first) to {@code remoteAddr[q]} with
     * {@code rkey[q]} on each QP {@code q} of {@code a}, as {@link #run} describes; used on its
     * own when the destination is in another process. {@code EIO} for a failed completion,
     * {@code ETIMEDOUT} when nothing completes for 10 s.
     */
    public static Result write(RcPair.Side a, long[] remoteAddr, int[] rkey, Params p, Consumer<String> progress) {
        int qps = remoteAddr.length;
        int size = p.size();
        RdmaException.check(a.qpCount() >= qps && a.buffer().capacity() >= bufferSize(size, qps), Errno.EINVAL,
                "buffer too small");
        ByteBuffer src = a.buffer();
        for (int q = 0; q < qps; q++) {
            for (int k = 0; k < size; k++) {
                src.put(q * size + k, pattern(p.runId(), q, k));
            }
        }
        SendWr[] wrs = new SendWr[qps];
        for (int q = 0; q < qps; q++) {
            SendWr wr = new SendWr();
            wr.wrId = q;
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.sg(new Sge(a.mr().iova() + (long) q * size, size, a.mr().lkey()));
            wr.remoteAddr = remoteAddr[q];
            wr.rkey = rkey[q];
            wrs[q] = wr;
        }
        long[] posted = new long[qps];
        long[] completed = new long[qps];
        boolean duration = p.seconds() > 0;
        long target = duration ? Long.MAX_VALUE : p.iters();
        Wc[] wc = Wc.array(16);
        SendWr[] bad = new SendWr[1];
        Failure failure = new Failure(a);
        long start = System.nanoTime();
        long stopPosting = duration ? start + p.seconds() * 1_000_000_000L : Long.MAX_VALUE;
        long lastProgress = start;
        long lastCompletion = start;
        long total = 0;
        long windowStart = start;
        double peak = 0;
        boolean posting = true;
        long outstanding = 0;
        while (true) {
            long now = System.nanoTime();
            if (posting && (now >= stopPosting || failure.failed())) {
                posting = false;
            }
            if (posting) {
                boolean any = false;
                for (int q = 0; q < qps && posting; q++) {
                    while (posted[q] < target && posted[q] - completed[q] < p.txDepth()) {
                        int rc = a.qp(q).postSend(wrs[q], bad);
                        if (rc != 0) {
                            failure.postFailed(rc, q, posted[q]);
                            posting = false;
                            break;
                        }
                        posted[q]++;
                        outstanding++;
                        any = true;
                    }
                }
                if (!any && !duration && allDone(posted, target)) {
                    posting = false;
                }
            }
            int n = a.pollAny(wc);
            now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                int q = (int) wc[i].wrId;
                completed[q]++;
                outstanding--;
                if (wc[i].status != WcStatus.SUCCESS) {
                    failure.completedInError(wc[i]);
                    continue;
                }
                total++;
                if (total % PEAK_WINDOW == 0) {
                    double sec = (now - windowStart) / 1e9;
                    if (sec > 0) {
                        peak = Math.max(peak, PEAK_WINDOW * (double) size / MB / sec);
                    }
                    windowStart = now;
                }
            }
            if (n > 0) {
                lastCompletion = now;
            } else if (Thread.currentThread().isInterrupted()) {
                throw new RdmaException(Errno.EINTR, "interrupted (" + total + " writes completed, " + outstanding
                        + " outstanding)");
            } else if (now - lastCompletion > Pingpong.STALL_NANOS) {
                throw new RdmaException(Errno.ETIMEDOUT, "no completion for 10 s (" + total + " writes completed, "
                        + outstanding + " outstanding" + failure.summary() + ")");
            } else {
                Thread.onSpinWait();
            }
            if (progress != null && now - lastProgress >= 1_000_000_000L) {
                double sec = (now - start) / 1e9;
                progress.accept(PerfFormat.f(" %.0f s: %d bytes written, %.2f MB/sec", Math.floor(sec),
                        total * size, total * size / MB / sec));
                lastProgress = now;
            }
            if (!posting && outstanding == 0) {
                break;
            }
        }
        if (failure.failed()) {
            throw failure.exception(total);
        }
        long end = System.nanoTime();
        double sec = Math.max(end - start, 1) / 1e9;
        double avg = total * (double) size / MB / sec;
        return new Result(size, total, duration ? 0 : Math.max(peak, avg), avg, total / sec / 1e6, total * size, sec);
    }

    private static boolean allDone(long[] posted, long target) {
        for (long n : posted) {
            if (n < target) {
                return false;
            }
        }
        return true;
    }

    /** Reads B's buffer back: every region must be what its QP wrote. */
    private static void verify(RcPair pair, Params p, int qps, int size) {
        ByteBuffer dst = pair.b().buffer();
        for (int q = 0; q < qps; q++) {
            for (int k = 0; k < size; k++) {
                byte want = pattern(p.runId(), q, k);
                byte got = dst.get(q * size + k);
                if (got != want) {
                    throw new RdmaException(Errno.EIO, PerfFormat.f(
                            "destination buffer differs at qp %d byte %d: 0x%02x, expected 0x%02x", q, k, got & 0xff,
                            want & 0xff));
                }
            }
        }
    }

    /** The source byte at {@code offset} of QP {@code q}'s region in run {@code runId}. */
    static byte pattern(long runId, int q, int offset) {
        long x = (runId + 1) * 0x9e3779b97f4a7c15L + q * 0xbf58476d1ce4e5b9L + offset * 0x94d049bb133111ebL;
        x ^= x >>> 31;
        return (byte) (x ^ (x >>> 17) ^ (offset >>> 8));
    }
}
