package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rdma.shell.internal.PerfCommandAccess;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;

/**
 * ib_write_bw's CQ moderation (-Q) and post list (-l): the completions the writer's CQ
 * delivers and the posts it makes, the WRITEs each completion accounts for, the data written,
 * and what the command prints (header, notices) or refuses.
 */
class WriteBwModerationTest {
    private LoopbackNet net;

    @BeforeEach
    void setUp() {
        net = LoopbackNet.twoHcas("bw-mod-clock");
    }

    @AfterEach
    void tearDown() {
        net.close();
    }

    // ================================================================== traffic

    /**
     * Runs {@code WriteBw.run} with perftest's settled values on a fresh pair: B's buffer is
     * read back by the run (EIO otherwise) and once more here; afterwards the writer's CQ holds
     * nothing more than the run polled.
     */
    private WriteBw.Result run(int qps, int size, long iters, int seconds, int cqMod, int postList) {
        CqModeration m = CqModeration.resolve(size, iters, seconds > 0, 128, cqMod, postList,
                IllegalArgumentException::new);
        WriteBw.Params p = new WriteBw.Params(size, iters, seconds, m.txDepth(), m.cqMod(), m.postList(), 11);
        RcPair.Config c = new RcPair.Config();
        c.deviceA = "mlx4_0";
        c.deviceB = "mlx4_1";
        c.qps = qps;
        c.sendDepth = p.txDepth();
        c.sqSigAll = false;
        c.bufferSize = WriteBw.bufferSize(size, qps);
        c.seed = 11;
        WriteBw.Result r;
        try (RcPair pair = RcPair.open(net, c)) {
            pair.connect();
            r = WriteBw.run(pair, p, null);
            for (int q = 0; q < qps; q++) {
                for (int k = 0; k < size; k++) {
                    assertEquals(WriteBw.pattern(11, q, k), pair.b().buffer().get(q * size + k),
                            "qp " + q + " byte " + k);
                }
            }
            assertEquals(0, pair.a().pollAny(Wc.array(16)), "completions left on the writer's CQ");
        }
        assertEquals(0, net.extraRefs("mlx4_0"));
        for (Map.Entry<String, Integer> e : net.getByNameCounts("mlx4_0").entrySet()) {
            assertEquals(0, e.getValue(), "mlx4_0 still has " + e.getKey());
        }
        return r;
    }

    @Test
    void defaultModerationSignalsEveryHundredthWrite() {
        WriteBw.Result r = run(1, 8, 1000, 0, 0, 1);
        assertEquals(1000, r.iters());
        assertEquals(10, r.cqes());
        assertEquals(1000, r.posts());
        assertEquals(8000, r.bytes());
    }

    /** perftest's fill_count: the 11th completion is the last WRITE's and accounts for the 5 after the 1000th. */
    @Test
    void theLastCompletionAccountsForTheRemainder() {
        WriteBw.Result r = run(1, 8, 1005, 0, 0, 1);
        assertEquals(11, r.cqes());
        assertEquals(1005, r.iters(), "10 completions of 100 and one of 5");
        r = run(2, 8, 1005, 0, 0, 1);
        assertEquals(22, r.cqes(), "per QP");
        assertEquals(2010, r.iters());
    }

    @Test
    void largeMessagesSignalEveryWrite() {
        WriteBw.Result r = run(1, 65536, 50, 0, 0, 1);
        assertEquals(50, r.cqes());
        assertEquals(50, r.iters());
    }

    /**
     * The last WRITEs of a run complete while nothing is posted any more, and their completions
     * are reaped back to back: a peak window timed between two reapings instead of from the
     * posts of its WRITEs measured microseconds for 100 x 64 KiB (hundreds of GB/s).
     */
    @Test
    void thePeakIsTimedFromThePostsOfItsWritesNotFromReapingTheirCompletions() {
        WriteBw.Result r = run(1, 65536, 1000, 0, 0, 1);
        assertTrue(r.peakMBps() >= r.avgMBps(), r.toString());
        assertTrue(r.peakMBps() < 10 * r.avgMBps(), "peak " + r.peakMBps() + " MB/s, average " + r.avgMBps());
    }

    @ParameterizedTest(name = "-l {0} -Q {1}: {2} posts, {3} completions")
    @CsvSource({"16, 0, 100, 100", "16, 4, 100, 400", "16, 16, 100, 100", "1, 16, 1600, 100"})
    void postListPostsChainsAndSignalsEveryCqModth(int postList, int cqMod, long posts, long cqes) {
        WriteBw.Result r = run(1, 8, 1600, 0, cqMod, postList);
        assertEquals(1600, r.iters());
        assertEquals(posts, r.posts());
        assertEquals(cqes, r.cqes());
    }

    /**
     * A timed run stops posting between two signalled WRITEs: the QP posts one more, signalled,
     * so every WRITE is accounted for: 1 per 100 and the closing one.
     */
    @Test
    void aTimedRunAccountsForItsUnsignalledTail() {
        WriteBw.Result r = run(1, 8, 5000, 1, 0, 1);
        assertTrue(r.iters() > 0, r.toString());
        assertEquals((r.iters() + 99) / 100, r.cqes(), r.toString());
        assertEquals(r.iters(), r.posts());
        r = run(2, 8, 5000, 1, 0, 16);
        assertEquals(r.iters() / 16, r.cqes(), "one per chain: " + r);
        assertEquals(r.iters() / 16, r.posts(), r.toString());
    }

    // ================================================================== the command

    private List<String> command(String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8)) {
            PerfCommandAccess.writeBw(net, out, args);
        }
        return b.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private List<String> local(String... args) {
        List<String> a = new ArrayList<>(List.of("-d", "mlx4_0", "--peer-device", "mlx4_1"));
        a.addAll(List.of(args));
        return command(a.toArray(String[]::new));
    }

    /** perftest's header block of a one-QP run with these values ({@code null}: the line is absent). */
    static List<String> testInfo(String device, String title, String txDepth, String postList, String cqMod,
            String exchange) {
        List<String> out = new ArrayList<>(List.of(WriteBw.RESULT_LINE, "                    " + title,
                " Dual-port       : OFF\t\tDevice         : " + device, " Number of qps   : 1\t\tTransport type : IB",
                " Connection type : RC\t\tUsing SRQ      : OFF"));
        if (txDepth != null) {
            out.add(" TX depth        : " + txDepth);
        }
        if (postList != null) {
            out.add(" Post List       : " + postList);
        }
        out.addAll(List.of(" CQ Moderation   : " + cqMod, " Mtu             : 4096[B]", " Link type       : IB",
                " Max inline data : 0[B]", " rdma_cm QPs\t : OFF", " Data ex. method : " + exchange,
                WriteBw.RESULT_LINE));
        return out;
    }

    private static void assertRow(List<String> out, String sizeAndIters) {
        String row = out.get(out.indexOf(WriteBw.RESULT_FMT) + 1);
        assertTrue(row.startsWith(sizeAndIters), row);
    }

    @Test
    void headerAtEightBytesShowsTheDefaultModeration() {
        List<String> out = local("-s", "8", "-n", "1000");
        assertEquals(testInfo("mlx4_0", "RDMA_Write BW Test", "128", null, "100", "local"), out.subList(0, 13));
        assertRow(out, " 8          1000             ");
    }

    @Test
    void headerAt64KiBKeepsEveryWriteSignalled() {
        List<String> out = local("-n", "200");
        assertEquals(testInfo("mlx4_0", "RDMA_Write BW Test", "128", null, "1", "local"), out.subList(0, 13));
        assertRow(out, " 65536      200              ");
    }

    @Test
    void headerWithAPostList() {
        List<String> out = local("-s", "8", "-n", "1600", "-l", "16");
        assertEquals(List.of(WriteBw.RESULT_LINE,
                "Post List requested - CQ moderation will be the size of the post list"), out.subList(0, 2));
        assertEquals(testInfo("mlx4_0", "RDMA_Write Post List BW Test", "128", "16", "16", "local"),
                out.subList(2, 16));
        assertRow(out, " 8          1600             ");
    }

    @Test
    void headerWithAskedForModeration() {
        List<String> out = local("-s", "8", "-n", "1000", "--cq-mod", "10");
        assertEquals(testInfo("mlx4_0", "RDMA_Write BW Test", "128", null, "10", "local"), out.subList(0, 13));
        out = local("-s", "8", "-n", "1600", "-Q", "4", "--post_list=16", "-t", "64");
        assertEquals(testInfo("mlx4_0", "RDMA_Write Post List BW Test", "64", "16", "4", "local"), out.subList(0, 14),
                "no notice when -Q is given");
    }

    @Test
    void largeMessageWithModerationWarns() {
        List<String> out = local("-n", "100", "-Q", "10");
        assertEquals(List.of(WriteBw.RESULT_LINE, "Warning: Large message requested and CQ moderation enabled",
                "Warning: It can lead to inaccurate results"), out.subList(0, 3));
        // -n 100 also caps the TX depth at 100, as perftest does
        assertEquals(testInfo("mlx4_0", "RDMA_Write BW Test", "100", null, "10", "local"), out.subList(3, 16));
        assertRow(out, " 65536      100              ");
    }

    @Test
    void optionErrorsAreEinval() {
        String usage = "; usage: " + PerfCommandAccess.WRITE_BW_USAGE;
        assertError("EINVAL: --cq-mod must be within [1, 1024], got 0" + usage, "-Q", "0");
        assertError("EINVAL: --cq-mod must be within [1, 1024], got 1025" + usage, "-Q", "1025");
        assertError("EINVAL: invalid value 'x' for --cq-mod" + usage, "--cq-mod", "x");
        assertError("EINVAL: --post_list must be within [1, 2147483647], got 0" + usage, "-l", "0");
        assertError("EINVAL: Number of iterations must be a multiple of post list size" + usage, "-l", "16");
        assertError("EINVAL: Number of iterations must be a multiple of post list size" + usage, "-l", "16", "-n",
                "1000");
        assertError("EINVAL: Post list size must be a multiple of CQ moderation" + usage, "-l", "16", "-n", "1600",
                "-Q", "5");
        assertError("EINVAL: Post list size 32 is larger than the TX depth 16" + usage, "-l", "32", "-n", "3200", "-t",
                "16");
        assertEquals(0, net.extraRefs("mlx4_0"));
    }

    @Test
    void thePeerModeAppliesTheSameRulesBeforeConnecting() {
        RdmaException e = assertThrows(RdmaException.class, () -> command("-d", "mlx4_0", "-l", "16", "-n", "1000",
                "127.0.0.1"));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("EINVAL: Number of iterations must be a multiple of post list size; usage: "
                + PerfCommandAccess.WRITE_BW_USAGE, e.getMessage());
    }

    private void assertError(String message, String... args) {
        RdmaException e = assertThrows(RdmaException.class, () -> local(args));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(message, e.getMessage());
    }
}
