package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import org.rdma.verbs.Gid;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.time.SystemClock;

/**
 * The IPv6 half of the multicast tests, run by {@link RxeMulticast6Test} in a network namespace of
 * its own ({@code Mcast6Peer V0 V1}): device A on the veth end {@code V0} ({@value #A}), device B
 * on its peer {@code V1} ({@value #B}), both on UDP 4791, so a datagram A sends to a group leaves
 * through V0 and arrives on V1 as it would from another host. Only B's QPs attach: in one
 * namespace a group socket bound to a global group's address takes the group's datagrams from
 * every interface that joined it (a socket cannot learn the interface a datagram came in on, where
 * Linux rxe drops what did not come in on its netdev), so A, joined on V0, would also see what
 * reaches V1. Exit status 0 when every check held; 1 with the failure on stderr.
 */
public final class Mcast6Peer {
    static final String A = "fd01::1";
    static final String B = "fd01::2";
    static final Gid GLOBAL = Gid.parse("ff0e::a:1");
    static final Gid LINK = Gid.parse("ff02::a:2");
    private static final int MULTICAST_QPN = 0xFFFFFF;
    private static final int GRH = 40;

    private Mcast6Peer() {
    }

    public static void main(String[] args) {
        try (SystemClock clock = new SystemClock("mcast6")) {
            RxeDevice a = device(args[0], A, clock);
            RxeDevice b = device(args[1], B, clock);
            try {
                run(a, b);
            } finally {
                a.close();
                b.close();
            }
            System.out.println("OK");
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
    }

    private static RxeDevice device(String netdev, String ip, SystemClock clock) {
        RxeParams p = new RxeParams();
        p.netdev = netdev;
        p.bindAddresses.add(ip);
        p.clock = clock;
        return new RxeDevice(p);
    }

    private static Host.Qp ud(Host h, Host.Pd pd) {
        Host.Qp q = h.createQp(pd, QpType.UD, 1, null);
        Ops.toRts(q, QpType.UD, null, 0, Mtu.MTU_1024, 1);
        return q;
    }

    static void run(RxeDevice da, RxeDevice db) {
        Host ha = new Host(da.provider());
        Host hb = new Host(db.provider());
        Ops ops = new Ops(ha, hb, Ops.realTime(), () -> Pair.av(ha, B), () -> Pair.av(hb, A), Mtu.MTU_1024);
        Host.Qp qa = ud(ha, ops.pa);
        Host.Qp q1 = ud(hb, ops.pb);
        Host.Qp q2 = ud(hb, ops.pb);
        Host.Qp q3 = ud(hb, ops.pb);
        q1.p().attachMcast(GLOBAL, 0);
        q2.p().attachMcast(GLOBAL, 0);
        q1.p().attachMcast(LINK, 0);
        assertEquals(2, db.mcastJoins(), "B joined ff0e::a:1 and ff02::a:2 (which binds with the interface's scope)");
        int slot = 0;
        for (Host.Qp q : List.of(q1, q1, q2, q3)) {
            ops.recv(q, null, slot, slot * 2048, 1024 + GRH);
            slot++;
        }

        send(ha, ops, qa, GLOBAL.ntop(), MULTICAST_QPN, 700);
        for (Host.Qp q : List.of(q1, q2)) {
            assertEquals(700 + GRH, ops.one(q.rcq()).byteLen, "a member on B");
        }

        send(ha, ops, qa, LINK.ntop(), MULTICAST_QPN, 300);
        assertEquals(300 + GRH, ops.one(q1.rcq()).byteLen, "the link-local group");

        send(ha, ops, qa, B, q3.qpn(), 99);
        assertEquals(99 + GRH, ops.one(q3.rcq()).byteLen, "q3 is not a member: the unicast marker is the first it gets");

        for (Host.Qp q : List.of(q1, q2)) {
            q.p().detachMcast(GLOBAL, 0);
        }
        q1.p().detachMcast(LINK, 0);
        assertEquals(2, db.mcastLeaves());
        assertEquals(java.util.Set.of(), db.mcastGroups());
        assertEquals(0, da.rxCrcErrors() + db.rxCrcErrors());
        assertEquals(0, da.rxIdentRecovered() + db.rxIdentRecovered(), "IPv6 has no Identification");
    }

    private static void send(Host ha, Ops ops, Host.Qp qa, String ip, int qpn, int len) {
        SendWr w = Ops.wr(WrOpcode.SEND, len, new Sge(Ops.IOVA + 4096, len, ops.ma.lkey()));
        w.ah = ha.createAh(ops.pa, Pair.av(ha, ip)).core();
        w.remoteQpn = qpn;
        w.remoteQkey = Ops.QKEY;
        assertEquals(0, qa.p().postSend(w, null));
        ops.one(qa.scq());
    }
}
