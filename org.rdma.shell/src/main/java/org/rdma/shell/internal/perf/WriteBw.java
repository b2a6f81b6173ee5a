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
 * {@code run_iter_bw()} in {@code src/perftest_resources.c}, {@code print_report_bw()} in
 * {@code src/perftest_parameters.c}) between the two sides of an {@link RcPair}: side A
 * RDMA-WRITEs {@code size}-byte messages into side B's buffer on every QP, keeping up to
 * {@code txDepth} in flight per QP, for {@code iters} messages per QP or for {@code seconds}.
 * Only every {@code cqMod}-th WRITE asks for a completion (perftest's CQ moderation, settled by
 * {@link CqModeration}), and each {@code ibv_post_send()} posts a chain of {@code postList}
 * WRITEs.
 *
 * <p>QP {@code q} writes A's region {@code q} (filled once with a pattern unique to the run and
 * the QP) into B's region {@code q} (zeroed first); at the end B's buffer is read back and must
 * equal what was written ({@code EIO} otherwise). Once a second a progress line is handed to
 * the caller. BW peak is the best rate over a window of at least {@link #PEAK_WINDOW} WRITEs, and
 * of {@code cqMod} per QP so that it spans a completion of each, timed from the post of its
 * earliest WRITE to its last completion (perftest takes the best {@code tcompleted[j] -
 * tposted[i]} per message); in duration mode it is 0, as perftest prints it.
 */
public final class WriteBw {
    /** WRITEs per window of the peak bandwidth, at the least. */
    static final int PEAK_WINDOW = 100;
    /** perftest's {@code WR_ID_QP_INDEX_OFFSET}: a wr_id carries the QP above the WRITE's index. */
    static final int WR_ID_QP_SHIFT = 32;
    /**
     * How long a QP that refused a post may stay silent before its unsignalled last WRITEs count
     * as done: see {@link Writer#settleRefusedTails}.
     */
    static final long REFUSED_TAIL_GRACE_NANOS = 1_000_000_000L;
    /** perftest's {@code MBS} format factor: MB here means 2^20 bytes. */
    static final double MB = 0x100000;
    /** perftest's {@code RESULT_LINE}. */
    public static final String RESULT_LINE =
            "---------------------------------------------------------------------------------------";
    /** perftest's {@code RESULT_FMT} (as perftest 24.07 and older spell the unit). */
    public static final String RESULT_FMT =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";

    /**
     * The parameters of one run, perftest's options after {@link CqModeration}: {@code seconds}
     * 0 for {@code iters} WRITEs per QP; every {@code cqMod}-th WRITE is signalled; each post is
     * a chain of {@code postList} WRITEs. {@code EINVAL} for values the loop cannot run with
     * (a moderation or post list beyond the TX depth, a post list that is not a multiple of the
     * moderation or does not divide the iterations).
     */
    public record Params(int size, long iters, int seconds, int txDepth, int cqMod, int postList, long runId) {
        /** Checks the values. */
        public Params {
            RdmaException.check(size >= 1 && iters >= 1 && seconds >= 0 && txDepth >= 1, Errno.EINVAL,
                    "bad size, iterations, duration or TX depth");
            // A window that never holds a signalled WRITE would never open again.
            RdmaException.check(cqMod >= 1 && cqMod <= txDepth && postList >= 1 && postList <= txDepth, Errno.EINVAL,
                    "CQ moderation " + cqMod + " and post list " + postList + " must be within [1, TX depth " + txDepth
                            + "]");
            RdmaException.check(postList == 1 || postList % cqMod == 0, Errno.EINVAL,
                    "Post list size must be a multiple of CQ moderation");
            RdmaException.check(seconds > 0 || iters % postList == 0, Errno.EINVAL,
                    "Number of iterations must be a multiple of post list size");
        }
    }

    /**
     * The measurement: {@code posts} {@code ibv_post_send()} calls that were accepted and
     * {@code cqes} completions polled, besides what perftest reports.
     */
    public record Result(int size, long iters, double peakMBps, double avgMBps, double msgRateMpps, long bytes,
            double seconds, long posts, long cqes) {
        /** A report as the peer sends it ({@code xchg_bw_reports()}): no time or counts. */
        public static Result report(int size, long iters, double peakMBps, double avgMBps, double msgRateMpps) {
            return new Result(size, iters, peakMBps, avgMBps, msgRateMpps, size * iters, 0, 0, 0);
        }

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
                pair.mtu().bytes, pair.gidIndex(), p, true, "local");
        for (int q = 0; q < pair.qps(); q++) {
            out.addAll(addressLines("local", keys(a, q), pair.gidIndex() >= 0));
        }
        for (int q = 0; q < pair.qps(); q++) {
            out.addAll(addressLines("remote", keys(b, q), pair.gidIndex() >= 0));
        }
        return out;
    }

    /**
     * perftest's {@code ctx_print_test_info()} for an RC WRITE bandwidth test: the TX depth is
     * printed only on the side that writes ({@code writer}), the post list and "Post List" in
     * the title only when it is longer than 1, the CQ moderation on both sides; {@code exchange}
     * is the "Data ex. method" ({@code Ethernet} for the TCP exchange).
     */
    public static List<String> testInfo(String device, int qps, boolean roce, int mtuBytes, int gidIndex, Params p,
            boolean writer, String exchange) {
        List<String> out = new ArrayList<>();
        out.add(RESULT_LINE);
        out.add("                    RDMA_Write " + (p.postList() > 1 ? "Post List " : "") + "BW Test");
        out.add(" Dual-port       : OFF\t\tDevice         : " + device);
        out.add(" Number of qps   : " + qps + "\t\tTransport type : IB");
        out.add(" Connection type : RC\t\tUsing SRQ      : OFF");
        if (writer) {
            out.add(" TX depth        : " + p.txDepth());
        }
        if (p.postList() > 1) {
            out.add(" Post List       : " + p.postList());
        }
        out.add(" CQ Moderation   : " + p.cqMod());
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
     * own when the destination is in another process. The QPs are perftest's, which signal only
     * the requests that ask for it ({@link RcPair.Config#sqSigAll} {@code false}); on QPs that
     * signal all, every WRITE completes with an entry and is accounted for alone. {@code EIO}
     * for a failed completion, {@code ETIMEDOUT} when nothing completes for 10 s.
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
        boolean duration = p.seconds() > 0;
        Failure failure = new Failure(a);
        long start = System.nanoTime();
        Writer w = new Writer(a, remoteAddr, rkey, p);
        Wc[] wc = Wc.array(16);
        long stopPosting = duration ? start + p.seconds() * 1_000_000_000L : Long.MAX_VALUE;
        long lastProgress = start;
        long lastCompletion = start;
        while (!w.done()) {
            long now = System.nanoTime();
            if (now >= stopPosting || failure.failed()) {
                w.stop();
            }
            w.post(failure);
            int n = a.pollAny(wc);
            now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                w.complete(wc[i], failure, now);
            }
            if (n > 0) {
                lastCompletion = now;
            } else if (Thread.currentThread().isInterrupted()) {
                throw new RdmaException(Errno.EINTR, "interrupted (" + w.total + " writes completed, "
                        + w.outstanding() + " outstanding)");
            } else if (now - lastCompletion > REFUSED_TAIL_GRACE_NANOS && w.settleRefusedTails()) {
                lastCompletion = now;
            } else if (now - lastCompletion > Pingpong.STALL_NANOS) {
                throw new RdmaException(Errno.ETIMEDOUT, "no completion for 10 s (" + w.total + " writes completed, "
                        + w.outstanding() + " outstanding" + failure.summary() + ")");
            } else {
                Thread.onSpinWait();
            }
            if (progress != null && now - lastProgress >= 1_000_000_000L) {
                double sec = (now - start) / 1e9;
                progress.accept(PerfFormat.f(" %.0f s: %d bytes written, %.2f MB/sec", Math.floor(sec),
                        w.total * size, w.total * size / MB / sec));
                lastProgress = now;
            }
        }
        if (failure.failed()) {
            throw failure.exception(w.total);
        }
        long end = System.nanoTime();
        double sec = Math.max(end - start, 1) / 1e9;
        long total = w.total;
        double avg = total * (double) size / MB / sec;
        return new Result(size, total, duration ? 0 : Math.max(w.peak, avg), avg, total / sec / 1e6, total * size, sec,
                w.posts, w.cqes);
    }

    /**
     * One {@code run_iter_bw()} in progress: per QP a chain of {@code postList} work requests,
     * built once and posted again and again, and the WRITEs posted and accounted for.
     *
     * <p>A QP posts while {@code posted + postList <= txDepth + accounted} (perftest's window).
     * Alone on a post, the WRITE is signalled when it is a {@code cqMod}-th one or the QP's last;
     * in a chain every {@code cqMod}-th is, and so the chain's last. Each wr_id carries its QP
     * and the WRITE's index, so a completion accounts for every WRITE of its QP up to it: the
     * unsignalled ones before it completed without an entry (an RC send queue completes in
     * order, and a WRITE that fails always has one). For the last completion of an iterations
     * run that is perftest's {@code fill_count} remainder. When posting stops early (the
     * duration is over, or a failure), a QP whose last WRITE was unsignalled posts one more that
     * is signalled, so that nothing posted is left without a completion to account for it.
     */
    private static final class Writer {
        private final RcPair.Side side;
        private final Params p;
        private final SendWr[] chains;
        private final long[] posted;
        private final long[] accounted;
        /**
         * When each WRITE in flight was posted, QP by QP, indexed by its number modulo the TX
         * depth (at most that many are in flight): perftest's {@code tposted}.
         */
        private final long[][] postedAt;
        /** WRITEs QP {@code q} posts in all. */
        private final long[] target;
        /** Whether the last WRITE QP {@code q} posted asked for a completion. */
        private final boolean[] tailSignalled;
        /** Whether QP {@code q} refused a post: it is in error or being destroyed. */
        private final boolean[] refused;
        private final SendWr[] bad = new SendWr[1];
        private final int peakWindow;
        private boolean stopped;
        long total;
        long posts;
        long cqes;
        double peak;
        private long windowWrites;
        /** When the earliest WRITE of the current window was posted. */
        private long windowFirstPosted = Long.MAX_VALUE;

        Writer(RcPair.Side side, long[] remoteAddr, int[] rkey, Params p) {
            int qps = remoteAddr.length;
            this.side = side;
            this.p = p;
            this.chains = new SendWr[qps];
            this.posted = new long[qps];
            this.accounted = new long[qps];
            this.target = new long[qps];
            this.tailSignalled = new boolean[qps];
            this.refused = new boolean[qps];
            this.postedAt = new long[qps][p.txDepth()];
            this.peakWindow = Math.max(PEAK_WINDOW, p.cqMod() * qps);
            for (int q = 0; q < qps; q++) {
                chains[q] = chain(q, remoteAddr[q], rkey[q]);
                target[q] = p.seconds() > 0 ? Long.MAX_VALUE : p.iters();
            }
        }

        /** perftest's {@code ctx_set_send_wqes()}: QP {@code q}'s chain, every WRITE from and to its region. */
        private SendWr chain(int q, long remoteAddr, int rkey) {
            Sge sge = new Sge(side.mr().iova() + (long) q * p.size(), p.size(), side.mr().lkey());
            SendWr first = null;
            SendWr prev = null;
            for (int j = 0; j < p.postList(); j++) {
                SendWr wr = new SendWr();
                wr.wrId = wrId(q, j);
                wr.opcode = WrOpcode.RDMA_WRITE;
                wr.sendFlags = (j + 1) % p.cqMod() == 0 ? SendFlags.SIGNALED : 0;
                wr.sg(sge);
                wr.remoteAddr = remoteAddr;
                wr.rkey = rkey;
                if (prev == null) {
                    first = wr;
                } else {
                    prev.next = wr;
                }
                prev = wr;
            }
            return first;
        }

        /** perftest's {@code build_wr_id()}. */
        static long wrId(int q, long index) {
            return (long) q << WR_ID_QP_SHIFT | (index & 0xffff_ffffL);
        }

        /** Posts on every QP what its window and target allow; a refused post is a failure. */
        void post(Failure failure) {
            int list = p.postList();
            for (int q = 0; q < chains.length; q++) {
                while (!refused[q] && posted[q] + list <= target[q] && posted[q] + list <= p.txDepth() + accounted[q]) {
                    SendWr first = chains[q];
                    long index = posted[q];
                    if (list == 1) {
                        boolean signalled = (index + 1) % p.cqMod() == 0 || index == target[q] - 1;
                        first.sendFlags = signalled ? SendFlags.SIGNALED : 0;
                    }
                    for (SendWr wr = first; wr != null; wr = wr.next) {
                        wr.wrId = wrId(q, index++);
                    }
                    bad[0] = null;
                    long now = System.nanoTime();
                    int rc = side.qp(q).postSend(first, bad);
                    if (rc == 0) {
                        posts++;
                        posted(q, first, null, now);
                        continue;
                    }
                    // The requests before the refused one are posted.
                    posted(q, first, bad[0] == null ? first : bad[0], now);
                    refused[q] = true;
                    failure.postFailed(rc, q, posted[q]);
                    stop();
                }
            }
        }

        /** Counts the chain's WRITEs from {@code first} up to {@code until} (excluded) as posted on QP {@code q} at {@code at}. */
        private void posted(int q, SendWr first, SendWr until, long at) {
            for (SendWr wr = first; wr != null && wr != until; wr = wr.next) {
                postedAt[q][(int) (posted[q] % p.txDepth())] = at;
                posted[q]++;
                tailSignalled[q] = (wr.sendFlags & SendFlags.SIGNALED) != 0;
            }
        }

        /**
         * Posting ends (the duration is over, or a failure): each QP posts at most one more
         * WRITE, signalled, if its last one was not; refused QPs post nothing.
         */
        void stop() {
            if (stopped) {
                return;
            }
            stopped = true;
            for (int q = 0; q < chains.length; q++) {
                boolean closing = !refused[q] && !tailSignalled[q] && posted[q] > accounted[q];
                target[q] = Math.min(target[q], posted[q] + (closing ? 1 : 0));
            }
        }

        /** Accounts for completion {@code wc}: its WRITE and the unsignalled ones before it on its QP. */
        void complete(Wc wc, Failure failure, long now) {
            int q = (int) (wc.wrId >>> WR_ID_QP_SHIFT);
            long index = accounted[q] + ((wc.wrId - accounted[q]) & 0xffff_ffffL);
            long succeeded = index - accounted[q];
            long firstPosted = postedAt[q][(int) (accounted[q] % p.txDepth())];
            accounted[q] = index + 1;
            cqes++;
            if (wc.status == WcStatus.SUCCESS) {
                succeeded++;
            } else {
                failure.completedInError(wc);
            }
            count(succeeded, firstPosted, now);
        }

        /**
         * Counts {@code writes} WRITEs done at {@code now}, the first of them posted at
         * {@code firstPosted}. A window of them is timed from the post of its earliest WRITE to
         * its last completion, as perftest times {@code tcompleted[j] - tposted[i]}, so that
         * completions reaped in a burst cannot make a window shorter than its WRITEs took.
         */
        private void count(long writes, long firstPosted, long now) {
            total += writes;
            windowWrites += writes;
            windowFirstPosted = Math.min(windowFirstPosted, firstPosted);
            if (windowWrites >= peakWindow && now > windowFirstPosted) {
                peak = Math.max(peak, windowWrites * (double) p.size() / MB / ((now - windowFirstPosted) / 1e9));
                windowWrites = 0;
                windowFirstPosted = Long.MAX_VALUE;
            }
        }

        /**
         * After {@link #REFUSED_TAIL_GRACE_NANOS} without a completion: a QP that refused a post
         * (in error or destroyed, so every WRITE still queued on it has been flushed with a
         * completion by now) and whose last WRITE was unsignalled accounts for the rest as
         * completed: they left the send queue acknowledged, without an entry. Returns whether
         * there was such a rest.
         */
        boolean settleRefusedTails() {
            boolean any = false;
            for (int q = 0; q < chains.length; q++) {
                if (refused[q] && !tailSignalled[q] && accounted[q] < posted[q]) {
                    count(posted[q] - accounted[q], postedAt[q][(int) (accounted[q] % p.txDepth())], System.nanoTime());
                    accounted[q] = posted[q];
                    any = true;
                }
            }
            return any;
        }

        /** WRITEs posted and not yet accounted for. */
        long outstanding() {
            long n = 0;
            for (int q = 0; q < chains.length; q++) {
                n += posted[q] - accounted[q];
            }
            return n;
        }

        /** Whether every QP posted all it will and every WRITE is accounted for. */
        boolean done() {
            for (int q = 0; q < chains.length; q++) {
                boolean more = !refused[q] && posted[q] + p.postList() <= target[q];
                if (more || accounted[q] < posted[q]) {
                    return false;
                }
            }
            return true;
        }
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
