package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WrOpcode;

/**
 * Multicast between rxe devices on {@code lo} in one JVM, over an IPv4 group (the host's {@code lo}
 * carries IPv4 multicast: a socket joins 224/4 groups on it and IP_MULTICAST_LOOP delivers what is
 * sent there; it has no IPv6 multicast route, see {@link RxeMulticast6Test}). A sends to B's UDP
 * port, so the group's datagrams reach the devices that receive on that port.
 */
class RxeMulticastTest {
    private static final int MULTICAST_QPN = 0xFFFFFF;
    private static final int GRH = 40;
    private static final String GROUP = "239.77.1.1";
    private static final Gid MGID = Gid.parse("::ffff:" + GROUP);
    private Pair pair;
    private Ops ops;
    private Host.Qp qa;

    @BeforeEach
    void setUp() throws Exception {
        pair = new Pair();
        ops = pair.ops("127.0.0.1", "127.0.0.1");
        qa = ud(pair.ha, ops.pa);
    }

    @AfterEach
    void tearDown() {
        pair.close();
    }

    private static Host.Qp ud(Host h, Host.Pd pd) {
        Host.Qp q = h.createQp(pd, QpType.UD, 1, null);
        Ops.toRts(q, QpType.UD, null, 0, org.rdma.verbs.Mtu.MTU_1024, 1);
        return q;
    }

    /** A UD SEND of {@code len} bytes from {@code qa} at offset {@code off} of its MR. */
    private void send(String ip, int qpn, int qkey, int off, int len) {
        AhAttr av = Pair.av(pair.ha, ip);
        SendWr w = Ops.wr(WrOpcode.SEND, off, new Sge(Ops.IOVA + off, len, ops.ma.lkey()));
        w.ah = pair.ha.createAh(ops.pa, av).core();
        w.remoteQpn = qpn;
        w.remoteQkey = qkey;
        assertEquals(0, qa.p().postSend(w, null));
        ops.one(qa.scq());
    }

    private Wc receivedOne(Host.Qp q) {
        return ops.one(q.rcq());
    }

    /**
     * Proves {@code q} got nothing before: a unicast SEND of a length no multicast here has goes to
     * it and must be its next completion. The receive thread handed any earlier datagram to the QP
     * before it read this one, and a QP completes in order.
     */
    private void assertNothingBefore(Host.Qp q, String why) {
        send("127.0.0.1", q.qpn(), Ops.QKEY, 0, 99);
        Wc w = receivedOne(q);
        assertEquals(99 + GRH, w.byteLen, why + ": the marker is the first thing " + q.qpn() + " received");
    }

    @Test
    void udToTheGroupReachesEveryAttachedQpAndNoneDetached() {
        RxeDevice b = pair.db;
        int sockets = b.channels().size();
        Host.Qp q1 = ud(pair.hb, ops.pb);
        Host.Qp q2 = ud(pair.hb, ops.pb);
        Host.Qp q3 = ud(pair.hb, ops.pb);
        q1.p().attachMcast(MGID, 0);
        q2.p().attachMcast(MGID, 0);
        assertEquals(1, b.mcastJoins(), "one join of the IP group for two QPs");
        assertEquals(Set.of(MGID), b.mcastGroups());
        assertEquals(sockets + 1, b.channels().size(), "one receive socket for the group");
        int slot = 0;
        for (Host.Qp q : List.of(q1, q1, q2, q2, q3, q3)) {
            ops.recv(q, null, slot, slot * 2048, 1024 + GRH);
            slot++;
        }

        send(GROUP, MULTICAST_QPN, Ops.QKEY, 100, 700);
        for (Host.Qp q : List.of(q1, q2)) {
            Wc w = receivedOne(q);
            assertEquals(700 + GRH, w.byteLen);
            assertEquals(qa.qpn(), w.srcQp);
            assertTrue((w.wcFlags & org.rdma.verbs.WcFlags.GRH) != 0, "a multicast receive has a GRH");
            ops.same(100, (int) w.wrId * 2048 + GRH, 700);
        }
        assertNothingBefore(q3, "q3 is not attached");

        long badQkey = b.provider().counter(RvtCounter.BAD_QKEY);
        send(GROUP, MULTICAST_QPN, Ops.QKEY + 1, 100, 300);
        Pair.await(() -> b.provider().counter(RvtCounter.BAD_QKEY) == badQkey + 2, 5000,
                "the wrong Q_Key to be counted once per attached QP");

        q2.p().detachMcast(MGID, 0);
        assertEquals(0, b.mcastLeaves(), "q1 still holds the group");
        send(GROUP, MULTICAST_QPN, Ops.QKEY, 200, 500);
        assertEquals(500 + GRH, receivedOne(q1).byteLen, "the first datagram with the right Q_Key");
        assertNothingBefore(q2, "q2 detached (nor did it take the one with the wrong Q_Key)");

        q1.p().detachMcast(MGID, 0);
        assertEquals(1, b.mcastLeaves());
        assertEquals(Set.of(), b.mcastGroups());
        assertEquals(sockets, b.channels().size(), "the group's socket is closed");
        q1.p().attachMcast(MGID, 0);
        q1.p().destroy();
        assertEquals(2, b.mcastJoins());
        assertEquals(2, b.mcastLeaves(), "destroying the last member leaves the group");
        assertEquals(0, pair.da.rxCrcErrors() + b.rxCrcErrors());
    }

    @Test
    void everyDeviceReceivingOnThePortGetsItsCopy() throws Exception {
        // a third device on B's port, receiving on ::1 only (B has 127.0.0.1): two hosts' worth of
        // members of one group on one UDP port, as SO_REUSEADDR lets group sockets share it
        pair.db.close();
        RxeParams p = new RxeParams();
        p.netdev = "lo";
        p.udpPort = pair.portB;
        p.remoteUdpPort = pair.portA;
        p.bindAddresses.add("127.0.0.1");
        p.clock = pair.clock;
        RxeDevice b = new RxeDevice(p);
        p = new RxeParams();
        p.netdev = "lo";
        p.udpPort = pair.portB;
        p.remoteUdpPort = pair.portA;
        p.bindAddresses.add("::1");
        p.clock = pair.clock;
        RxeDevice c = new RxeDevice(p);
        try {
            Host hb = new Host(b.provider());
            Host hc = new Host(c.provider());
            Host.Pd pb = hb.allocPd();
            Host.Pd pc = hc.allocPd();
            java.nio.ByteBuffer bufB = java.nio.ByteBuffer.allocate(4096);
            java.nio.ByteBuffer bufC = java.nio.ByteBuffer.allocate(4096);
            org.rdma.rvt.testkit.FakeMr mb = hb.regMr(pb, bufB, Ops.IOVA, org.rdma.verbs.AccessFlags.LOCAL_WRITE);
            org.rdma.rvt.testkit.FakeMr mc = hc.regMr(pc, bufC, Ops.IOVA, org.rdma.verbs.AccessFlags.LOCAL_WRITE);
            Host.Qp qb = ud(hb, pb);
            Host.Qp qc = ud(hc, pc);
            qb.p().attachMcast(MGID, 0);
            qc.p().attachMcast(MGID, 0);
            org.rdma.verbs.RecvWr r = new org.rdma.verbs.RecvWr();
            r.sg(new Sge(Ops.IOVA, 2048, mb.lkey()));
            assertEquals(0, qb.p().postRecv(r, null));
            r.sg(new Sge(Ops.IOVA, 2048, mc.lkey()));
            assertEquals(0, qc.p().postRecv(r, null));

            send(GROUP, MULTICAST_QPN, Ops.QKEY, 0, 1000);
            for (Host.Qp q : List.of(qb, qc)) {
                List<Wc> w = Ops.realTime().await(q.rcq(), 1);
                assertEquals(1000 + GRH, w.get(0).byteLen, "each device's member got the datagram");
            }
            for (int i = 0; i < 1000; i++) {
                assertEquals(ops.ba.get(i), bufB.get(GRH + i));
                assertEquals(ops.ba.get(i), bufC.get(GRH + i));
            }
        } finally {
            b.close();
            c.close();
        }
    }

    /**
     * A device sending to a group it has members of gets its own datagram back (IP_MULTICAST_LOOP,
     * as the Linux rxe's UDP socket gets its host's), the sending QP included, as Linux rxe delivers.
     */
    @Test
    void theSendersOwnDeviceDeliversToItsMembers() {
        // A with its own port as destination: what it sends to the group comes back to it
        pair.da.close();
        RxeParams p = new RxeParams();
        p.netdev = "lo";
        p.udpPort = pair.portA;
        p.bindAddresses.add("127.0.0.1");
        p.clock = pair.clock;
        RxeDevice a = new RxeDevice(p);
        try {
            Host ha = new Host(a.provider());
            Ops own = new Ops(ha, ha, Ops.realTime(), () -> Pair.av(ha, GROUP), () -> Pair.av(ha, GROUP),
                    org.rdma.verbs.Mtu.MTU_1024);
            Host.Qp sender = ud(ha, own.pa);
            Host.Qp member = ud(ha, own.pb);
            sender.p().attachMcast(MGID, 0);
            member.p().attachMcast(MGID, 0);
            org.rdma.verbs.RecvWr r = new org.rdma.verbs.RecvWr();
            r.sg(new Sge(Ops.IOVA + 8192, 1024 + GRH, own.ma.lkey()));
            assertEquals(0, sender.p().postRecv(r, null));
            own.recv(member, null, 2, 2048, 1024 + GRH);
            SendWr w = Ops.wr(WrOpcode.SEND, 9, new Sge(Ops.IOVA + 300, 500, own.ma.lkey()));
            w.ah = ha.createAh(own.pa, Pair.av(ha, GROUP)).core();
            w.remoteQpn = MULTICAST_QPN;
            w.remoteQkey = Ops.QKEY;
            assertEquals(0, sender.p().postSend(w, null));
            own.one(sender.scq());
            for (Host.Qp q : List.of(member, sender)) {
                Wc c = own.one(q.rcq());
                assertEquals(500 + GRH, c.byteLen);
                assertEquals(sender.qpn(), c.srcQp);
            }
            assertEquals(1, a.mcastJoins());
        } finally {
            a.close();
        }
    }

    @Test
    void closingTheDeviceClosesItsGroupSockets() {
        Host.Qp q = ud(pair.hb, ops.pb);
        q.p().attachMcast(MGID, 0);
        List<DatagramChannel> chans = pair.db.channels();
        pair.db.close();
        for (DatagramChannel c : chans) {
            assertFalse(c.isOpen(), c + " closed");
        }
    }
}
