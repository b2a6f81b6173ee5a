package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** LID-routed unicast through LFTs, multicast through MFTs, the port-state rules and SLtoVL. */
class ForwardingTest {
    private final VirtualClock clock = new VirtualClock();
    private Fabric f;
    private FabricPort h1;
    private FabricPort h2;
    private FabricPort h3;
    private FabricPort h4;
    private final Pkts.Collector at1 = new Pkts.Collector();
    private final Pkts.Collector at2 = new Pkts.Collector();
    private final Pkts.Collector at3 = new Pkts.Collector();
    private final Pkts.Collector at4 = new Pkts.Collector();

    @BeforeEach
    void setUp() {
        f = Nets.threeSwitches(clock, 7);
        h1 = Nets.port(f, Nets.H1, 1);
        h2 = Nets.port(f, Nets.H2, 1);
        h3 = Nets.port(f, Nets.H3, 1);
        h4 = Nets.port(f, Nets.H4, 1);
        h1.setSink(at1);
        h2.setSink(at2);
        h3.setSink(at3);
        h4.setSink(at4);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    @Test
    void unicastCrossesThreeSwitchesByLft() {
        ByteBuffer mr = ByteBuffer.allocateDirect(300);
        for (int i = 0; i < 300; i++) {
            mr.put(i, (byte) (i * 7));
        }
        h1.transmit(Pkts.ud(h1, 0, 0, 11, 10, 0x77, 5, mr, 100, 37));
        assertEquals(1, at2.size());
        Packet got = at2.get(0);
        assertEquals(11, got.dlid());
        assertEquals(10, got.slid());
        int bth = got.bthOffset();
        assertEquals(0x77, got.destQpn(bth));
        assertEquals(5, got.psn(bth));
        assertEquals(3, got.padCount);
        byte[] data = new byte[37];
        got.payload.get(got.payloadOffset, data, 0, 37);
        for (int i = 0; i < 37; i++) {
            assertEquals((byte) ((100 + i) * 7), data[i]);
        }
        assertEquals(0, at1.size() + at3.size() + at4.size());
        // Every hop counted the packet: S1 in on 1 / out on 2, S2 1 -> 2, S3 1 -> 2.
        assertEquals(1, Nets.port(f, Nets.S1, 1).counters().portRcvPkts());
        assertEquals(1, Nets.port(f, Nets.S1, 2).counters().portXmitPkts());
        assertEquals(1, Nets.port(f, Nets.S2, 2).counters().portXmitPkts());
        assertEquals(1, Nets.port(f, Nets.S3, 2).counters().portXmitPkts());
        PortCounterSnapshot c = h1.counters();
        assertEquals(1, c.portXmitPkts());
        assertEquals((28 + 37 + 3 + 4) / 4, c.portXmitData());
        assertEquals(c.portXmitData(), h2.counters().portRcvData());
        assertEquals(1, h2.counters().portUnicastRcvPkts());
    }

    @Test
    void routesFollowTheLftWhenItChanges() {
        FabricSwitch s3 = Nets.sw(f, Nets.S3);
        // LID 11 now goes to H4's port instead of H2's.
        s3.setLft(11, 3);
        h1.transmit(Pkts.ud(h1, 11, 10, 1, 8));
        assertEquals(0, at2.size());
        assertEquals(1, at4.size());
        assertEquals(11, at4.get(0).dlid());
    }

    @Test
    void unroutableDlidsAreRelayErrorsOfTheInputPort() {
        FabricSwitch s1 = Nets.sw(f, Nets.S1);
        h1.transmit(Pkts.ud(h1, 99, 10, 1, 8));          // no LFT entry (0xFF)
        h1.transmit(Pkts.ud(h1, 0x4000, 10, 2, 8));      // above LinearFDBTop
        s1.setLft(12, 1);                                 // back out of the input port
        h1.transmit(Pkts.ud(h1, 12, 10, 3, 8));
        assertEquals(3, Nets.port(f, Nets.S1, 1).counters().portRcvSwitchRelayErrors());
        assertEquals(0, at1.size() + at2.size() + at3.size() + at4.size());
        assertEquals(FabricSwitch.LFT_DROP, s1.lft(99));
        assertEquals(13, s1.linearFdbTop());
    }

    @Test
    void dataLeavesOnlyThroughActivePortsAndCountsXmitDiscards() {
        FabricPort s3toH2 = Nets.port(f, Nets.S3, 2);
        s3toH2.setPortState(PortState.DOWN);           // link bounces: back to Init
        assertEquals(PortState.INIT, s3toH2.portState());
        h1.transmit(Pkts.ud(h1, 11, 10, 1, 8));
        assertEquals(0, at2.size());
        assertEquals(1, s3toH2.counters().portXmitDiscards());
        // A CA port that is not Active may not send data either.
        assertEquals(PortState.INIT, h2.portState());
        h2.transmit(Pkts.ud(h2, 10, 11, 1, 8));
        assertEquals(1, h2.counters().portXmitDiscards());
        assertEquals(0, at1.size());
        // ... but SMPs (VL15) pass in Init: a LID-routed SMP from H1 to H2 arrives.
        org.rdma.verbs.wire.Smp smp = org.rdma.verbs.wire.Smp.lidRouted(1, 0x11, 0, 77);
        h1.transmit(Pkts.smp(h1, smp, 11, 10));
        assertEquals(1, at2.size());
        assertEquals(15, at2.get(0).vl());
    }

    @Test
    void armedPortsReceiveButDoNotTransmitData() {
        FabricPort s1p1 = Nets.port(f, Nets.S1, 1);
        // Knock H1's link back to Init, then arm both ends.
        s1p1.setPortState(PortState.DOWN);
        h1.setPortState(PortState.ARMED);
        s1p1.setPortState(PortState.ARMED);
        h3.transmit(Pkts.ud(h3, 10, 12, 1, 8));
        assertEquals(0, at1.size(), "an Armed switch port does not transmit data");
        assertEquals(1, s1p1.counters().portXmitDiscards());
        s1p1.setPortState(PortState.ACTIVE);
        h3.transmit(Pkts.ud(h3, 10, 12, 2, 8));
        assertEquals(1, at1.size(), "an Armed CA port receives data");
        assertEquals(List.of(2), at1.psns());
        assertThrows(RdmaException.class, () -> h1.setPortState(PortState.INIT));
    }

    @Test
    void multicastReplicatesThroughMfts() {
        int mlid = 0xC001;
        BitSet s1 = new BitSet();
        s1.set(1);
        s1.set(2);
        s1.set(3);
        Nets.sw(f, Nets.S1).setMft(mlid, s1);
        BitSet s2 = new BitSet();
        s2.set(1);
        s2.set(2);
        Nets.sw(f, Nets.S2).setMft(mlid, s2);
        BitSet s3 = new BitSet();
        s3.set(1);
        s3.set(2);
        s3.set(3);
        Nets.sw(f, Nets.S3).setMft(mlid, s3);
        ByteBuffer mr = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        h1.transmit(Pkts.ud(h1, 0, 0, mlid, 10, 0xFFFFFF, 9, mr, 0, 8));
        assertEquals(0, at1.size(), "never back out of the input port");
        assertEquals(1, at2.size());
        assertEquals(1, at3.size());
        assertEquals(1, at4.size());
        for (Pkts.Collector c : List.of(at2, at3, at4)) {
            Packet p = c.get(0);
            assertEquals(mlid, p.dlid());
            byte[] data = new byte[8];
            p.payload.get(p.payloadOffset, data, 0, 8);
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, data);
        }
        assertEquals(1, h4.counters().portMulticastRcvPkts());
        assertEquals(s3, Nets.sw(f, Nets.S3).mft(mlid));
        // No MFT entry: a relay error on the input port.
        h1.transmit(Pkts.ud(h1, 0, 0, 0xC002, 10, 0xFFFFFF, 10, mr, 0, 8));
        assertEquals(1, Nets.port(f, Nets.S1, 1).counters().portRcvSwitchRelayErrors());
    }

    @Test
    void slToVlMappingRewritesTheVl() {
        FabricSwitch s3 = Nets.sw(f, Nets.S3);
        s3.setSlToVl(1, 2, 3, 5);
        h1.transmit(Pkts.ud(h1, 0, 3, 11, 10, 0x10, 1, ByteBuffer.allocate(4), 0, 4));
        assertEquals(1, at2.size());
        assertEquals(5, at2.get(0).vl());
        assertEquals(3, at2.get(0).sl());
        // SL mapped to VL15 cannot be relayed: PortRcvSwitchRelayErrors of the input port ("VL mapping").
        s3.setSlToVl(1, 2, 4, 15);
        h1.transmit(Pkts.ud(h1, 0, 4, 11, 10, 0x10, 2, ByteBuffer.allocate(4), 0, 4));
        assertEquals(1, at2.size());
        assertEquals(1, Nets.port(f, Nets.S3, 1).counters().portRcvSwitchRelayErrors());
        assertEquals(0, Nets.port(f, Nets.S3, 2).counters().portXmitDiscards());
    }

    @Test
    void aRoutingLoopEndsAtTheLifetimeLimit() {
        // Close the line into a ring (S3 port 4 to S1 port 4) and route LID 0x50 around it forever.
        f.connect(Nets.port(f, Nets.S3, 4), Nets.port(f, Nets.S1, 4), null, null);
        Nets.activateAll(f);
        Nets.sw(f, Nets.S1).setLft(0x50, 2);
        Nets.sw(f, Nets.S2).setLft(0x50, 2);
        Nets.sw(f, Nets.S3).setLft(0x50, 4);
        h1.transmit(Pkts.ud(h1, 0x50, 10, 1, 8));
        // 64 switch crossings, then the 65th switch drops it (its lifetime limit): S1 was crossed 22 times.
        long discards = Nets.port(f, Nets.S1, 2).counters().portXmitDiscards()
                + Nets.port(f, Nets.S2, 2).counters().portXmitDiscards()
                + Nets.port(f, Nets.S3, 4).counters().portXmitDiscards();
        assertEquals(1, discards);
        assertEquals(22, Nets.port(f, Nets.S1, 2).counters().portXmitPkts());
        assertEquals(0, at1.size() + at2.size() + at3.size() + at4.size());
    }

    @Test
    void malformedPacketsAreReceiveErrors() {
        Packet p = Pkts.ud(h1, 11, 10, 1, 8);
        p.header[5] = (byte) (p.header[5] + 1);              // LRH:PktLen off by one word
        h1.transmit(p);
        Packet q = Pkts.ud(h1, 11, 10, 2, 8);
        q.header[0] = (byte) (q.header[0] | 0x01);            // LVer 1
        h1.transmit(q);
        assertEquals(2, Nets.port(f, Nets.S1, 1).counters().portRcvErrors());
        assertEquals(0, at2.size());
    }

    @Test
    void packetsWithoutASinkAreDroppedAndRecycled() {
        h2.setSink(null);
        h1.transmit(Pkts.ud(h1, 11, 10, 1, 8));
        assertEquals(1, h2.counters().portRcvStateDiscards());
        assertTrue(h2.counters().portRcvPkts() > 0);
        assertFalse(h1.peer() == null);
    }
}
