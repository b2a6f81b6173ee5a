package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SrqAttr;
import org.rdma.verbs.SrqAttrMask;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** SRQ and its limit, flush on ERR, LAST_WQE_REACHED, COMM_EST, CQ arming, the QP iterator. */
class QueueStateTest {
    static final int ACC = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    Rig rig = new Rig();
    Node na = rig.node(1);
    Node nb = rig.node(2);
    Node.Pd pa = na.allocPd();
    Node.Pd pb = nb.allocPd();
    ByteBuffer a = Rig.pattern(ByteBuffer.allocate(1 << 16), 9);
    ByteBuffer b = ByteBuffer.allocate(1 << 16);
    FakeMr mrA = na.regMr(pa, a, 0x1000, ACC);
    FakeMr mrB = nb.regMr(pb, b, 0x1000, ACC);

    Rig.Pair pair(Node.Srq srq, boolean sigAll) {
        Rig.Opts o = new Rig.Opts();
        o.pdA = pa;
        o.pdB = pb;
        o.srqB = srq;
        o.sigAll = sigAll;
        return rig.connect(na, nb, o);
    }

    List<IbEvent> events(Node n, IbEventType t) {
        return n.ctx.events.stream().filter(e -> e.type() == t).toList();
    }

    @Test
    void srqFeedsTwoQpsAndRaisesTheLimitEventOnce() {
        Node.Srq srq = nb.createSrq(pb, 16, 2, 0);
        Rig.Pair p1 = pair(srq, true);
        Rig.Pair p2 = pair(srq, true);
        for (int i = 0; i < 8; i++) {
            assertEquals(0, srq.p.postSrqRecv(Rig.recv(i, new Sge(0x1000 + i * 1024L, 1024, mrB.lkey())), null));
        }
        SrqAttr at = new SrqAttr();
        at.srqLimit = 4;
        srq.p.modify(at, SrqAttrMask.LIMIT);
        for (int i = 0; i < 5; i++) {
            Rig.Pair p = i % 2 == 0 ? p1 : p2;
            p.a.p.postSend(Rig.send(WrOpcode.SEND, i, new Sge(0x1000 + i * 100L, 100, mrA.lkey())), null);
            rig.settle();
        }
        assertEquals(3, Rig.drain(p1.b.rcq).size());
        assertEquals(2, Rig.drain(p2.b.rcq).size());
        assertEquals(1, events(nb, IbEventType.SRQ_LIMIT_REACHED).size());
        srq.p.query(at);
        assertEquals(0, at.srqLimit, "the limit disarms when it fires");
        for (int i = 0; i < 5; i++) {
            RcOpsTest.assertRange(a, i * 100, b, i * 1024, 100);
        }
    }

    @Test
    void errorFlushesEveryOutstandingRequestInOrder() {
        Rig.Pair p = pair(null, false);
        rig.wire.filter = pkt -> true;
        for (int i = 0; i < 6; i++) {
            SendWr w = Rig.send(i % 2 == 0 ? WrOpcode.SEND : WrOpcode.RDMA_WRITE, 10 + i,
                    new Sge(0x1000, 64, mrA.lkey()));
            w.sendFlags = i == 3 ? SendFlags.SIGNALED : 0;
            w.rkey = mrB.rkey();
            w.remoteAddr = 0x1000;
            assertEquals(0, p.a.p.postSend(w, null));
        }
        for (int i = 0; i < 3; i++) {
            p.a.p.postRecv(Rig.recv(100 + i, new Sge(0x1000, 64, mrA.lkey())), null);
        }
        Rig.state(p.a, QpState.ERR);
        rig.settle();
        List<Wc> s = Rig.drain(p.a.scq);
        assertEquals(6, s.size());
        for (int i = 0; i < 6; i++) {
            assertEquals(10 + i, s.get(i).wrId);
            assertEquals(WcStatus.WR_FLUSH_ERR, s.get(i).status);
        }
        List<Wc> r = Rig.drain(p.a.rcq);
        assertEquals(3, r.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(100 + i, r.get(i).wrId);
            assertEquals(WcStatus.WR_FLUSH_ERR, r.get(i).status);
        }
        // the core's drain markers: posted in ERR, unsignaled, no SGE: flushed at once
        SendWr marker = new SendWr();
        marker.opcode = WrOpcode.RDMA_WRITE;
        marker.wrId = 77;
        assertEquals(0, p.a.p.postSend(marker, null));
        RecvWr rmarker = new RecvWr();
        rmarker.wrId = 78;
        assertEquals(0, p.a.p.postRecv(rmarker, null));
        assertEquals(77, Rig.drain(p.a.scq).get(0).wrId);
        assertEquals(78, Rig.drain(p.a.rcq).get(0).wrId);
        assertEquals(0, b.get(0), "nothing reached the peer");
    }

    @Test
    void lastWqeReachedForSrqQps() {
        Node.Srq srq = nb.createSrq(pb, 16, 2, 0);
        Rig.Pair p = pair(srq, true);
        Rig.state(p.b, QpState.ERR);
        assertEquals(1, events(nb, IbEventType.QP_LAST_WQE_REACHED).size());
        assertEquals(p.b.core, events(nb, IbEventType.QP_LAST_WQE_REACHED).get(0).qp());
    }

    @Test
    void commEstOnTheFirstReceiveInRtr() {
        Rig.Opts o = new Rig.Opts();
        Node.Qp qa = na.createQp(pa, o.type, na.createCq(16), na.createCq(16), null, 16, 1, 0);
        Node.Qp qb = nb.createQp(pb, o.type, nb.createCq(16), nb.createCq(16), null, 16, 1, 0);
        Rig.toRts(qa, qb.qpn(), 2, o, 0);
        // qb only to RTR
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.portNum = 1;
        at.qpAccessFlags = ACC;
        qb.modify(at, QpAttrMask.STATE | QpAttrMask.PORT | QpAttrMask.PKEY_INDEX | QpAttrMask.ACCESS_FLAGS);
        at.qpState = QpState.RTR;
        at.ahAttr.dlid = 1;
        at.ahAttr.portNum = 1;
        at.pathMtu = o.mtu;
        at.destQpNum = qa.qpn();
        at.rqPsn = 0x123456 ^ qa.qpn();
        qb.modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN);
        qb.p.postRecv(Rig.recv(1, new Sge(0x1000, 100, mrB.lkey())), null);
        qb.p.postRecv(Rig.recv(2, new Sge(0x1000, 100, mrB.lkey())), null);
        qa.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(0x1000, 10, mrA.lkey())), null);
        qa.p.postSend(Rig.send(WrOpcode.SEND, 2, new Sge(0x1000, 10, mrA.lkey())), null);
        rig.settle();
        assertEquals(2, Rig.drain(qb.rcq).size(), "an RTR QP receives");
        assertEquals(1, events(nb, IbEventType.COMM_EST).size());
        assertEquals(2, Rig.drain(qa.scq).size());
    }

    @Test
    void cqArmingFiresOncePerArm() {
        Rig.Pair p = pair(null, true);
        Node.Cq cq = p.b.rcq;
        for (int i = 0; i < 4; i++) {
            p.b.p.postRecv(Rig.recv(i, new Sge(0x1000, 100, mrB.lkey())), null);
        }
        cq.p.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        send(p, false);
        send(p, false);
        assertEquals(1, nb.ctx.upcalls(cq.core));
        assertEquals(1, cq.p.reqNotifyCq(CqNotifyFlags.SOLICITED | CqNotifyFlags.REPORT_MISSED_EVENTS));
        send(p, false);
        assertEquals(1, nb.ctx.upcalls(cq.core), "an unsolicited completion does not fire a SOLICITED arm");
        send(p, true);
        assertEquals(2, nb.ctx.upcalls(cq.core));
        assertEquals(4, Rig.drain(cq).size());
        assertEquals(0, cq.p.reqNotifyCq(CqNotifyFlags.NEXT_COMP | CqNotifyFlags.REPORT_MISSED_EVENTS));
    }

    private void send(Rig.Pair p, boolean solicited) {
        SendWr w = Rig.send(WrOpcode.SEND, 1, new Sge(0x1000, 10, mrA.lkey()));
        if (solicited) {
            w.sendFlags |= SendFlags.SOLICITED;
        }
        p.a.p.postSend(w, null);
        rig.settle();
    }

    @Test
    void completionHandlersMayPostFromTheUpcall() {
        Rig.Pair p = pair(null, true);
        AtomicInteger echoes = new AtomicInteger();
        Wc[] wcs = Wc.array(4);
        nb.ctx.onCqComplete = cq -> {
            while (p.b.rcq.p.pollCq(4, wcs) > 0) {
                if (echoes.incrementAndGet() < 100) {
                    p.b.p.postRecv(Rig.recv(1, new Sge(0x1000, 100, mrB.lkey())), null);
                    p.b.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(0x1000, 10, mrB.lkey())), null);
                }
            }
            p.b.rcq.p.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        };
        na.ctx.onCqComplete = cq -> {
            while (p.a.rcq.p.pollCq(4, wcs) > 0) {
                p.a.p.postRecv(Rig.recv(1, new Sge(0x1000, 100, mrA.lkey())), null);
                p.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(0x1000, 10, mrA.lkey())), null);
            }
            p.a.rcq.p.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        };
        p.a.rcq.p.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        p.b.rcq.p.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        p.a.p.postRecv(Rig.recv(1, new Sge(0x1000, 100, mrA.lkey())), null);
        p.b.p.postRecv(Rig.recv(1, new Sge(0x1000, 100, mrB.lkey())), null);
        p.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(0x1000, 10, mrA.lkey())), null);
        rig.settle();
        assertEquals(100, echoes.get(), "ping-pong from completion handlers, synchronous delivery, no recursion");
    }

    @Test
    void qpIteratorSeesLiveQps() {
        pair(null, true);
        pair(null, true);
        int[] n = new int[1];
        na.dev.forEachQp(q -> n[0]++);
        assertEquals(2, n[0]);
        assertTrue(na.dev.counter(RvtCounter.SENT_PKTS) == 0);
    }
}
