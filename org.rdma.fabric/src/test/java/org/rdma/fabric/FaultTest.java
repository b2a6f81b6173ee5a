package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.time.VirtualClock;

/** Link faults in virtual time, with fixed seeds: counts, behaviour, determinism. */
class FaultTest {
    private static final int N = 2000;

    /** What H2 received when H1 sent N numbered packets with {@code faults} on the S2-S3 cable. */
    private static final class Run {
        final List<Integer> psns = new ArrayList<>();
        FaultCounters counters;
        PortCounterSnapshot s3in;
        int corruptPayloads;
        int pendingAfterSend;
    }

    private static Run run(long seed, FaultProfile faults) {
        VirtualClock clock = new VirtualClock();
        Fabric f = Nets.threeSwitches(clock, seed);
        try {
            FabricPort h1 = Nets.port(f, Nets.H1, 1);
            FabricPort h2 = Nets.port(f, Nets.H2, 1);
            FabricPort s2out = Nets.port(f, Nets.S2, 2);
            s2out.link().setFaults(s2out, faults);
            Run r = new Run();
            h2.setSink(p -> {
                int psn = p.psn(p.bthOffset());
                r.psns.add(psn);
                for (int i = 0; i < p.payloadLength; i++) {
                    if (p.payload.get(p.payloadOffset + i) != (byte) (psn + i)) {
                        r.corruptPayloads++;
                        break;
                    }
                }
            });
            ByteBuffer mr = ByteBuffer.allocate(64);
            for (int psn = 0; psn < N; psn++) {
                for (int i = 0; i < 64; i++) {
                    mr.put(i, (byte) (psn + i));
                }
                h1.transmit(Pkts.ud(h1, 0, 0, 11, 10, 0x10, psn, mr, 0, 64));
            }
            r.pendingAfterSend = clock.pending();
            clock.runAll();
            r.counters = s2out.link().faultCounters(s2out);
            r.s3in = Nets.port(f, Nets.S3, 1).counters();
            return r;
        } finally {
            f.close();
        }
    }

    @Test
    void dropLosesPacketsAndCountsThem() {
        Run r = run(42, FaultProfile.NONE.withDropRate(0.25));
        assertEquals(N, r.counters.packets());
        assertEquals(N - r.counters.dropped(), r.psns.size());
        assertTrue(r.counters.dropped() > N / 5 && r.counters.dropped() < N * 3 / 10, "about 25%: " + r.counters.dropped());
        List<Integer> sorted = new ArrayList<>(r.psns);
        sorted.sort(null);
        assertEquals(sorted, r.psns, "drop does not reorder");
        assertEquals(r.psns.size(), r.s3in.portRcvPkts());
    }

    @Test
    void duplicateDeliversSecondCopies() {
        Run r = run(42, FaultProfile.NONE.withDuplicateRate(0.1));
        assertTrue(r.counters.duplicated() > N / 20 && r.counters.duplicated() < N * 3 / 20, "" + r.counters.duplicated());
        assertEquals(N + r.counters.duplicated(), r.psns.size());
        Set<Integer> unique = new HashSet<>(r.psns);
        assertEquals(N, unique.size());
        int twice = 0;
        for (int i = 1; i < r.psns.size(); i++) {
            if (r.psns.get(i).equals(r.psns.get(i - 1))) {
                twice++;
            }
        }
        assertEquals(r.counters.duplicated(), twice, "the copy follows the original");
        assertEquals(0, r.corruptPayloads, "the copy carries its own payload");
    }

    @Test
    void reorderHoldsAPacketBehindTheNextOne() {
        Run r = run(7, FaultProfile.NONE.withReorderRate(0.05));
        assertEquals(N, r.psns.size(), "nothing lost");
        assertEquals(N, new HashSet<>(r.psns).size());
        int swaps = 0;
        for (int i = 1; i < r.psns.size(); i++) {
            if (r.psns.get(i) < r.psns.get(i - 1)) {
                swaps++;
                assertEquals(r.psns.get(i - 1) - 1, (int) r.psns.get(i), "released right after the next one");
            }
        }
        // A packet still held when the sender stopped is released by its timer, in order.
        assertEquals(r.counters.reordered(), swaps + r.pendingAfterSend);
        assertTrue(r.counters.reordered() > 50, "" + r.counters.reordered());
        assertEquals(0, r.corruptPayloads);
    }

    @Test
    void aHeldPacketIsReleasedByTimeWithoutFollowers() {
        VirtualClock clock = new VirtualClock();
        Fabric f = Nets.threeSwitches(clock, 1);
        FabricPort h1 = Nets.port(f, Nets.H1, 1);
        Pkts.Collector at2 = new Pkts.Collector();
        Nets.port(f, Nets.H2, 1).setSink(at2);
        h1.link().setFaults(h1, FaultProfile.NONE.withReorderRate(1).withReorderHold(3, TimeUnit.MICROSECONDS));
        h1.transmit(Pkts.ud(h1, 11, 10, 1, 16));
        assertEquals(0, at2.size());
        clock.advance(2, TimeUnit.MICROSECONDS);
        assertEquals(0, at2.size());
        clock.advance(1, TimeUnit.MICROSECONDS);
        assertEquals(1, at2.size());
        f.close();
    }

    @Test
    void corruptedPacketsAreDroppedAndCountedNeverDelivered() {
        Run r = run(3, FaultProfile.NONE.withCorruptRate(0.1));
        assertTrue(r.counters.corrupted() > N / 20, "" + r.counters.corrupted());
        assertEquals(N - r.counters.corrupted(), r.psns.size());
        assertEquals(r.counters.corrupted(), r.s3in.portRcvErrors(), "S3's input port caught every one (PortRcvErrors)");
        assertEquals(0, r.corruptPayloads, "no corrupted byte reached the receiver");
        Run all = run(3, FaultProfile.NONE.withCorruptRate(1));
        assertEquals(0, all.psns.size());
        assertEquals(N, all.s3in.portRcvErrors());
    }

    @Test
    void delayDeliversLaterInOrder() {
        VirtualClock clock = new VirtualClock();
        Fabric f = Nets.threeSwitches(clock, 1);
        FabricPort h1 = Nets.port(f, Nets.H1, 1);
        Pkts.Collector at2 = new Pkts.Collector();
        Nets.port(f, Nets.H2, 1).setSink(at2);
        h1.link().setFaults(FaultProfile.NONE.withDelay(5, TimeUnit.MICROSECONDS));
        ByteBuffer mr = ByteBuffer.allocate(8);
        for (int i = 0; i < 10; i++) {
            mr.put(0, (byte) i);
            h1.transmit(Pkts.ud(h1, 0, 0, 11, 10, 1, i, mr, 0, 8));
        }
        mr.put(0, (byte) 99);   // the sender reuses its buffer: queued packets own their payload
        assertEquals(0, at2.size());
        clock.advance(4999, TimeUnit.NANOSECONDS);
        assertEquals(0, at2.size());
        clock.advance(1, TimeUnit.NANOSECONDS);
        assertEquals(10, at2.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(i, at2.psns().get(i));
            assertEquals(i, at2.get(i).payload.get(at2.get(i).payloadOffset));
        }
        assertEquals(10, h1.link().faultCounters(h1).delayed());
        f.close();
    }

    @Test
    void sameSeedSameFaultsOtherSeedOtherFaults() {
        FaultProfile mix = FaultProfile.NONE.withDropRate(0.05).withDuplicateRate(0.05).withReorderRate(0.05)
                .withCorruptRate(0.05);
        Run a = run(1234, mix);
        Run b = run(1234, mix);
        Run c = run(4321, mix);
        assertEquals(a.psns, b.psns);
        assertEquals(a.counters, b.counters);
        assertNotEquals(a.psns, c.psns);
        // Every packet is accounted for: lost on the wire, caught by S3's receiver, or delivered.
        assertEquals(N - a.counters.dropped() + a.counters.duplicated() - a.s3in.portRcvErrors(), a.psns.size());
        assertTrue(a.s3in.portRcvErrors() >= a.counters.corrupted());
        assertEquals(0, a.corruptPayloads);
    }
}
