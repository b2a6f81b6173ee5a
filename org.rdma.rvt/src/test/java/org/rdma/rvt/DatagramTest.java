package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.internal.wire.Hdr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** UD, GSI, SMI, multicast and UC. */
class DatagramTest {
    static final int QKEY = 0x11111111;
    Rig rig;
    Node na;
    Node nb;
    Node.Pd pa;
    Node.Pd pb;
    ByteBuffer a;
    ByteBuffer b;
    FakeMr mrA;
    FakeMr mrB;

    @BeforeEach
    void setUp() {
        rig = new Rig();
        na = rig.node(1);
        nb = rig.node(2);
        pa = na.allocPd();
        pb = nb.allocPd();
        a = Rig.pattern(ByteBuffer.allocate(1 << 16), 8);
        b = ByteBuffer.allocate(1 << 16);
        mrA = na.regMr(pa, a, 0x1000, AccessFlags.LOCAL_WRITE);
        mrB = nb.regMr(pb, b, 0x1000, AccessFlags.LOCAL_WRITE);
    }

    Node.Qp ud(Node n, Node.Pd pd, QpType type, int qkey) {
        Node.Qp q = n.createQp(pd, type, n.createCq(64), n.createCq(64), null, 32, 2, 0);
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = 0;
        at.portNum = 1;
        at.qkey = qkey;
        q.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
        at.qpState = QpState.RTR;
        q.modify(at, QpAttrMask.STATE);
        at.qpState = QpState.RTS;
        at.sqPsn = 1;
        q.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
        return q;
    }

    Node.Ah ah(int dlid, Gid dgid) {
        AhAttr at = new AhAttr();
        at.portNum = 1;
        at.dlid = dlid;
        at.sl = 3;
        if (dgid != null) {
            at.setGrh(dgid, 0x12345, 0, 64, 0x20, null);
        }
        return na.createAh(pa, at);
    }

    SendWr udSend(Node.Ah ah, int qpn, int qkey, int len) {
        SendWr w = Rig.send(WrOpcode.SEND, 1, new Sge(0x1000 + 7, len, mrA.lkey()));
        w.ah = ah.core;
        w.remoteQpn = qpn;
        w.remoteQkey = qkey;
        return w;
    }

    void recv(Node.Qp q, long id) {
        assertEquals(0, q.p.postRecv(Rig.recv(id, new Sge(0x1000, 4096 + 40, mrB.lkey())), null));
    }

    @Test
    void udSendWithQkeyMatchMismatchAndQpQkey() {
        Node.Qp qa = ud(na, pa, QpType.UD, QKEY);
        Node.Qp qb = ud(nb, pb, QpType.UD, QKEY);
        recv(qb, 1);
        Node.Ah ah = ah(2, null);
        assertEquals(0, qa.p.postSend(udSend(ah, qb.qpn(), QKEY, 1000), null));
        rig.settle();
        assertEquals(WcStatus.SUCCESS, Rig.drain(qa.scq).get(0).status);
        Wc r = Rig.drain(qb.rcq).get(0);
        assertEquals(WcStatus.SUCCESS, r.status);
        assertEquals(1040, r.byteLen);
        assertEquals(qa.qpn(), r.srcQp);
        assertEquals(1, r.slid);
        assertEquals(3, r.sl);
        assertEquals(0, r.wcFlags & WcFlags.GRH);
        RcOpsTest.assertRange(a, 7, b, 40, 1000);
        // mismatch: dropped, counted, nothing written
        b.put(0, new byte[2000]);
        recv(qb, 2);
        qa.p.postSend(udSend(ah, qb.qpn(), 0x222, 100), null);
        rig.settle();
        assertEquals(WcStatus.SUCCESS, Rig.drain(qa.scq).get(0).status);
        assertEquals(0, Rig.drain(qb.rcq).size());
        assertEquals(1, nb.dev.counter(RvtCounter.BAD_QKEY));
        for (int i = 0; i < 2000; i++) {
            assertEquals(0, b.get(i));
        }
        // high bit: the sender's own Q_Key
        qa.p.postSend(udSend(ah, qb.qpn(), 0x8000_0000, 100), null);
        rig.settle();
        assertEquals(140, Rig.drain(qb.rcq).get(0).byteLen);
        // larger than the MTU: refused at post
        assertEquals(-Errno.EINVAL.value, qa.p.postSend(udSend(ah, qb.qpn(), QKEY, 4097), null));
    }

    @Test
    void udWithGrhPlacesTheGrhFirst() {
        Node.Qp qa = ud(na, pa, QpType.UD, QKEY);
        Node.Qp qb = ud(nb, pb, QpType.UD, QKEY);
        recv(qb, 1);
        qa.p.postSend(udSend(ah(2, nb.gid), qb.qpn(), QKEY, 77), null);
        rig.settle();
        Wc r = Rig.drain(qb.rcq).get(0);
        assertTrue((r.wcFlags & WcFlags.GRH) != 0);
        assertEquals(117, r.byteLen);
        assertEquals(0x60, b.get(0) & 0xf0);
        assertEquals(na.gid, Gid.of(b.array(), 8));
        assertEquals(nb.gid, Gid.of(b.array(), 24));
        RcOpsTest.assertRange(a, 7, b, 40, 77);
    }

    @Test
    void gsiUsesTheWellKnownQkeyAndReportsThePkeyIndex() {
        Node.Qp ga = ud(na, pa, QpType.GSI, 0);
        Node.Qp gb = ud(nb, pb, QpType.GSI, 0);
        assertEquals(1, ga.qpn());
        recv(gb, 1);
        SendWr w = udSend(ah(2, null), 1, 0x80010000, 256);
        w.pkeyIndex = 1;
        ga.p.postSend(w, null);
        rig.settle();
        Wc r = Rig.drain(gb.rcq).get(0);
        assertEquals(WcStatus.SUCCESS, r.status);
        assertEquals(1, r.srcQp);
        assertEquals(1, r.pkeyIndex);
        recv(gb, 2);
        ga.p.postSend(udSend(ah(2, null), 1, 0x1234, 256), null);
        rig.settle();
        assertEquals(0, Rig.drain(gb.rcq).size());
    }

    @Test
    void smiTravelsOnVl15() {
        Node.Qp sa = ud(na, pa, QpType.SMI, 0);
        Node.Qp sb = ud(nb, pb, QpType.SMI, 0);
        assertEquals(0, sa.qpn());
        boolean[] vl15 = new boolean[1];
        rig.wire.filter = pkt -> {
            vl15[0] = pkt.vl15;
            return false;
        };
        recv(sb, 1);
        sa.p.postSend(udSend(ah(2, null), 0, 0, 256), null);
        rig.settle();
        assertTrue(vl15[0]);
        assertEquals(296, Rig.drain(sb.rcq).get(0).byteLen);
    }

    @Test
    void multicastReachesEveryAttachedQp() {
        Gid mgid = Gid.parse("ff12:401b:ffff:0000:0000:0000:0000:0001");
        Node.Qp qa = ud(na, pa, QpType.UD, QKEY);
        Node.Qp q1 = ud(nb, pb, QpType.UD, QKEY);
        Node.Qp q2 = ud(nb, pb, QpType.UD, QKEY);
        Node.Qp q3 = ud(nb, pb, QpType.UD, QKEY);
        q1.p.attachMcast(mgid, 0xc001);
        q2.p.attachMcast(mgid, 0xc001);
        recv(q1, 1);
        recv(q2, 2);
        recv(q3, 3);
        qa.p.postSend(udSend(ah(0xc001, mgid), 0xffffff, QKEY, 500), null);
        rig.settle();
        assertEquals(540, Rig.drain(q1.rcq).get(0).byteLen);
        assertEquals(540, Rig.drain(q2.rcq).get(0).byteLen);
        assertEquals(0, Rig.drain(q3.rcq).size());
        q2.p.detachMcast(mgid, 0xc001);
        recv(q1, 4);
        recv(q2, 5);
        qa.p.postSend(udSend(ah(0xc001, mgid), 0xffffff, QKEY, 500), null);
        rig.settle();
        assertEquals(1, Rig.drain(q1.rcq).size());
        assertEquals(0, Rig.drain(q2.rcq).size());
    }

    @Test
    void theDriverJoinsAnMgidWithItsFirstQpAndLeavesWithItsLast() {
        Gid mgid = Gid.parse("ff12:401b:ffff:0000:0000:0000:0000:0001");
        String add = "add " + mgid;
        String del = "del " + mgid;
        List<String> calls = nb.driver.mcastCalls;
        Node.Qp q1 = ud(nb, pb, QpType.UD, QKEY);
        Node.Qp q2 = ud(nb, pb, QpType.UD, QKEY);
        q1.p.attachMcast(mgid, 0xc001);
        q2.p.attachMcast(mgid, 0xc001);
        q2.p.attachMcast(mgid, 0xc002);
        assertEquals(List.of(add), calls, "one join for the MGID, whatever the QPs and MLIDs");
        q1.p.detachMcast(mgid, 0xc001);
        q2.p.detachMcast(mgid, 0xc001);
        assertEquals(List.of(add), calls, "q2 is still attached through MLID 0xc002");
        q2.p.detachMcast(mgid, 0xc002);
        assertEquals(List.of(add, del), calls);
        q1.p.attachMcast(mgid, 0xc001);
        q1.p.destroy();
        assertEquals(List.of(add, del, add, del), calls, "destroying the last member leaves");

        nb.driver.mcastAddFails = Errno.EADDRNOTAVAIL;
        RdmaException e = assertThrows(RdmaException.class, () -> q2.p.attachMcast(mgid, 0xc001));
        assertEquals(Errno.EADDRNOTAVAIL, e.errno(), "the driver's errno");
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> q2.p.detachMcast(mgid, 0xc001)).errno(),
                "a failed join leaves no group behind");
        q2.p.attachMcast(mgid, 0xc001);
        assertEquals(List.of(add, del, add, del, add), calls);
    }

    @Test
    void ucDeliversWholeMessagesAndDropsOnesWithAGap() {
        Rig.Opts o = new Rig.Opts();
        o.type = QpType.UC;
        o.pdA = pa;
        o.pdB = pb;
        o.access = AccessFlags.REMOTE_WRITE;
        Rig.Pair p = rig.connect(na, nb, o);
        for (int i = 0; i < 3; i++) {
            p.b.p.postRecv(Rig.recv(i, new Sge(0x1000 + i * 8192L, 8192, mrB.lkey())), null);
        }
        p.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(0x1000, 3000, mrA.lkey())), null);
        rig.settle();
        Wc r = Rig.drain(p.b.rcq).get(0);
        assertEquals(3000, r.byteLen);
        RcOpsTest.assertRange(a, 0, b, 0, 3000);
        // lose the middle packet of the next message: it never completes; the one after does
        int[] seen = new int[1];
        rig.wire.filter = pkt -> ++seen[0] == 2;
        p.a.p.postSend(Rig.send(WrOpcode.SEND, 2, new Sge(0x1000, 3000, mrA.lkey())), null);
        p.a.p.postSend(Rig.send(WrOpcode.SEND, 3, new Sge(0x1000 + 100, 2500, mrA.lkey())), null);
        rig.settle();
        assertEquals(2, Rig.drain(p.a.scq).size() - 1);
        List<Wc> got = Rig.drain(p.b.rcq);
        assertEquals(1, got.size());
        assertEquals(2500, got.get(0).byteLen);
        assertEquals(1, got.get(0).wrId, "the receive of the lost message is reused");
        RcOpsTest.assertRange(a, 100, b, 8192, 2500);
        // RDMA WRITE on UC
        SendWr w = Rig.send(WrOpcode.RDMA_WRITE, 4, new Sge(0x1000, 5000, mrA.lkey()));
        FakeMr target = nb.regMr(pb, b, 0x40_0000, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        w.remoteAddr = 0x40_0000 + 30000;
        w.rkey = target.rkey();
        rig.wire.filter = null;
        p.a.p.postSend(w, null);
        rig.settle();
        RcOpsTest.assertRange(a, 0, b, 30000, 5000);
    }

    @Test
    void headersOnTheWireAreIbta() {
        Node.Qp qa = ud(na, pa, QpType.UD, QKEY);
        Node.Qp qb = ud(nb, pb, QpType.UD, QKEY);
        byte[][] seen = new byte[1][];
        rig.wire.filter = pkt -> {
            seen[0] = java.util.Arrays.copyOf(pkt.hdr, pkt.hdrLen);
            return false;
        };
        recv(qb, 1);
        SendWr w = udSend(ah(2, null), qb.qpn(), QKEY, 3);
        w.opcode = WrOpcode.SEND_WITH_IMM;
        w.immData = 0x01020304;
        qa.p.postSend(w, null);
        rig.settle();
        byte[] h = seen[0];
        assertEquals(24, h.length);
        assertEquals(0x65, Hdr.bthOpcode(h));
        assertEquals(1, Hdr.bthPad(h));
        assertEquals(0xffff, Hdr.bthPkey(h));
        assertEquals(qb.qpn(), Hdr.bthQpn(h));
        assertEquals(QKEY, Hdr.dethQkey(h, 0x65));
        assertEquals(qa.qpn(), Hdr.dethSqp(h, 0x65));
        assertEquals(0x01020304, Hdr.immdt(h, 0x65));
        org.rdma.verbs.wire.Deth d = new org.rdma.verbs.wire.Deth().unpack(h, Opcodes.offset(0x65, Opcodes.DETH));
        assertEquals(QKEY, d.qkey);
        assertEquals(qa.qpn(), d.srcQpn);
    }
}
