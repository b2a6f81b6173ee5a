package org.rdma.iscsi.internal.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The NIO transport with Java initiators: many sessions on few threads, back-pressure, digests. */
class TcpTransportTest {
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("not within 20 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    private static long selectorThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("iscsi-tcp-")).count();
    }

    @Test
    void manySessionsAtOnceOnTwoSelectorThreads() throws Exception {
        int sessions = 32;
        long before = selectorThreads();
        try (TcpTarget t = new TcpTarget("127.0.0.1", 16L << 20)) {
            ExecutorService pool = Executors.newFixedThreadPool(sessions);
            CountDownLatch loggedIn = new CountDownLatch(sessions);
            CountDownLatch counted = new CountDownLatch(1);
            List<Future<?>> all = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                int id = s;
                all.add(pool.submit(() -> {
                    try (TcpInitiator i = new TcpInitiator(t.portal)) {
                        i.login(TcpTarget.IQN, "iqn.1994-05.com.example:h" + id, 0x0200_0000_0000L + id, false);
                        loggedIn.countDown();
                        counted.await();
                        Random r = new Random(id);
                        long base = id * 256L; // 128 KiB per session
                        for (int n = 0; n < 32; n++) {
                            byte[] block = new byte[4096];
                            r.nextBytes(block);
                            long lba = base + 8L * r.nextInt(32);
                            i.write(lba, block);
                            assertArrayEquals(block, i.read(lba, 8), "session " + id + " LBA " + lba);
                        }
                        i.logout();
                    }
                    return null;
                }));
            }
            assertTrue(loggedIn.await(30, TimeUnit.SECONDS), "every session logged in");
            assertEquals(sessions, t.target.sessions().size());
            assertEquals(2, selectorThreads() - before, "no thread per connection");
            counted.countDown();
            for (Future<?> f : all) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            await(() -> t.target.sessions().isEmpty(), "every session logged out");
        }
    }

    @Test
    void aConnectionIsNotReadWhileItsPeerDoesNotTakeWhatIsSent() throws Exception {
        try (TcpTarget t = new TcpTarget("127.0.0.1", 16L << 20);
                TcpInitiator i = new TcpInitiator(t.portal)) {
            i.login(TcpTarget.IQN, "iqn.1994-05.com.example:slow", 0x0200_0000_0001L, false);
            byte[] data = new byte[256 * 1024];
            new Random(5).nextBytes(data);
            i.write(0, java.util.Arrays.copyOf(data, 65536));
            for (int off = 65536; off < data.length; off += 65536) {
                i.write(off / 512, java.util.Arrays.copyOfRange(data, off, off + 65536));
            }
            int reads = 60; // 15 MiB of Data-In, far beyond the high-water mark and the socket buffers
            int[] itts = new int[reads];
            for (int n = 0; n < reads; n++) {
                itts[n] = i.sendRead(0, 512);
            }
            await(() -> t.server.pausedConnections() == 1, "reading paused by back-pressure");
            var got = i.collect(itts, data.length);
            for (int n = 0; n < reads; n++) {
                assertArrayEquals(data, got.get(itts[n]), "READ " + n);
            }
            await(() -> t.server.pausedConnections() == 0, "reading resumed");
            i.write(0, java.util.Arrays.copyOf(data, 512));
            i.logout();
        }
    }

    @Test
    void headerAndDataDigestsAsNegotiated() throws Exception {
        try (TcpTarget t = new TcpTarget("127.0.0.1", 4L << 20);
                TcpInitiator i = new TcpInitiator(t.portal)) {
            i.login(TcpTarget.IQN, "iqn.1994-05.com.example:crc", 0x0200_0000_0002L, true);
            byte[] block = new byte[1000 + 24];
            new Random(9).nextBytes(block);
            i.write(40, java.util.Arrays.copyOf(block, 1024));
            assertArrayEquals(java.util.Arrays.copyOf(block, 1024), i.read(40, 2));
            i.logout();
        }
    }
}
