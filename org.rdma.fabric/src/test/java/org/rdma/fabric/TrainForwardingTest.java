package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortState;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.Vcrc;

/**
 * Segment trains on the fabric: a train of RC WRITE MIDDLE packets from H1 to H3 across S1 (and to
 * H2 across S1, S2, S3) must be seen, counted, captured, faulted and dropped exactly as the packets
 * it stands for sent one by one.
 */
class TrainForwardingTest {
    /** Packets per train. */
    private static final int N = 5;
    /** Payload bytes per packet. */
    private static final int LEN = 256;
    /** First payload byte in the sender's memory. */
    private static final int OFF = 12;
    private static final int QP = 0x000A5A;
    private static final int PSN = 0xFFFFFE;
    /** LID of H1, H2, H3. */
    private static final int LID_H1 = 10;
    private static final int LID_H2 = 11;
    private static final int LID_H3 = 12;
    /** PortXmitData/PortRcvData of one packet: LRH + BTH + payload + ICRC, in 4-byte words. */
    private static final int WORDS = (Pkts.RC_HDR + LEN + Icrc.ICRC_BYTES) / 4;

    @TempDir
    Path tmp;

    /** The three-switch fabric of {@link Nets#threeSwitches}, a fresh clock, H1's and H3's ports. */
    private static final class Net implements AutoCloseable {
        final VirtualClock clock = new VirtualClock();
        final Fabric f;
        final FabricPort h1;
        final FabricPort h2;
        final FabricPort h3;
        final FabricPort s1in;
        final FabricPort s1out;

        Net(long seed) {
            f = Nets.threeSwitches(clock, seed);
            h1 = Nets.port(f, Nets.H1, 1);
            h2 = Nets.port(f, Nets.H2, 1);
            h3 = Nets.port(f, Nets.H3, 1);
            s1in = Nets.port(f, Nets.S1, 1);
            s1out = Nets.port(f, Nets.S1, 3);
        }

        Net() {
            this(7);
        }

        /** Every port's counters, by node name and port number. */
        Map<String, PortCounterSnapshot> counters() {
            Map<String, PortCounterSnapshot> m = new LinkedHashMap<>();
            for (FabricNode n : f.nodes()) {
                for (FabricPort p : n.ports()) {
                    m.put(n.name() + "[" + p.portNum() + "]", p.counters());
                }
            }
            return m;
        }

        @Override
        public void close() {
            f.close();
        }
    }

    /** The sender's memory: {@code packets * LEN} bytes from {@link #OFF} ({@link Pkts#trainMemory}). */
    private static ByteBuffer memory(int packets) {
        return Pkts.trainMemory(ByteBuffer.allocateDirect(OFF + packets * LEN + 5), OFF, packets, LEN);
    }

    private static byte expected(int packet, int i) {
        return Pkts.trainByte(packet, i);
    }

    private static Packet train(FabricPort from, int dlid, boolean ackReq, ByteBuffer mr) {
        return Pkts.rcTrain(from, dlid, from.lid(), QP, PSN, ackReq, mr, OFF, LEN, N);
    }

    private static void singles(FabricPort from, int dlid, boolean ackReq, ByteBuffer mr) {
        Pkts.rcSingles(from, dlid, from.lid(), QP, PSN, ackReq, mr, OFF, LEN, N);
    }

    /** The header packet {@code i} of a train from {@code slid} must carry, byte for byte. */
    private static byte[] headerOf(int i, int dlid, int slid, boolean trainAckReq) {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), dlid, slid, QP, PSN + i,
                trainAckReq && i == N - 1, null, 0, LEN);
        return Arrays.copyOf(p.header, p.headerLength);
    }

    private static int psn(int i) {
        return (PSN + i) & 0xFF_FFFF;
    }

    /** A sink with receive offload: keeps every train whole (retaining it and all its payload). */
    private static final class TrainSink implements PacketSink {
        final List<Packet> packets = new ArrayList<>();

        @Override
        public void receive(Packet packet) {
            packets.add(packet.retain().retainPayload());
        }

        @Override
        public boolean receivesTrains() {
            return true;
        }

        /** The packets received, trains walked packet by packet. */
        List<Packet> split() {
            List<Packet> out = new ArrayList<>();
            for (Packet p : packets) {
                while (p.segments() > 1) {
                    out.add(p.splitFirst(new Packet(p.linkLayer())));
                }
                out.add(p);
            }
            return out;
        }
    }

    /** Checks that {@code got} are the N packets of the train, in order, byte for byte. */
    private static void assertThePacketsOfTheTrain(List<Packet> got, int dlid, int slid, boolean ackReq) {
        assertEquals(N, got.size());
        for (int i = 0; i < N; i++) {
            Packet p = got.get(i);
            assertEquals(1, p.segments(), "packet " + i);
            assertArrayEquals(headerOf(i, dlid, slid, ackReq), Arrays.copyOf(p.header, p.headerLength),
                    "header of packet " + i);
            assertEquals(psn(i), p.psn(p.bthOffset()));
            assertEquals(ackReq && i == N - 1, p.ackReq(p.bthOffset()));
            assertEquals(0, p.padCount);
            assertEquals(LEN, p.payloadLength);
            byte[] b = new byte[LEN];
            p.readBytes(p.headerLength, b, 0, LEN);
            for (int k = 0; k < LEN; k++) {
                assertEquals(expected(i, k), b[k], "packet " + i + " payload byte " + k);
            }
        }
    }

    private static List<Integer> psnsOf(List<Packet> packets) {
        List<Integer> out = new ArrayList<>();
        for (Packet p : packets) {
            out.add(p.psn(p.bthOffset()));
        }
        return out;
    }

    private static List<Integer> trainPsns() {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            out.add(psn(i));
        }
        return out;
    }

    // ------------------------------------------------------------------ delivery

    @Test
    void aSinkThatDoesNotTakeTrainsGetsEachPacketInPsnOrderWithAckReqOnTheLastOnly() {
        try (Net n = new Net()) {
            Pkts.Collector at3 = new Pkts.Collector();
            List<Integer> segmentsSeen = new ArrayList<>();
            n.h3.setSink(new PacketSink() {
                @Override
                public void receive(Packet packet) {
                    segmentsSeen.add(packet.segments());
                    at3.receive(packet);
                }
            });
            ByteBuffer mr = memory(N);
            n.h1.transmit(train(n.h1, LID_H3, true, mr));
            assertEquals(List.of(1, 1, 1, 1, 1), segmentsSeen);
            assertThePacketsOfTheTrain(at3.packets, LID_H3, LID_H1, true);
            assertEquals(List.of(0xFFFFFE, 0xFFFFFF, 0, 1, 2), at3.psns(), "PSN wraps to 0");
        }
    }

    @Test
    void aTrainWithoutAckReqArrivesAsPacketsWithoutAckReq() {
        try (Net n = new Net()) {
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            n.h1.transmit(train(n.h1, LID_H3, false, memory(N)));
            assertThePacketsOfTheTrain(at3.packets, LID_H3, LID_H1, false);
        }
    }

    @Test
    void aTrainAcrossThreeSwitchesReachesASinkThatDoesNotTakeTrainsAsItsPackets() {
        try (Net n = new Net()) {
            Pkts.Collector at2 = new Pkts.Collector();
            n.h2.setSink(at2);
            n.h1.transmit(train(n.h1, LID_H2, true, memory(N)));
            assertThePacketsOfTheTrain(at2.packets, LID_H2, LID_H1, true);
        }
    }

    @Test
    void aSinkThatTakesTrainsGetsTheTrainWhole() {
        try (Net n = new Net()) {
            TrainSink at3 = new TrainSink();
            n.h3.setSink(at3);
            ByteBuffer mr = memory(N);
            n.h1.transmit(train(n.h1, LID_H3, true, mr));
            assertEquals(1, at3.packets.size());
            Packet t = at3.packets.get(0);
            assertEquals(N, t.segments());
            assertEquals(LEN, t.payloadLength);
            assertArrayEquals(headerWithAckReq(headerOf(0, LID_H3, LID_H1, true)), Arrays.copyOf(t.header, t.headerLength),
                    "the first packet's header, with the train's AckReq");
            mr.clear();
            while (mr.hasRemaining()) {
                mr.put((byte) 0);      // the sink retained every segment's payload
            }
            assertThePacketsOfTheTrain(at3.split(), LID_H3, LID_H1, true);
        }
    }

    private static byte[] headerWithAckReq(byte[] h) {
        h[Lrh.IB_LRH_BYTES + 8] |= (byte) 0x80;
        return h;
    }

    @Test
    void aTrainCrossesThreeSwitchesWholeToASinkThatTakesTrains() {
        try (Net n = new Net()) {
            TrainSink at2 = new TrainSink();
            n.h2.setSink(at2);
            n.h1.transmit(train(n.h1, LID_H2, true, memory(N)));
            assertEquals(1, at2.packets.size());
            assertEquals(N, at2.packets.get(0).segments());
            assertEquals(3, at2.packets.get(0).hops());
            assertThePacketsOfTheTrain(at2.split(), LID_H2, LID_H1, true);
        }
    }

    // ------------------------------------------------------------------ counters

    /** Every port's counters after H1 sends the train (or its packets one by one) to {@code dlid}. */
    private static Map<String, PortCounterSnapshot> countersAfter(boolean asTrain, int dlid, PacketSink sink,
                                                                  Consumer<Net> setup) {
        try (Net n = new Net()) {
            n.h2.setSink(sink);
            n.h3.setSink(sink);
            setup.accept(n);
            ByteBuffer mr = memory(N);
            if (asTrain) {
                n.h1.transmit(train(n.h1, dlid, true, mr));
            } else {
                singles(n.h1, dlid, true, mr);
            }
            n.clock.runAll();
            return n.counters();
        }
    }

    private static void assertCountsLikeSingles(int dlid, Consumer<Net> setup) {
        for (PacketSink sink : new PacketSink[] {p -> { }, new TrainSink()}) {
            Map<String, PortCounterSnapshot> train = countersAfter(true, dlid, sink, setup);
            Map<String, PortCounterSnapshot> singles = countersAfter(false, dlid, sink, setup);
            assertEquals(singles, train, "sink taking trains: " + sink.receivesTrains());
        }
    }

    @Test
    void everyPortOnThePathCountsEachPacketAndItsDataWords() {
        try (Net n = new Net()) {
            n.h3.setSink(new TrainSink());
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            PortCounterSnapshot h1 = n.h1.counters();
            assertEquals(N, h1.portXmitPkts());
            assertEquals(N, h1.portUnicastXmitPkts());
            assertEquals(0, h1.portMulticastXmitPkts());
            assertEquals((long) N * WORDS, h1.portXmitData());
            PortCounterSnapshot in = n.s1in.counters();
            assertEquals(N, in.portRcvPkts());
            assertEquals(N, in.portUnicastRcvPkts());
            assertEquals((long) N * WORDS, in.portRcvData());
            PortCounterSnapshot out = n.s1out.counters();
            assertEquals(N, out.portXmitPkts());
            assertEquals(N, out.portUnicastXmitPkts());
            assertEquals((long) N * WORDS, out.portXmitData());
            PortCounterSnapshot h3 = n.h3.counters();
            assertEquals(N, h3.portRcvPkts());
            assertEquals(N, h3.portUnicastRcvPkts());
            assertEquals((long) N * WORDS, h3.portRcvData());
            for (PortCounterSnapshot c : List.of(h1, in, out, h3)) {
                assertEquals(0, c.portRcvErrors() + c.portXmitDiscards() + c.portRcvSwitchRelayErrors()
                        + c.portRcvStateDiscards());
            }
            assertEquals(N, n.h1.link().faultCounters(n.h1).packets(), "the cable carried each packet");
            assertEquals(N, n.s1out.link().faultCounters(n.s1out).packets());
        }
    }

    @Test
    void aTrainAcrossOneSwitchCountsExactlyLikeItsPacketsSentOneByOne() {
        assertCountsLikeSingles(LID_H3, n -> { });
    }

    @Test
    void aTrainThatStartsAndEndsItsMessageCountsExactlyLikeItsPacketsSentOneByOne() {
        for (PacketSink sink : new PacketSink[] {p -> { }, new TrainSink()}) {
            Map<String, PortCounterSnapshot> train = wholeMessageCounters(true, sink);
            Map<String, PortCounterSnapshot> singles = wholeMessageCounters(false, sink);
            assertEquals(singles, train, "sink taking trains: " + sink.receivesTrains());
            // the FIRST carries 4 words of RETH more than the others
            assertEquals((long) N * WORDS + 4, train.get(Nets.H3 + "[1]").portRcvData());
        }
    }

    private static Map<String, PortCounterSnapshot> wholeMessageCounters(boolean asTrain, PacketSink sink) {
        try (Net n = new Net()) {
            n.h3.setSink(sink);
            ByteBuffer mr = memory(N);
            if (asTrain) {
                Packet p = Pkts.rcWriteFirst(n.h1.allocPacket(), false, LID_H3, LID_H1, QP, PSN, mr, OFF, LEN, N);
                p.header[Lrh.IB_LRH_BYTES + 8] |= (byte) 0x80;
                p.setSegments(N, true, true);
                n.h1.transmit(p);
            } else {
                Pkts.rcWriteSingles(n.h1, LID_H3, LID_H1, QP, PSN, mr, OFF, LEN, N);
            }
            n.clock.runAll();
            return n.counters();
        }
    }

    @Test
    void aTrainAcrossThreeSwitchesCountsExactlyLikeItsPacketsSentOneByOne() {
        assertCountsLikeSingles(LID_H2, n -> { });
        Map<String, PortCounterSnapshot> c = countersAfter(true, LID_H2, new TrainSink(), n -> { });
        for (String port : List.of(Nets.S1 + "[2]", Nets.S2 + "[2]", Nets.S3 + "[2]")) {
            assertEquals(N, c.get(port).portXmitPkts(), port);
            assertEquals((long) N * WORDS, c.get(port).portXmitData(), port);
        }
        for (String port : List.of(Nets.S1 + "[1]", Nets.S2 + "[1]", Nets.S3 + "[1]", Nets.H2 + "[1]")) {
            assertEquals(N, c.get(port).portRcvPkts(), port);
            assertEquals((long) N * WORDS, c.get(port).portRcvData(), port);
        }
    }

    // ------------------------------------------------------------------ capture

    @Test
    void aCaptureOnTheLastLinkRecordsEachPacketOfTheTrainAndTheSinkStillGetsThem() throws Exception {
        for (boolean sinkTakesTrains : new boolean[] {false, true}) {
            try (Net n = new Net()) {
                Pkts.Collector plain = new Pkts.Collector();
                TrainSink trains = new TrainSink();
                n.h3.setSink(sinkTakesTrains ? trains : plain);
                Path file = tmp.resolve("train-" + sinkTakesTrains + ".pcap");
                try (Capture cap = n.h3.link().capture(file)) {
                    n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
                    assertEquals(N, cap.packets());
                }
                List<CaptureTest.Rec> recs = CaptureTest.read(file, 197);
                assertEquals(N, recs.size());
                int iface = n.h3.link().endA() == n.s1out ? 0 : 1;
                for (int i = 0; i < N; i++) {
                    byte[] fr = recs.get(i).frame();
                    assertEquals(21, recs.get(i).type());
                    assertEquals(iface, recs.get(i).flags() & 3, "S1 -> H3");
                    assertEquals(Pkts.RC_HDR + LEN + Icrc.ICRC_BYTES + Vcrc.VCRC_BYTES, fr.length);
                    assertTrue(Vcrc.verify(fr, 0, fr.length), "VCRC of record " + i);
                    assertTrue(Icrc.verifyIb(fr, 0, fr.length - Vcrc.VCRC_BYTES), "ICRC of record " + i);
                    assertEquals(fr.length - Vcrc.VCRC_BYTES, ((fr[4] & 7) << 8 | fr[5] & 0xFF) * 4, "LRH:PktLen");
                    assertArrayEquals(headerOf(i, LID_H3, LID_H1, true), Arrays.copyOf(fr, Pkts.RC_HDR), "record " + i);
                    for (int k = 0; k < LEN; k++) {
                        assertEquals(expected(i, k), fr[Pkts.RC_HDR + k], "record " + i + " byte " + k);
                    }
                }
                List<Packet> got = sinkTakesTrains ? trains.split() : plain.packets;
                assertThePacketsOfTheTrain(got, LID_H3, LID_H1, true);
                assertEquals(N, n.h3.counters().portRcvPkts());
                assertEquals(0, n.h3.counters().portRcvErrors());
            }
        }
    }

    @Test
    void aCaptureOnTheFirstLinkRecordsEachPacketOfTheTrain() throws Exception {
        try (Net n = new Net()) {
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            Path file = tmp.resolve("first-link.pcap");
            try (Capture cap = n.h1.link().capture(file)) {
                n.h1.transmit(train(n.h1, LID_H3, false, memory(N)));
                assertEquals(N, cap.packets());
            }
            List<Integer> psns = new ArrayList<>();
            for (CaptureTest.Rec r : CaptureTest.read(file, 197)) {
                byte[] fr = r.frame();
                psns.add((fr[Lrh.IB_LRH_BYTES + 9] & 0xFF) << 16 | (fr[Lrh.IB_LRH_BYTES + 10] & 0xFF) << 8
                        | fr[Lrh.IB_LRH_BYTES + 11] & 0xFF);
                assertEquals(0, fr[Lrh.IB_LRH_BYTES + 8] & 0x80, "no AckReq");
            }
            assertEquals(trainPsns(), psns);
            assertThePacketsOfTheTrain(at3.packets, LID_H3, LID_H1, false);
        }
    }

    @Test
    void aCapturedTrainCountsExactlyLikeItsPacketsSentOneByOne() {
        assertCountsLikeSingles(LID_H2, n -> {
            try {
                Nets.port(n.f, Nets.S2, 2).link().capture(tmp.resolve("count-" + System.nanoTime() + ".pcap"));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    // ------------------------------------------------------------------ faults

    @Test
    void droppingEverythingOnTheFirstLinkDropsEachPacketOfTheTrain() {
        try (Net n = new Net()) {
            TrainSink at3 = new TrainSink();
            n.h3.setSink(at3);
            n.h1.link().setFaults(n.h1, FaultProfile.NONE.withDropRate(1));
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            n.clock.runAll();
            FaultCounters fc = n.h1.link().faultCounters(n.h1);
            assertEquals(N, fc.packets());
            assertEquals(N, fc.dropped());
            assertEquals(0, at3.packets.size());
            assertEquals(N, n.h1.counters().portXmitPkts());
            assertEquals(0, n.s1in.counters().portRcvPkts());
            assertEquals(0, n.h3.counters().portRcvPkts());
        }
    }

    @Test
    void droppingEverythingOnTheLastLinkDropsEachPacketOfTheForwardedTrain() {
        try (Net n = new Net()) {
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            n.s1out.link().setFaults(n.s1out, FaultProfile.NONE.withDropRate(1));
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            n.clock.runAll();
            FaultCounters fc = n.s1out.link().faultCounters(n.s1out);
            assertEquals(N, fc.packets());
            assertEquals(N, fc.dropped());
            assertEquals(0, at3.size());
            assertEquals(N, n.s1in.counters().portRcvPkts());
            assertEquals(N, n.s1out.counters().portXmitPkts());
            assertEquals(0, n.h3.counters().portRcvPkts());
        }
    }

    /** What H2 saw when H1 sent {@code trains} trains (or their packets one by one) with {@code faults} on S2 -> S3. */
    private record FaultRun(List<Integer> psns, List<Integer> segments, FaultCounters faults,
                            Map<String, PortCounterSnapshot> counters, int badPayloads) {
    }

    private static FaultRun faultRun(boolean asTrain, FaultProfile faults, boolean sinkTakesTrains) {
        int trains = 60;
        try (Net n = new Net(99)) {
            FabricPort s2out = Nets.port(n.f, Nets.S2, 2);
            s2out.link().setFaults(s2out, faults);
            List<Integer> psns = new ArrayList<>();
            List<Integer> segments = new ArrayList<>();
            int[] bad = new int[1];
            n.h2.setSink(new PacketSink() {
                @Override
                public void receive(Packet p) {
                    segments.add(p.segments());
                    for (int s = 0; s < p.segments(); s++) {
                        int psn = (p.psn(p.bthOffset()) + s) & 0xFF_FFFF;
                        psns.add(psn);
                        for (int i = 0; i < LEN; i++) {
                            if (p.payload.get(p.payloadOffset + s * LEN + i) != (byte) (psn * 5 + i)) {
                                bad[0]++;
                                break;
                            }
                        }
                    }
                }

                @Override
                public boolean receivesTrains() {
                    return sinkTakesTrains;
                }
            });
            ByteBuffer mr = ByteBuffer.allocate(N * LEN);
            for (int t = 0; t < trains; t++) {
                int first = t * N;
                for (int s = 0; s < N; s++) {
                    for (int i = 0; i < LEN; i++) {
                        mr.put(s * LEN + i, (byte) ((first + s) * 5 + i));
                    }
                }
                if (asTrain) {
                    n.h1.transmit(Pkts.rcTrain(n.h1, LID_H2, LID_H1, QP, first, true, mr, 0, LEN, N));
                } else {
                    Pkts.rcSingles(n.h1, LID_H2, LID_H1, QP, first, true, mr, 0, LEN, N);
                }
            }
            // The sender reuses its memory: whatever a fault still holds must own its payload.
            for (int i = 0; i < mr.capacity(); i++) {
                mr.put(i, (byte) 0x5A);
            }
            n.clock.runAll();
            return new FaultRun(psns, segments, s2out.link().faultCounters(s2out), n.counters(), bad[0]);
        }
    }

    @Test
    void linkFaultsSeeEachPacketOfATrainExactlyAsPacketsSentOneByOne() {
        FaultProfile mix = FaultProfile.NONE.withDropRate(0.1).withDuplicateRate(0.1).withReorderRate(0.1)
                .withCorruptRate(0.1);
        for (boolean sinkTakesTrains : new boolean[] {false, true}) {
            FaultRun train = faultRun(true, mix, sinkTakesTrains);
            FaultRun singles = faultRun(false, mix, sinkTakesTrains);
            assertEquals(singles.psns(), train.psns(), "same seed, same packets: same faults");
            assertEquals(singles.faults(), train.faults());
            assertEquals(singles.counters(), train.counters());
            assertEquals(0, train.badPayloads());
            assertEquals(300, train.faults().packets());
            assertTrue(train.faults().dropped() > 0 && train.faults().duplicated() > 0
                    && train.faults().reordered() > 0 && train.faults().corrupted() > 0, train.faults().toString());
            assertTrue(train.segments().stream().allMatch(s -> s == 1), "after a faulty link: single packets");
        }
    }

    @Test
    void delayedPacketsOfATrainKeepTheirPayloadWhenTheSenderReusesItsMemory() {
        try (Net n = new Net()) {
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            n.h1.link().setFaults(n.h1, FaultProfile.NONE.withDelay(5, TimeUnit.MICROSECONDS));
            ByteBuffer mr = memory(N);
            n.h1.transmit(train(n.h1, LID_H3, true, mr));
            for (int i = 0; i < mr.capacity(); i++) {
                mr.put(i, (byte) 0);
            }
            assertEquals(0, at3.size());
            n.clock.advance(5, TimeUnit.MICROSECONDS);
            assertEquals(N, n.h1.link().faultCounters(n.h1).delayed());
            assertThePacketsOfTheTrain(at3.packets, LID_H3, LID_H1, true);
        }
    }

    // ------------------------------------------------------------------ drops

    @Test
    void aTrainToAnUnroutableDlidCountsARelayErrorPerPacket() {
        try (Net n = new Net()) {
            Pkts.Collector any = new Pkts.Collector();
            n.h2.setSink(any);
            n.h3.setSink(any);
            n.h1.transmit(train(n.h1, 99, true, memory(N)));            // no LFT entry (0xFF)
            assertEquals(N, n.s1in.counters().portRcvSwitchRelayErrors());
            assertEquals(N, n.s1in.counters().portRcvPkts());
            n.h1.transmit(train(n.h1, 0x4000, true, memory(N)));        // above LinearFDBTop
            assertEquals(2 * N, n.s1in.counters().portRcvSwitchRelayErrors());
            Nets.sw(n.f, Nets.S1).setLft(LID_H3, 1);                     // back out of the input port
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            assertEquals(3 * N, n.s1in.counters().portRcvSwitchRelayErrors());
            assertEquals(0, any.size());
            for (FabricPort p : Nets.sw(n.f, Nets.S1).ports()) {
                assertEquals(0, p.counters().portXmitPkts(), "nothing relayed out of " + p);
            }
        }
        assertCountsLikeSingles(99, n -> { });
    }

    @Test
    void aTrainWhoseSlMapsToVl15CountsARelayErrorPerPacket() {
        Consumer<Net> vl15 = n -> Nets.sw(n.f, Nets.S1).setSlToVl(1, 3, 0, 15);
        try (Net n = new Net()) {
            vl15.accept(n);
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            assertEquals(N, n.s1in.counters().portRcvSwitchRelayErrors());
            assertEquals(0, n.s1out.counters().portXmitPkts());
            assertEquals(0, at3.size());
        }
        assertCountsLikeSingles(LID_H3, vl15);
    }

    @Test
    void aTrainRoutedToAPortThatIsNotActiveCountsAnXmitDiscardPerPacket() {
        Consumer<Net> initOut = n -> n.s1out.setPortState(PortState.DOWN);   // back to Init
        try (Net n = new Net()) {
            initOut.accept(n);
            assertEquals(PortState.INIT, n.s1out.portState());
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            assertEquals(N, n.s1out.counters().portXmitDiscards());
            assertEquals(0, n.s1out.counters().portXmitPkts());
            assertEquals(0, at3.size());
        }
        assertCountsLikeSingles(LID_H3, initOut);
    }

    @Test
    void aTrainFromAPortThatIsNotActiveCountsAnXmitDiscardPerPacket() {
        try (Net n = new Net()) {
            n.s1out.setPortState(PortState.DOWN);
            assertEquals(PortState.INIT, n.h3.portState());
            Pkts.Collector at1 = new Pkts.Collector();
            n.h1.setSink(at1);
            n.h3.transmit(train(n.h3, LID_H1, true, memory(N)));
            assertEquals(N, n.h3.counters().portXmitDiscards());
            assertEquals(0, n.h3.counters().portXmitPkts());
            assertEquals(0, n.h3.link().faultCounters(n.h3).packets());
            assertEquals(0, at1.size());
        }
    }

    @Test
    void aTrainToAPortWithoutSinkCountsAStateDiscardPerPacket() {
        try (Net n = new Net()) {
            n.h3.setSink(null);
            n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
            assertEquals(N, n.h3.counters().portRcvStateDiscards());
            assertEquals(N, n.h3.counters().portRcvPkts());
        }
        assertCountsLikeSingles(LID_H3, n -> n.h3.setSink(null));
    }

    @Test
    void aTrainWhoseLrhPktLenCoversMoreThanOnePacketIsAReceiveErrorPerPacket() {
        try (Net n = new Net()) {
            Pkts.Collector at3 = new Pkts.Collector();
            n.h3.setSink(at3);
            Packet t = train(n.h1, LID_H3, true, memory(N));
            int words = N * WORDS;                        // the whole train's length: wrong, PktLen is per packet
            t.header[4] = (byte) (t.header[4] & ~7 | words >>> 8);
            t.header[5] = (byte) words;
            n.h1.transmit(t);
            assertEquals(N, n.s1in.counters().portRcvErrors());
            assertEquals(0, at3.size());
        }
    }

    @Test
    void aTrainAboveTheOutputPortsNeighborMtuCountsAnXmitDiscardPerPacket() {
        Consumer<Net> mtu256 = n -> setNeighborMtu(n, 3, PortInfo.MTU_256);
        for (boolean asTrain : new boolean[] {true, false}) {
            try (Net n = new Net()) {
                mtu256.accept(n);
                Pkts.Collector at3 = new Pkts.Collector();
                n.h3.setSink(at3);
                ByteBuffer mr = memory(2 * N);
                long rcvBefore = n.s1in.counters().portRcvPkts();     // the SMPs that set the MTU
                if (asTrain) {
                    n.h1.transmit(Pkts.rcTrain(n.h1, LID_H3, LID_H1, QP, PSN, true, mr, OFF, 2 * LEN, N));
                } else {
                    Pkts.rcSingles(n.h1, LID_H3, LID_H1, QP, PSN, true, mr, OFF, 2 * LEN, N);
                }
                assertEquals(N, n.s1out.counters().portXmitDiscards(), "a 512-byte payload through NeighborMTU 256");
                assertEquals(rcvBefore + N, n.s1in.counters().portRcvPkts());
                assertEquals(0, at3.size());
                // 256 bytes still pass.
                n.h1.transmit(train(n.h1, LID_H3, true, memory(N)));
                assertThePacketsOfTheTrain(at3.packets, LID_H3, LID_H1, true);
                assertEquals(N, n.s1out.counters().portXmitDiscards());
            }
        }
    }

    /** SubnSet(PortInfo) NeighborMTU of S1's port {@code port}, by a directed-route SMP from H1. */
    private static void setNeighborMtu(Net n, int port, int mtu) {
        Pkts.Collector atH1 = new Pkts.Collector();
        n.h1.setSink(atH1);
        Pkts.sendDr(n.h1, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, port, 0x51, 1));
        assertEquals(1, atH1.size());
        PortInfo pi = new PortInfo().unpack(Pkts.smpOf(atH1.get(0)).data, 0);
        atH1.clear();
        pi.portState = PortInfo.PORT_STATE_NOP;
        pi.portPhysState = PortInfo.PHYS_STATE_NOP;
        pi.neighborMtu = mtu;
        Smp set = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, port, 0x52, 1);
        set.data = new byte[64];
        pi.pack(set.data, 0);
        Pkts.sendDr(n.h1, set);
        assertEquals(1, atH1.size());
        assertEquals(0, Pkts.smpOf(atH1.get(0)).statusCode());
        atH1.clear();
        n.h1.setSink(null);
        assertEquals(PortState.ACTIVE, Nets.port(n.f, Nets.S1, port).portState());
    }

    @Test
    void aTrainCaughtInARoutingLoopEndsAtTheLifetimeLimitCountingADiscardPerPacket() {
        Consumer<Net> loop = n -> {
            // Close the line into a ring (S3 port 4 to S1 port 4) and route LID 0x50 around it forever.
            n.f.connect(Nets.port(n.f, Nets.S3, 4), Nets.port(n.f, Nets.S1, 4), null, null);
            Nets.activateAll(n.f);
            Nets.sw(n.f, Nets.S1).setLft(0x50, 2);
            Nets.sw(n.f, Nets.S2).setLft(0x50, 2);
            Nets.sw(n.f, Nets.S3).setLft(0x50, 4);
        };
        try (Net n = new Net()) {
            loop.accept(n);
            n.h1.transmit(train(n.h1, 0x50, true, memory(N)));
            long discards = Nets.port(n.f, Nets.S1, 2).counters().portXmitDiscards()
                    + Nets.port(n.f, Nets.S2, 2).counters().portXmitDiscards()
                    + Nets.port(n.f, Nets.S3, 4).counters().portXmitDiscards();
            assertEquals(N, discards);
            assertEquals(22 * N, Nets.port(n.f, Nets.S1, 2).counters().portXmitPkts());
        }
        assertCountsLikeSingles(0x50, loop);
    }

    @Test
    void aTrainToTheSwitchsOwnLidIsHandledPacketByPacket() {
        try (Net n = new Net()) {
            n.h1.transmit(train(n.h1, 1, true, memory(N)));           // S1's LID: its GMP agents refuse RC data
            assertEquals(N, n.s1in.counters().portRcvStateDiscards());
            assertEquals(0, n.s1in.counters().portRcvSwitchRelayErrors());
        }
        assertCountsLikeSingles(1, n -> { });
    }

    @Test
    void aVl15TrainIsRelayedPacketByPacket() {
        try (Net n = new Net()) {
            TrainSink at3 = new TrainSink();
            n.h3.setSink(at3);
            Packet t = train(n.h1, LID_H3, true, memory(N));
            t.setVl(Packet.VL15);
            n.h1.transmit(t);
            assertEquals(N, at3.packets.size(), "management packets are never relayed as trains");
            for (int i = 0; i < N; i++) {
                Packet p = at3.packets.get(i);
                assertEquals(1, p.segments());
                assertEquals(Packet.VL15, p.vl());
                assertEquals(psn(i), p.psn(p.bthOffset()));
                assertEquals(i == N - 1, p.ackReq(p.bthOffset()));
            }
            assertEquals(N, n.s1out.counters().portXmitPkts());
            assertEquals(N, n.h3.counters().portRcvPkts());
        }
    }

    // ------------------------------------------------------------------ trains that leave packet by packet

    @Test
    void aMulticastTrainLeavesTheSenderPacketByPacket() {
        int mlid = 0xC001;
        Consumer<Net> mft = n -> {
            BitSet s1 = new BitSet();
            s1.set(1);
            s1.set(2);
            s1.set(3);
            Nets.sw(n.f, Nets.S1).setMft(mlid, s1);
            BitSet s2 = new BitSet();
            s2.set(1);
            s2.set(2);
            Nets.sw(n.f, Nets.S2).setMft(mlid, s2);
            BitSet s3 = new BitSet();
            s3.set(1);
            s3.set(2);
            Nets.sw(n.f, Nets.S3).setMft(mlid, s3);
        };
        try (Net n = new Net()) {
            mft.accept(n);
            TrainSink at2 = new TrainSink();
            TrainSink at3 = new TrainSink();
            n.h2.setSink(at2);
            n.h3.setSink(at3);
            n.h1.transmit(train(n.h1, mlid, true, memory(N)));
            for (TrainSink s : List.of(at2, at3)) {
                assertEquals(N, s.packets.size(), "one by one even to a sink that takes trains");
                assertThePacketsOfTheTrain(s.packets, mlid, LID_H1, true);
            }
            assertEquals(N, n.h1.counters().portMulticastXmitPkts());
            assertEquals(N, n.h1.counters().portXmitPkts());
            assertEquals(N, n.s1in.counters().portMulticastRcvPkts());
            assertEquals(N, n.s1out.counters().portMulticastXmitPkts());
            assertEquals(N, n.h3.counters().portMulticastRcvPkts());
            assertEquals(N, n.h2.counters().portMulticastRcvPkts());
        }
        assertCountsLikeSingles(mlid, mft);
    }

    @Test
    void aRoceTrainLeavesTheHostPortPacketByPacket() throws Exception {
        Topology t = Topology.builder()
                .addCa("hostA", 1, 0x0002c90300aa0000L)
                .addCa("hostB", 1, 0x0002c90300bb0000L)
                .addEthernet("roce0", 4)
                .link("hostA", 1, "roce0", 1)
                .link("hostB", 1, "roce0", 2)
                .build();
        long[][] counts = new long[2][];
        for (boolean asTrain : new boolean[] {true, false}) {
            Fabric f = Fabrics.create("eth", t, new VirtualClock(), 1);
            try {
                EthernetPort a = (EthernetPort) f.attach("hostA").port(1);
                EthernetPort b = (EthernetPort) f.attach("hostB").port(1);
                TrainSink atB = new TrainSink();
                b.setSink(atB);
                InetAddress ipA = InetAddress.getByName("192.168.1.1");
                InetAddress ipB = InetAddress.getByName("192.168.1.2");
                ByteBuffer mr = memory(N);
                if (asTrain) {
                    Packet p = Pkts.roce(a, b.macAddress(), ipA, ipB, QP, PSN, mr, OFF, LEN);
                    p.header[p.bthOffset() + 8] |= (byte) 0x80;
                    p.setSegments(N);
                    a.transmit(p);
                } else {
                    for (int i = 0; i < N; i++) {
                        Packet p = Pkts.roce(a, b.macAddress(), ipA, ipB, QP, PSN + i, mr, OFF + i * LEN, LEN);
                        if (i == N - 1) {
                            p.header[p.bthOffset() + 8] |= (byte) 0x80;
                        }
                        a.transmit(p);
                    }
                }
                assertEquals(N, atB.packets.size(), "one by one even to a sink that takes trains");
                for (int i = 0; i < N; i++) {
                    Packet p = atB.packets.get(i);
                    assertEquals(1, p.segments());
                    assertEquals(psn(i), p.psn(p.bthOffset()));
                    assertEquals(i == N - 1, p.ackReq(p.bthOffset()));
                    byte[] pay = new byte[LEN];
                    p.readBytes(p.headerLength, pay, 0, LEN);
                    for (int k = 0; k < LEN; k++) {
                        assertEquals(expected(i, k), pay[k]);
                    }
                }
                assertEquals(N, a.counters().portXmitPkts());
                assertEquals(N, b.counters().portRcvPkts());
                counts[asTrain ? 0 : 1] = concat(a.counters().toArray(), b.counters().toArray(),
                        f.ethernetSegment("roce0").port(1).counters().toArray(),
                        f.ethernetSegment("roce0").port(2).counters().toArray());
            } finally {
                f.close();
            }
        }
        assertArrayEquals(counts[1], counts[0]);
    }

    private static long[] concat(long[]... parts) {
        long[] out = new long[0];
        for (long[] p : parts) {
            long[] n = Arrays.copyOf(out, out.length + p.length);
            System.arraycopy(p, 0, n, out.length, p.length);
            out = n;
        }
        return out;
    }

    @Test
    void aTrainReleasedWholeReturnsToItsPoolAsASinglePacket() {
        try (Net n = new Net()) {
            List<Integer> seen = new ArrayList<>();
            n.h3.setSink(new PacketSink() {
                @Override
                public void receive(Packet p) {
                    seen.add(p.segments());         // not retained: the fabric releases the whole train
                }

                @Override
                public boolean receivesTrains() {
                    return true;
                }
            });
            List<Packet> out = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                Packet t = train(n.h1, LID_H3, true, memory(N));
                out.add(t);
                n.h1.transmit(t);
                Packet next = n.h1.allocPacket();
                assertTrue(out.contains(next), "the pool hands the released train out again");
                assertEquals(1, next.segments(), "a recycled packet is no train");
                assertEquals(0, next.hops());
                next.release();
            }
            assertEquals(List.of(N, N, N), seen);
        }
    }
}
