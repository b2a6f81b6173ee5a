package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.time.VirtualClock;

/** Senders on several threads share switches, pools and counters; nothing is lost or double-counted. */
class ConcurrencyTest {
    private static final int PER_THREAD = 20_000;

    private static void blast(Fabric f, String[][] pairs, int[][] lids, AtomicLong[] received) throws Exception {
        CyclicBarrier start = new CyclicBarrier(pairs.length);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < pairs.length; t++) {
            FabricPort from = Nets.port(f, pairs[t][0], 1);
            int dlid = lids[t][0];
            int slid = lids[t][1];
            Thread th = new Thread(() -> {
                try {
                    ByteBuffer mr = ByteBuffer.allocateDirect(256);
                    start.await();
                    for (int i = 0; i < PER_THREAD; i++) {
                        from.transmit(Pkts.ud(from, 0, 0, dlid, slid, 0x10, i & 0xFFFFFF, mr, 0, 256));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void fourSendersThroughSharedSwitches() throws Exception {
        Fabric f = Nets.threeSwitches(new VirtualClock(), 1);
        String[] hosts = {Nets.H1, Nets.H2, Nets.H3, Nets.H4};
        AtomicLong[] received = new AtomicLong[4];
        for (int i = 0; i < 4; i++) {
            AtomicLong n = received[i] = new AtomicLong();
            Nets.port(f, hosts[i], 1).setSink(p -> n.incrementAndGet());
        }
        // H1 -> H2, H2 -> H1, H3 -> H4, H4 -> H3: every flow crosses S2.
        blast(f, new String[][] {{Nets.H1}, {Nets.H2}, {Nets.H3}, {Nets.H4}},
                new int[][] {{11, 10}, {10, 11}, {13, 12}, {12, 13}}, received);
        for (AtomicLong n : received) {
            assertEquals(PER_THREAD, n.get());
        }
        assertEquals(2L * PER_THREAD, Nets.port(f, Nets.S2, 2).counters().portXmitPkts());
        assertEquals(2L * PER_THREAD, Nets.port(f, Nets.S2, 1).counters().portXmitPkts());
        f.close();
    }

    @Test
    void concurrentSendersOnAFaultyLinkAccountForEveryPacket() throws Exception {
        Fabric f = Nets.threeSwitches(new VirtualClock(), 1);
        FabricPort s2 = Nets.port(f, Nets.S2, 2);
        s2.link().setFaults(s2, FaultProfile.NONE.withDropRate(0.1).withDuplicateRate(0.1).withCorruptRate(0.05));
        AtomicLong atH2 = new AtomicLong();
        AtomicLong atH4 = new AtomicLong();
        Nets.port(f, Nets.H2, 1).setSink(p -> atH2.incrementAndGet());
        Nets.port(f, Nets.H4, 1).setSink(p -> atH4.incrementAndGet());
        blast(f, new String[][] {{Nets.H1}, {Nets.H3}}, new int[][] {{11, 10}, {13, 12}}, null);
        FaultCounters c = s2.link().faultCounters(s2);
        assertEquals(2L * PER_THREAD, c.packets());
        long caught = Nets.port(f, Nets.S3, 1).counters().portRcvErrors();
        assertEquals(2L * PER_THREAD - c.dropped() + c.duplicated() - caught, atH2.get() + atH4.get());
        f.close();
    }
}
