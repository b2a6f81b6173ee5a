package org.rdma.shell.internal.perf;

import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.core.internal.verbs.CoreDevice;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * ibv_rc_pingpong's and ib_write_bw's traffic on real devices (the core's devices on the
 * software transport, joined by a loopback network): data checked, everything torn down.
 */
class PerfEndToEndTest {
    private LoopbackNet net;

    @BeforeEach
    void setUp() {
        net = LoopbackNet.twoHcas("perf-test-clock");
    }

    @AfterEach
    void tearDown() {
        net.close();
    }

    private RcPair.Config config(int qps, int bufferSize) {
        RcPair.Config c = new RcPair.Config();
        c.deviceA = "mlx4_0";
        c.deviceB = "mlx4_1";
        c.qps = qps;
        c.sendDepth = 16;
        c.recvDepth = 16;
        c.bufferSize = bufferSize;
        c.seed = 42;
        return c;
    }

    private void assertNothingLeft() {
        for (String d : List.of("mlx4_0", "mlx4_1")) {
            assertEquals(0, net.extraRefs(d), d + " still held");
            for (Map.Entry<String, Integer> e : net.getByNameCounts(d).entrySet()) {
                assertEquals(0, e.getValue(), d + " still has " + e.getKey());
            }
        }
    }

    @Test
    void pingpongMovesEveryMessageIntact() {
        int size = 4096;
        Pingpong.Result r;
        try (RcPair pair = RcPair.open(net, config(1, Pingpong.bufferSize(size)))) {
            assertEquals(1, pair.a().dest(0).lid());
            assertEquals(2, pair.b().dest(0).lid());
            pair.connect();
            r = Pingpong.run(pair, size, 200);
        }
        assertEquals(200 * 4096 * 2L, r.bytes());
        assertTrue(r.lines().get(0).matches("1638400 bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec"),
                r.lines().get(0));
        assertTrue(r.lines().get(1).matches("200 iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter"),
                r.lines().get(1));
        assertTrue(net.delivered >= 400, "packets: " + net.delivered);
        assertNothingLeft();
    }

    @Test
    void pingpongWithGrhAndMultiPacketMessages() {
        RcPair.Config c = config(1, Pingpong.bufferSize(10000));
        c.gidIndex = 0;
        c.mtu = org.rdma.verbs.Mtu.MTU_1024;
        try (RcPair pair = RcPair.open(net, c)) {
            assertEquals("  local address:  LID 0x0001, QPN " + PerfFormat.f("0x%06x", pair.a().qp(0).qpNum())
                    + ", PSN " + PerfFormat.f("0x%06x", pair.a().dest(0).psn()) + ", GID fe80::2:c903:0:1",
                    pair.a().dest(0).pingpongLine("local"));
            pair.connect();
            assertEquals(20000L * 50, Pingpong.run(pair, 10000, 50).bytes());
        }
        assertNothingLeft();
    }

    /**
     * The device of side A goes away in the middle of a timed run: the run does not hold off the
     * removal, every write it posted completes (those in flight with WR_FLUSH_ERR), and it fails
     * with EIO saying so; closing the pair afterwards is clean and A has nothing left. With CQ
     * moderation and post lists too, where most writes complete without a completion entry.
     * With the {@link Uverbs} client, its {@code remove} flushes and destroys the run's objects
     * itself: the core finds nothing to reap, and the run's own teardown nothing to fail on.
     */
    @ParameterizedTest(name = "cq_mod {0}, post_list {1}, uverbs {2}")
    @CsvSource({"1, 1, false", "8, 1, false", "4, 16, false", "1, 1, true", "8, 1, true", "4, 16, true"})
    void writeBwAccountsForEveryWriteWhenTheDeviceIsRemoved(int cqMod, int postList, boolean uverbs)
            throws Exception {
        int size = 4096;
        WriteBw.Params p = new WriteBw.Params(size, Long.MAX_VALUE / 4, 60, 32, cqMod, postList, 9);
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<RdmaException> failed = new CompletableFuture<>();
        RcPair.Config c = config(2, WriteBw.bufferSize(size, 2));
        c.sqSigAll = false;
        if (uverbs) {
            c.uverbs = new Uverbs();
            net.addClient(c.uverbs);
        }
        Thread t = new Thread(() -> {
            try (RcPair pair = RcPair.open(net, c)) {
                pair.connect();
                WriteBw.run(pair, p, line -> running.countDown());
                failed.completeExceptionally(new AssertionError("the run ended without a failure"));
            } catch (RdmaException e) {
                failed.complete(e);
            } catch (Throwable e) {
                failed.completeExceptionally(e);
            } finally {
                running.countDown();
            }
        }, "write-bw");
        t.start();
        assertTrue(running.await(30, TimeUnit.SECONDS), () -> "no progress line within 30 s; the run: "
                + (failed.isDone() ? failed.handle((r, x) -> r != null ? r : x).join() : "still running"));
        IbDevice a = net.devices().get(0);
        assertEquals(0, net.extraRefs("mlx4_0"), "the run holds mlx4_0");
        net.unregisterDevice(a);
        RdmaException e = failed.get(30, TimeUnit.SECONDS);
        t.join(10_000);
        // The first failure is a flushed completion or, once the QP is in error or destroyed, a
        // refused post; that is the errno when nothing was in flight to be flushed (a chain may
        // well have completed within its post), EIO otherwise.
        Matcher m = Pattern.compile("(EIO: Failed status .* for wr_id (\\d+) on mlx4_0/1"
                + "|(E[A-Z]+): Couldn't post send: qp [01] .*); \\d+ writes completed, (\\d+) completed in error"
                + "( WR_FLUSH_ERR \\d+)?, none outstanding")
                .matcher(e.getMessage());
        assertTrue(m.matches(), e.getMessage());
        assertEquals(m.group(3) == null || !m.group(4).equals("0") ? Errno.EIO : Errno.valueOf(m.group(3)), e.errno(),
                e.getMessage());
        if (m.group(2) != null) {
            long wrId = Long.parseLong(m.group(2));
            assertTrue(wrId >>> WriteBw.WR_ID_QP_SHIFT <= 1, "wr_id names QP 0 or 1: " + wrId);
        }
        assertEquals(Map.of(), nonZero(((CoreDevice) a).restrack().counts()));
        if (uverbs) {
            assertEquals(Map.of(), net.leftForCore, "objects the core had to destroy");
            assertEquals(List.of(), List.of(e.getSuppressed()), "failures of the run's own teardown");
        }
    }

    /**
     * A run whose device starts going away between its lookup and its first object (after
     * which {@link Uverbs#remove} would not see it) fails with ENODEV and holds nothing.
     */
    @Test
    void uverbsRefusesARunOnADeviceGoingAway() {
        CoreDevice b = (CoreDevice) net.devices().get(1);
        IbCore racing = new IbCore() {
            @Override
            public IbDevice getByName(String name, String driverId) {
                IbDevice d = net.getByName(name, driverId);
                if (d == b) {
                    b.setState(CoreDevice.State.UNREGISTERING);
                }
                return d;
            }

            @Override
            public IbDevice getByNetdev(String netdev, String driverId) {
                return null;
            }

            @Override
            public List<IbDevice> devices() {
                return net.devices();
            }

            @Override
            public void unregisterDevice(IbDevice device) {
            }

            @Override
            public void unregisterDeviceAndPut(IbDevice device) {
            }

            @Override
            public void unregisterDeviceQueued(IbDevice device) {
            }

            @Override
            public void unregisterDriver(String driverId) {
            }
        };
        RcPair.Config c = config(1, 4096);
        c.uverbs = new Uverbs();
        RdmaException e = assertThrows(RdmaException.class, () -> RcPair.open(racing, c));
        assertEquals("ENODEV: mlx4_1 is going away", e.getMessage());
        b.setState(CoreDevice.State.REGISTERED);
        assertNothingLeft();
    }

    private static Map<String, Integer> nonZero(Map<String, Integer> counts) {
        Map<String, Integer> m = new java.util.TreeMap<>(counts);
        m.values().removeIf(v -> v == 0);
        return m;
    }

    @Test
    void writeBwWritesEveryQpRegionAndReportsARow() {
        int size = 8192;
        List<String> progress = new ArrayList<>();
        WriteBw.Result r;
        List<String> header;
        WriteBw.Params p = new WriteBw.Params(size, 300, 0, 8, 1, 1, 7);
        try (RcPair pair = RcPair.open(net, config(2, WriteBw.bufferSize(size, 2)))) {
            header = WriteBw.header(pair, p);
            pair.connect();
            r = WriteBw.run(pair, p, progress::add);
            // read back: B's buffer holds QP q's pattern in region q
            for (int q = 0; q < 2; q++) {
                for (int k = 0; k < size; k += 97) {
                    assertEquals(WriteBw.pattern(7, q, k), pair.b().buffer().get(q * size + k));
                }
            }
        }
        assertEquals(600, r.iters());
        assertEquals(600L * size, r.bytes());
        assertTrue(r.avgMBps() > 0 && r.peakMBps() >= r.avgMBps() * 0.99, r.toString());
        assertTrue(r.row().startsWith(" 8192       600              "), r.row());
        assertEquals(WriteBw.RESULT_LINE, header.get(0));
        assertEquals("                    RDMA_Write BW Test", header.get(1));
        assertEquals(" Number of qps   : 2\t\tTransport type : IB", header.get(3));
        assertEquals(" Connection type : RC\t\tUsing SRQ      : OFF", header.get(4));
        assertEquals(" TX depth        : 8", header.get(5));
        assertEquals(" Mtu             : 4096[B]", header.get(7));
        assertEquals(" Link type       : IB", header.get(8));
        assertTrue(header.get(13).matches(" local address: LID 0x01 QPN 0x[0-9a-f]{4,6} PSN 0x[0-9a-f]{4,6}"
                + " RKey 0x[0-9a-f]{6,8} VAddr 0x007f3a00000000"), header.get(13));
        assertTrue(header.get(16).matches(" remote address: LID 0x02 QPN .* VAddr 0x007f4a00002000"), header.get(16));
        assertEquals(17, header.size());
        assertNothingLeft();
    }

    @Test
    void unknownDeviceIsEnodevAndNothingLeaks() {
        RcPair.Config c = config(1, 4096);
        c.deviceB = "mlx4_9";
        RdmaException e = assertThrows(RdmaException.class, () -> RcPair.open(net, c));
        assertEquals(Errno.ENODEV, e.errno());
        assertEquals("ENODEV: IB device mlx4_9 not found", e.getMessage());
        assertNothingLeft();
    }

    @Test
    void badPortIsEinvalAfterTheFirstSideWasBuilt() {
        RcPair.Config c = config(1, 4096);
        c.portB = 3;
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> RcPair.open(net, c)).errno());
        assertNothingLeft();
    }
}
