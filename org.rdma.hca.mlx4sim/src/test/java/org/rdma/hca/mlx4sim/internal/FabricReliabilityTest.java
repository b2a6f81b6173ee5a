package org.rdma.hca.mlx4sim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.FaultCounters;
import org.rdma.fabric.FaultProfile;
import org.rdma.fabric.Topology;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import org.rdma.rvt.testkit.Scale;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortState;
import org.rdma.verbs.QpState;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * Exactly-once delivery over a faulty fabric link, in virtual time (issue 3, acceptance test 1;
 * issue 26, section 6).
 *
 * <p>Two mlx4sim HCAs on InfiniBand ports behind a switch (LIDs, LFT and port states set by a
 * test SM with directed-route SMPs, as {@link IbSubnetTest} does); the cable between HCA A and the
 * switch drops, duplicates and reorders {@value #FAULT_PERCENT}% of the packets in each direction
 * (fixed fabric seed), and every packet between the HCAs crosses it once. Four RC connections, two
 * each way, carry a {@link MixedRcLoad} of every RC operation, checked as it completes and against
 * a model of memory at the end, while the transport counters show that go-back-N did the recovery.
 * The same over RoCEv2, the faults on the cable between HCA A and the Ethernet bridge.
 *
 * <p>The operation counts follow {@link Scale}: CI runs {@value #IB_OPS_CI} over InfiniBand and
 * {@value #ROCE_OPS_CI} over RoCE; {@code -Drdma.scale=full} ({@code .ci/exactly-once}) runs the
 * documented {@value #IB_OPS_FULL} and {@value #ROCE_OPS_FULL}.
 */
class FabricReliabilityTest {
    static final int IB_OPS_CI = 100_000;
    static final int IB_OPS_FULL = 1_000_000;
    static final int ROCE_OPS_CI = 20_000;
    static final int ROCE_OPS_FULL = 100_000;
    static final long SEED = 42;
    static final int FAULT_PERCENT = 10;
    static final FaultProfile FAULTS = FaultProfile.NONE.withDropRate(FAULT_PERCENT / 100.0)
            .withDuplicateRate(FAULT_PERCENT / 100.0).withReorderRate(FAULT_PERCENT / 100.0);

    static final long SW_GUID = 0x0002c90300f0e0d0L;
    static final long A_GUID = 0x0002c90300a1b2c0L;
    static final long B_GUID = 0x0002c90300a1b4c0L;
    static final int LID_SW = 1;
    static final int LID_A = 10;
    static final int LID_B = 11;

    final VirtualClock clock = new VirtualClock();
    Fabric fabric;
    Mlx4Device da;
    Mlx4Device db;
    Host ha;
    Host hb;
    /** Address vectors to each HCA, set by the subnet. */
    Supplier<AhAttr> toA;
    Supplier<AhAttr> toB;
    /** Connections made so far: each gets buffers of its own pattern. */
    int conns;

    @AfterEach
    void tearDown() {
        if (fabric != null) {
            da.close();
            db.close();
            fabric.close();
        }
    }

    // ================================================================== the two subnets

    /** The IB subnet of {@link IbSubnetTest}: HA - S - HB, brought up by a test SM on A's QP0. */
    void ibSubnet() {
        Topology t = Topology.builder().addSwitch("S", 8, SW_GUID).addCa("HA", 1, A_GUID).addCa("HB", 1, B_GUID)
                .link("HA", 1, "S", 1).link("HB", 1, "S", 2).build();
        fabric = Fabrics.create("ib", t, clock, SEED);
        da = IbSubnetTest.hca(fabric, clock, "HA", "hosta");
        db = IbSubnetTest.hca(fabric, clock, "HB", "hostb");
        ha = new Host(da.provider());
        hb = new Host(db.provider());
        Sm sm = new Sm(ha);
        set(sm, 0, LID_A, PortInfo.PORT_STATE_NOP);
        set(sm, 0, LID_SW, PortInfo.PORT_STATE_NOP, 1);
        set(sm, 0, LID_B, PortInfo.PORT_STATE_NOP, 1, 2);
        LinearForwardingTable lft = new LinearForwardingTable();
        Arrays.fill(lft.ports, LinearForwardingTable.IB_LFT_NO_PATH);
        lft.ports[LID_SW] = 0;
        lft.ports[LID_A] = 1;
        lft.ports[LID_B] = 2;
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, LinearForwardingTable.ATTR_ID, 0, sm.nextTid(), 1);
        req.setData(lft);
        assertEquals(0, sm.smp(req).statusCode(), "SubnSet(LinearForwardingTable)");
        Smp si = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, SwitchInfo.ATTR_ID, 0, sm.nextTid(), 1));
        SwitchInfo info = new SwitchInfo().unpack(si.data, 0);
        info.linearFdbTop = LID_B;
        req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, SwitchInfo.ATTR_ID, 0, sm.nextTid(), 1);
        req.setData(info);
        assertEquals(0, sm.smp(req).statusCode(), "SubnSet(SwitchInfo)");
        for (int state : new int[] {PortInfo.PORT_STATE_ARMED, PortInfo.PORT_STATE_ACTIVE}) {
            set(sm, 0, -1, state);
            set(sm, 1, -1, state, 1);
            set(sm, 2, -1, state, 1);
            set(sm, 0, -1, state, 1, 2);
        }
        assertEquals(PortState.ACTIVE, da.provider().queryPort(1).state);
        assertEquals(PortState.ACTIVE, db.provider().queryPort(1).state);
        assertEquals(LID_B, db.provider().queryPort(1).lid);
        toA = () -> ib(LID_A);
        toB = () -> ib(LID_B);
    }

    private static void set(Sm sm, int attrMod, int lid, int state, int... path) {
        Smp r = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, attrMod, sm.nextTid(), path));
        assertNotNull(r, "PortInfo response from " + Arrays.toString(path));
        PortInfo pi = new PortInfo().unpack(r.data, 0);
        if (lid >= 0) {
            pi.lid = lid;
        }
        pi.masterSmLid = LID_A;
        pi.portState = state;
        pi.portPhysState = 0;
        pi.linkSpeedEnabled = 0;
        pi.linkWidthEnabled = 0;
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, attrMod, sm.nextTid(), path);
        req.setData(pi);
        Smp s = sm.smp(req);
        assertNotNull(s, "SubnSet(PortInfo) response from " + Arrays.toString(path));
        assertEquals(0, s.statusCode(), "SubnSet(PortInfo) status on " + Arrays.toString(path));
    }

    static AhAttr ib(int dlid) {
        AhAttr a = new AhAttr();
        a.portNum = 1;
        a.dlid = dlid;
        return a;
    }

    /** Two RoCEv2 HCAs on the Ethernet segment br0 (as {@link RoceTest}). */
    void roceSegment() {
        fabric = Fabrics.create("roce", Topology.builder().build(), clock, SEED);
        da = roce("hosta", 0x0002c90300c0ffe0L, "192.168.7.1");
        db = roce("hostb", 0x0002c90300c0ffd0L, "192.168.7.2");
        ha = new Host(da.provider());
        hb = new Host(db.provider());
        toA = () -> RoceTest.roceAv(hb, "192.168.7.1");
        toB = () -> RoceTest.roceAv(ha, "192.168.7.2");
    }

    Mlx4Device roce(String name, long guid, String ip) {
        Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.ETHERNET);
        p.caName = name;
        p.nodeGuid = guid;
        p.ethernetSegment = "br0";
        p.hostname = name;
        p.ports.get(0).netdev = "eth" + name.charAt(name.length() - 1);
        p.ports.get(0).ipAddresses.add(ip);
        return new Mlx4Device(p);
    }

    /** Lets 100 ms of virtual time pass: late retransmissions, ACKs and held packets. */
    void settle() {
        for (int i = 0; i < 100; i++) {
            clock.advance(1, TimeUnit.MILLISECONDS);
        }
    }

    // ================================================================== tests

    @Test
    void mixedRcOperationsOverALossyInfiniBandLinkThroughASwitch() {
        ibSubnet();
        mixed("ib", Scale.of(IB_OPS_CI, IB_OPS_FULL));
    }

    @Test
    void mixedRcOperationsOverALossyRoceLink() {
        roceSegment();
        mixed("roce", Scale.of(ROCE_OPS_CI, ROCE_OPS_FULL));
    }

    /** Four connections, two each way, through the faulty cable: {@code total} operations, checked. */
    private void mixed(String what, int total) {
        List<RcConn> conns = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            conns.add(conn("A->B #" + i, true, 8, 7, 7, 1));
            conns.add(conn("B->A #" + i, false, 8, 7, 7, 1));
        }
        FabricPort pa = da.fabricPort(1);
        FabricLink link = pa.link();
        assertNotNull(link, "HCA A is cabled to the fabric");
        link.setFaults(FAULTS);
        MixedRcLoad.Stats s = new MixedRcLoad(clock, conns, 7).run(total);
        assertEquals(total, s.completed());
        for (RcConn c : conns) {
            assertEquals(QpState.RTS, c.req.p().state(), c.name);
            assertEquals(QpState.RTS, c.resp.p().state(), c.name);
        }
        report(what, s, link, pa);
    }

    /** A connection from HCA A to B ({@code fromA}) or back. */
    private RcConn conn(String name, boolean fromA, int timeout, int retryCnt, int rnrRetry, int minRnr) {
        int seed = 3 + 2 * conns++;
        return fromA ? new RcConn(name, ha, hb, toB.get(), toA.get(), seed, timeout, retryCnt, rnrRetry, minRnr)
                : new RcConn(name, hb, ha, toA.get(), toB.get(), seed, timeout, retryCnt, rnrRetry, minRnr);
    }

    /**
     * Asserts that the cable applied its faults at their rates in both directions and that
     * go-back-N recovered them; prints the figures.
     */
    private void report(String what, MixedRcLoad.Stats s, FabricLink link, FabricPort pa) {
        FaultCounters out = link.faultCounters(pa);
        FaultCounters in = link.faultCounters(link.other(pa));
        for (FaultCounters f : new FaultCounters[] {out, in}) {
            // each fault is drawn for the packets the ones before it left: the drop for every
            // packet, duplication for the survivors, the hold for survivors while none is held
            long survived = f.packets() - f.dropped();
            assertRate(f.dropped(), f.packets(), "dropped", f);
            assertRate(f.duplicated(), survived, "duplicated", f);
            assertRate(f.reordered(), survived - f.reordered(), "reordered", f);
        }
        long retx = sum(RvtCounter.RETRANSMITTED_PKTS);
        long retries = sum(RvtCounter.COMP_RETRY);
        long dupReq = sum(RvtCounter.DUPLICATE_REQUEST);
        assertTrue(retx > 0, "the requesters retransmitted");
        assertTrue(retries > 0, "the completers started retries");
        assertTrue(dupReq > 0, "the responders saw duplicate requests");
        assertEquals(0, sum(RvtCounter.RETRY_EXCEEDED), "no QP ran out of retries");
        System.out.printf("fabric exactly-once (%s): %d ops %s, %d receives; A->fabric %s; fabric->A %s; "
                + "retransmitted=%d retries=%d timeouts=%d seqNaks=%d dupReq=%d outOfSeq=%d; virtual %.3f s, wall %d ms%n",
                what, s.completed(), s.posted(), s.received(), out, in, retx, retries, sum(RvtCounter.ACK_TIMEOUT),
                sum(RvtCounter.RCV_SEQ_ERR), dupReq, sum(RvtCounter.OUT_OF_SEQUENCE), s.virtualNanos() / 1e9,
                s.wallMillis());
    }

    private static void assertRate(long n, long of, String what, FaultCounters f) {
        double want = FAULT_PERCENT / 100.0;
        assertTrue(n > 0.9 * want * of && n < 1.1 * want * of, what + " " + n + " of " + of + ", not about "
                + FAULT_PERCENT + "%: " + f);
    }

    private long sum(RvtCounter c) {
        return da.provider().counter(c) + db.provider().counter(c);
    }

    @Test
    void cablePullExhaustsRetryCountWithRetryExcErr() {
        ibSubnet();
        // retry_cnt 3, local ACK timeout 4.096 us * 2^10 = 4.2 ms
        RcConn c = conn("A->B", true, 10, 3, 7, 1);
        FabricLink link = da.fabricPort(1).link();
        link.cablePull();
        assertEquals(PortState.DOWN, da.provider().queryPort(1).state, "the cable is out");
        SendWr w = Ops.wr(WrOpcode.RDMA_WRITE, 1, new Sge(RcConn.IOVA_REQ, 100, c.reqMr.lkey()));
        w.remoteAddr = RcConn.IOVA_RESP + RcConn.WRITE_DST;
        w.rkey = c.respMr.rkey();
        assertEquals(0, c.req.p().postSend(w, null));
        assertEquals(0, c.req.p().postSend(Ops.wr(WrOpcode.SEND, 2, new Sge(RcConn.IOVA_REQ, 10, c.reqMr.lkey())), null));
        long sentBefore = link.faultCounters(da.fabricPort(1)).packets();
        long t0 = clock.nanoTime();
        List<Wc> l = new ArrayList<>();
        while (l.size() < 2 && clock.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10)) {
            clock.advance(1, TimeUnit.MILLISECONDS);
            l.addAll(c.req.scq().drain());
        }
        long spent = clock.nanoTime() - t0;
        assertEquals(2, l.size(), "both requests completed: " + l);
        assertEquals(WcStatus.RETRY_EXC_ERR, l.get(0).status, l.get(0).toString());
        assertEquals(1, l.get(0).wrId);
        assertEquals(WcStatus.WR_FLUSH_ERR, l.get(1).status, l.get(1).toString());
        assertEquals(2, l.get(1).wrId);
        assertEquals(QpState.ERR, c.req.p().state());
        assertEquals(1, da.provider().counter(RvtCounter.RETRY_EXCEEDED));
        assertEquals(4, da.provider().counter(RvtCounter.ACK_TIMEOUT), "the first transmission and 3 retries timed out");
        assertEquals(3, da.provider().counter(RvtCounter.COMP_RETRY), "retry_cnt 3: three retries");
        assertTrue(da.provider().counter(RvtCounter.RETRANSMITTED_PKTS) >= 3, "each retry retransmitted");
        // 1 + retry_cnt transmissions into a dead cable, each followed by the local ACK timeout
        assertTrue(spent >= 4 * (4096L << 10), "virtual time " + spent);
        assertTrue(spent < TimeUnit.MILLISECONDS.toNanos(100), "gave up after the retries, virtual time " + spent);
        assertEquals(0, c.resp.rcq().drain().size(), "nothing reached B");
        assertEquals(sentBefore, link.faultCounters(da.fabricPort(1)).packets(), "nothing entered the pulled cable");
    }

    @Test
    void infiniteRnrRetryRecoversOnceReceivesArePosted() {
        ibSubnet();
        // rnr_retry 7 (infinite), min_rnr_timer 14 = 1.28 ms
        RcConn c = conn("A->B", true, 14, 7, 7, 14);
        assertEquals(0, c.req.p().postSend(Ops.wr(WrOpcode.SEND, 1, new Sge(RcConn.IOVA_REQ + 100, 300, c.reqMr.lkey())), null));
        for (int i = 0; i < 50; i++) {
            clock.advance(2, TimeUnit.MILLISECONDS);
        }
        assertEquals(List.of(), c.req.scq().drain(), "no completion while B has no receive");
        long rnrs = da.provider().counter(RvtCounter.RCV_RNR_ERR);
        assertTrue(rnrs >= 40, "RNR NAKs received by A: " + rnrs);
        assertTrue(db.provider().counter(RvtCounter.SND_RNR) >= rnrs, "RNR NAKs sent by B");
        assertEquals(0, da.provider().counter(RvtCounter.RNR_RETRY_EXCEEDED));
        assertEquals(QpState.RTS, c.req.p().state());
        c.postRecv();
        settle();
        List<Wc> l = c.req.scq().drain();
        assertEquals(1, l.size(), "the send completed: " + l);
        assertEquals(WcStatus.SUCCESS, l.get(0).status);
        List<Wc> r = c.resp.rcq().drain();
        assertEquals(1, r.size(), "received once: " + r);
        assertEquals(300, r.get(0).byteLen);
        assertEquals(-1, c.reqBuf.slice(100, 300).mismatch(c.respBuf.slice(RcConn.recvSlot(0), 300)), "SEND after RNR");
    }
}
