package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.PortState;
import org.rdma.verbs.fuzz.FuzzSeeds;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;

/**
 * Fuzzing of the fabric's packet decoding: whatever a CA port puts on the wire crosses its link
 * (the capture tap, which lays the packet out with its ICRC and VCRC), the receiving port's checks
 * (CRCs of a corrupted packet, LVer, LRH:PktLen, VL, state), a switch (LID routing, VL15 to its
 * SMA, multicast, trains) or an Ethernet bridge, and reaches a sink or is dropped.
 *
 * <p>What must hold: nothing throws; every InfiniBand packet the CA sends shows up at a sink (a
 * switch SMA answers an SMP it takes) or in a drop counter of some port; and when every packet of
 * the input was dropped, a good packet still crosses the fabric afterwards.
 *
 * <p>Input: packets one after the other, {@code [ctl][segments][flags][hdrLen][len hi][len lo]
 * [header][payload]}: ctl bit 0 sends from the Ethernet host (else the InfiniBand CA), bit 1
 * corrupts one bit (chosen by the flags byte) of the laid-out frame, bit 2 sets LRH:PktLen to
 * the packet's length, bit 3 captures the link; flags bits 0-1 are the pad count, bit 2 and 3
 * start and end a train's message.
 */
class PacketFuzzTest {
    private static final Topology TOPOLOGY = Topology.builder()
            .addSwitch("sw", 4, 0x0002c90300f00000L)
            .addCa("h1", 1, 0x0002c90300a10000L)
            .addCa("h2", 1, 0x0002c90300a20000L)
            .addEthernet("eth", 3)
            .addCa("ea", 1, 0x0002c90300e10000L)
            .addCa("eb", 1, 0x0002c90300e20000L)
            .link("h1", 1, "sw", 1)
            .link("h2", 1, "sw", 2)
            .link("ea", 1, "eth", 1)
            .link("eb", 1, "eth", 2)
            .build();
    private static final int LID_SW = 1;
    private static final int LID_H1 = 10;
    private static final int LID_H2 = 11;
    private static final Path CAPTURES = Path.of("target", "fuzz-captures");

    /** A sink that counts what it is handed. */
    static final class Counting implements PacketSink {
        long packets;

        @Override
        public void receive(Packet packet) {
            packets++;
        }
    }

    @FuzzTest
    void transmit(byte[] input) throws IOException {
        run(input);
    }

    /** Sends the input's packets, checking as it goes; returns how many packets reached a sink. */
    private static long run(byte[] input) throws IOException {
        VirtualClock clock = new VirtualClock();
        Fabric f = Fabrics.create("fuzz", TOPOLOGY, clock, 1);
        try {
            Counting[] sinks = new Counting[4];
            FabricPort h1 = attach(f, "h1", sinks, 0, LID_H1);
            attach(f, "h2", sinks, 1, LID_H2);
            FabricPort ea = attach(f, "ea", sinks, 2, 0);
            attach(f, "eb", sinks, 3, 0);
            FabricSwitch sw = (FabricSwitch) f.findNode("sw").orElseThrow();
            sw.port(0).setLid(LID_SW, 0);
            Nets.activateAll(f);
            sw.setLft(LID_SW, 0);
            sw.setLft(LID_H1, 1);
            sw.setLft(LID_H2, 2);
            Capture capture = null;
            boolean allDropped = true;
            long arrivals = 0;
            int at = 0;
            for (int n = 0; n < 16 && input.length - at >= 6; n++) {
                int ctl = input[at] & 0xFF;
                boolean eth = (ctl & 1) != 0;
                FabricPort from = eth ? ea : h1;
                if ((ctl & 8) != 0 && capture == null && !eth) {
                    Files.createDirectories(CAPTURES);
                    capture = h1.link().capture(CAPTURES.resolve("transmit.pcap"));
                }
                Packet p = from.allocPacket();
                at = fill(p, input, at);
                if ((ctl & 4) != 0 && !eth && p.headerLength >= 8) {
                    int words = (p.headerLength + p.payloadLength + p.padCount + (p.hasIcrc() ? 4 : 0)) >>> 2;
                    p.header[4] = (byte) (p.header[4] & 0xF8 | (words >>> 8) & 7);
                    p.header[5] = (byte) words;
                }
                int segments = p.segments();
                if ((ctl & 2) != 0 && segments == 1) {
                    corrupt(p, input[at - 1]);
                }
                boolean trapRepress = isTrapRepress(p);
                long delivered = delivered(sinks);
                long dropped = drops(f);
                from.transmit(p);
                long arrived = delivered(sinks) - delivered;
                long moved = arrived + drops(f) - dropped;
                if (!eth && !trapRepress) {
                    assertTrue(moved >= segments, () -> "a packet of " + segments + " reached no sink and no drop counter");
                }
                allDropped &= arrived == 0;
                arrivals += arrived;
            }
            if (capture != null) {
                capture.close();
            }
            clock.advance(1, java.util.concurrent.TimeUnit.SECONDS);
            if (allDropped) {
                assertGoodPacketCrosses(h1, sinks[1]);
            }
            return arrivals;
        } finally {
            f.close();
        }
    }

    private static FabricPort attach(Fabric f, String name, Counting[] sinks, int i, int lid) {
        FabricPort p = f.attach(name).port(1);
        sinks[i] = new Counting();
        p.setSink(sinks[i]);
        if (lid != 0) {
            p.setLid(lid, 0);
        }
        return p;
    }

    /** Reads one packet record into {@code p}; returns the offset after it. */
    private static int fill(Packet p, byte[] in, int at) {
        int segments = in[at + 1] & 0xFF;
        int flags = in[at + 2] & 0xFF;
        int hdrLen = Math.min(in[at + 3] & 0xFF, Packet.HEADER_CAPACITY);
        int len = Math.min((in[at + 4] & 0xFF) << 8 | in[at + 5] & 0xFF, Packet.MAX_PAYLOAD);
        at += 6;
        int n = Math.min(hdrLen, in.length - at);
        System.arraycopy(in, at, p.header, 0, n);
        at += n;
        p.headerLength = hdrLen;
        p.padCount = flags & 3;
        int total = len * Math.max(1, Math.min(segments, Packet.MAX_SEGMENTS));
        byte[] payload = new byte[total];
        n = Math.min(total, in.length - at);
        System.arraycopy(in, at, payload, 0, n);
        at += n;
        p.payload = len > 0 ? ByteBuffer.wrap(payload) : null;
        p.payloadOffset = 0;
        p.payloadLength = len;
        if (segments > 1) {
            try {
                p.setSegments(segments, (flags & 4) != 0, (flags & 8) != 0);
            } catch (IllegalArgumentException e) {
                // the sender's contract: not a train the fabric carries; it goes as one packet
            }
        }
        return at;
    }

    /**
     * An SMP TrapRepress, the SM's acknowledgement of a switch's trap: the switch's SMA takes it
     * without an answer, and it is no error.
     */
    private static boolean isTrapRepress(Packet p) {
        int method = 28 + 3;
        return p.linkLayer() == org.rdma.verbs.LinkLayer.INFINIBAND && p.headerLength >= 8 && p.vl() == Packet.VL15
                && p.headerLength + p.payloadLength + p.padCount > method && p.byteAt(method) == MadHdr.IB_MGMT_METHOD_TRAP_REPRESS;
    }

    /** A bit error on the way: the receiving port must catch it with the CRCs. */
    private static void corrupt(Packet p, byte which) {
        try {
            int bits = p.corruptibleBits();
            p.flipBit(Math.floorMod(which * 7919, bits));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            // documented: a packet too malformed to lay out (the link drops it in the same way)
        }
    }

    private static long delivered(Counting[] sinks) {
        long n = 0;
        for (Counting s : sinks) {
            n += s.packets;
        }
        return n;
    }

    /** Every drop counter of every port of the fabric. */
    private static long drops(Fabric f) {
        long n = 0;
        for (FabricNode node : f.nodes()) {
            for (FabricPort port : node.ports()) {
                PortCounterSnapshot c = port.counters();
                n += c.portRcvErrors() + c.portRcvRemotePhysicalErrors() + c.portRcvSwitchRelayErrors()
                        + c.portXmitDiscards() + c.portXmitConstraintErrors() + c.portRcvConstraintErrors()
                        + c.vl15Dropped() + c.portRcvStateDiscards();
            }
        }
        return n;
    }

    private static void assertGoodPacketCrosses(FabricPort h1, Counting atH2) {
        assertEquals(PortState.ACTIVE, h1.portState());
        long before = atH2.packets;
        h1.transmit(Pkts.ud(h1, 0, 0, LID_H2, LID_H1, 0x11, 1, ByteBuffer.allocate(64), 0, 64));
        assertEquals(before + 1, atH2.packets, "a good packet crosses the fabric after the fuzzed ones");
    }

    // ---------------------------------------------------------------- the corpus

    /** Packets the drivers' encoders would send: UD and RC data, a train, an SMP to the switch. */
    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        Fabric f = Fabrics.create("seed", TOPOLOGY, new VirtualClock(), 1);
        try {
            FabricPort h1 = f.attach("h1").port(1);
            ByteBuffer mem = Pkts.trainMemory(ByteBuffer.allocate(8192), 0, 4, 256);
            s.put("ud-send", record(0, Pkts.ud(h1, 0, 0, LID_H2, LID_H1, 0x11, 1, mem, 0, 37)));
            s.put("rc-write-middle", record(0, Pkts.rcWriteMiddle(h1.allocPacket(), LID_H2, LID_H1, 0x12, 5, true,
                    mem, 0, 256)));
            s.put("rc-write-train", record(0, Pkts.rcTrain(h1, LID_H2, LID_H1, 0x12, 6, true, mem, 0, 256, 4)));
            Packet first = Pkts.rcWriteFirst(h1.allocPacket(), true, LID_H2, LID_H1, 0x12, 7, mem, 0, 256, 3);
            first.setSegments(3, true, true);
            s.put("rc-write-first-grh-train", record(0, first));
            s.put("smp-get-nodeinfo", record(0, smp(h1)));
            s.put("ud-send-captured-corrupted", record(2 | 8, Pkts.ud(h1, 0, 0, LID_H2, LID_H1, 0x11, 1, mem, 0, 64)));
        } finally {
            f.close();
        }
        return s;
    }

    /** A LID-routed SubnGet(NodeInfo) to the switch, on VL15 to QP0. */
    private static Packet smp(FabricPort h1) {
        Smp smp = new Smp();
        smp.baseVersion = 1;
        smp.mgmtClass = MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED;
        smp.classVersion = Smp.IB_SMP_CLASS_VERSION;
        smp.method = MadHdr.IB_MGMT_METHOD_GET;
        smp.tid = 0x1234;
        smp.attrId = Smp.IB_SMP_ATTR_NODE_INFO;
        byte[] mad = new byte[256];
        smp.pack(mad, 0);
        Packet p = h1.allocPacket();
        Lrh lrh = new Lrh();
        lrh.vl = Packet.VL15;
        lrh.lnh = Lrh.LNH_IBA_LOCAL;
        lrh.dlid = LID_SW;
        lrh.slid = LID_H1;
        lrh.packetLength = (8 + 12 + 8 + 256 + 4) / 4;
        lrh.pack(p.header, 0);
        Bth bth = new Bth();
        bth.opcode = Bth.OPCODE_UD_SEND_ONLY;
        bth.pkey = 0xFFFF;
        bth.destQpn = 0;
        bth.pack(p.header, 8);
        p.headerLength = 28;
        p.payload = ByteBuffer.wrap(mad);
        p.payloadLength = 256;
        return p;
    }

    private static byte[] record(int ctl, Packet p) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(ctl);
        out.write(p.segments());
        out.write(p.padCount | (p.startsMessage() ? 4 : 0) | (p.endsMessage() ? 8 : 0));
        out.write(p.headerLength);
        out.write(p.payloadLength >>> 8);
        out.write(p.payloadLength);
        out.write(p.header, 0, p.headerLength);
        for (int i = 0; i < p.payloadLength * p.segments(); i++) {
            out.write(p.payload.get(p.payloadOffset + i));
        }
        p.release();
        return out.toByteArray();
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(PacketFuzzTest.class, "transmit", seeds());
    }

    /** The good seeds cross the fabric (the SMP as the switch's answer), so fuzzing starts from there. */
    @Test
    void seedsArrive() throws IOException {
        for (Map.Entry<String, byte[]> e : seeds().entrySet()) {
            long arrivals = run(e.getValue());
            if (e.getKey().contains("corrupted")) {
                assertEquals(0, arrivals, e.getKey());
            } else {
                assertTrue(arrivals >= 1, e.getKey());
            }
        }
    }
}
