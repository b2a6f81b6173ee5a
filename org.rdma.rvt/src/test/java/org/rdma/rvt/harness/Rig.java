package org.rdma.rvt.harness;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rdma.rvt.RvtDevice;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.time.VirtualClock;

/** A test rig: a virtual clock, a wire and devices on it, with helpers to connect QPs and move data. */
public final class Rig {
    /** Virtual time. */
    public final VirtualClock clock = new VirtualClock();
    /** The network. */
    public final Wire wire = new Wire();
    private final List<Node> nodes = new ArrayList<>();
    /** Device attributes for new nodes. */
    public final DeviceAttr attr = RvtDevice.defaultAttr();

    /** A new device with LID {@code lid}. */
    public Node node(int lid) {
        Node n = new Node(wire, clock, lid, attr);
        nodes.add(n);
        return n;
    }

    /** A connected pair of QPs and everything around them. */
    public static final class Pair {
        /** Requester side. */
        public final Node.Qp a;
        /** Responder side. */
        public final Node.Qp b;
        /** Nodes. */
        public final Node na;
        /** Node of b. */
        public final Node nb;

        Pair(Node na, Node.Qp a, Node nb, Node.Qp b) {
            this.na = na;
            this.a = a;
            this.nb = nb;
            this.b = b;
        }
    }

    /** Options for {@link #connect}. */
    public static final class Opts {
        /** QP type. */
        public QpType type = QpType.RC;
        /** Path MTU. */
        public Mtu mtu = Mtu.MTU_1024;
        /** The longest train both drivers take (1: none). */
        public int maxSegments = 1;
        /** Queue depth. */
        public int depth = 256;
        /** SGEs. */
        public int sges = 4;
        /** Inline bytes. */
        public int inline = 64;
        /** Local ACK timeout exponent. */
        public int timeout = 14;
        /** Retry count. */
        public int retry = 7;
        /** RNR retry. */
        public int rnrRetry = 7;
        /** min RNR timer code. */
        public int minRnr = 1;
        /** Remote access flags. */
        public int access = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        /** Outstanding reads/atomics. */
        public int rdAtomic = 16;
        /** P_Key indexes of both sides. */
        public int pkeyIndexA;
        /** P_Key index of b. */
        public int pkeyIndexB;
        /** SRQ for b. */
        public Node.Srq srqB;
        /** PDs to use (null: new). */
        public Node.Pd pdA;
        /** PD of b. */
        public Node.Pd pdB;
        /** Signal every request. */
        public boolean sigAll = true;
    }

    /** Connects a new QP on {@code na} with a new QP on {@code nb} (RC or UC), both in RTS. */
    public Pair connect(Node na, Node nb, Opts o) {
        na.sigType = nb.sigType = o.sigAll ? org.rdma.verbs.SigType.ALL_WR : org.rdma.verbs.SigType.REQ_WR;
        if (o.maxSegments != 1) {
            na.driver.maxSegments = nb.driver.maxSegments = o.maxSegments;
            na.dev.refreshPort(1);
            nb.dev.refreshPort(1);
        }
        Node.Pd pa = o.pdA != null ? o.pdA : na.allocPd();
        Node.Pd pb = o.pdB != null ? o.pdB : nb.allocPd();
        Node.Qp a = na.createQp(pa, o.type, na.createCq(4 * o.depth), na.createCq(4 * o.depth), null, o.depth, o.sges,
                o.inline);
        Node.Qp b = nb.createQp(pb, o.type, nb.createCq(4 * o.depth), nb.createCq(4 * o.depth), o.srqB, o.depth,
                o.sges, o.inline);
        toRts(a, b.qpn(), nb.lid, o, o.pkeyIndexA);
        toRts(b, a.qpn(), na.lid, o, o.pkeyIndexB);
        return new Pair(na, a, nb, b);
    }

    /** RESET to RTS for a connected QP. */
    public static void toRts(Node.Qp q, int dqpn, int dlid, Opts o, int pkeyIndex) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = pkeyIndex;
        at.portNum = 1;
        at.qpAccessFlags = o.access;
        q.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
        at.qpState = QpState.RTR;
        at.ahAttr.dlid = dlid;
        at.ahAttr.portNum = 1;
        at.pathMtu = o.mtu;
        at.destQpNum = dqpn;
        at.rqPsn = 0x123456 ^ dqpn;
        at.maxDestRdAtomic = o.rdAtomic;
        at.minRnrTimer = o.minRnr;
        int mask = QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN;
        if (o.type == QpType.RC) {
            mask |= QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;
        }
        q.modify(at, mask);
        at.qpState = QpState.RTS;
        at.sqPsn = 0x123456 ^ q.qpn();
        at.timeout = o.timeout;
        at.retryCnt = o.retry;
        at.rnrRetry = o.rnrRetry;
        at.maxRdAtomic = o.rdAtomic;
        mask = QpAttrMask.STATE | QpAttrMask.SQ_PSN;
        if (o.type == QpType.RC) {
            mask |= QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC;
        }
        q.modify(at, mask);
    }

    /** Moves a QP to {@code s}. */
    public static void state(Node.Qp q, QpState s) {
        QpAttr at = new QpAttr();
        at.qpState = s;
        q.modify(at, QpAttrMask.STATE);
    }

    /**
     * Delivers queued packets and advances virtual time to the next timer until nothing is queued
     * and no timer is due within {@code maxNanos}; returns the virtual time spent.
     */
    public long settle(long maxNanos) {
        long start = clock.nanoTime();
        while (true) {
            wire.run();
            long next = clock.nextDeadline();
            if (wire.queued() == 0 && (next < 0 || next - start > maxNanos)) {
                return clock.nanoTime() - start;
            }
            if (wire.queued() == 0) {
                clock.advanceTo(next);
            }
        }
    }

    /** {@link #settle(long)} with one virtual minute. */
    public long settle() {
        return settle(TimeUnit.SECONDS.toNanos(60));
    }

    // ---------------------------------------------------------------- WR builders

    /** A send WR. */
    public static SendWr send(WrOpcode op, long wrId, Sge... sges) {
        SendWr w = new SendWr();
        w.opcode = op;
        w.wrId = wrId;
        w.sendFlags = SendFlags.SIGNALED;
        w.sg(sges);
        return w;
    }

    /** A receive WR. */
    public static RecvWr recv(long wrId, Sge... sges) {
        RecvWr r = new RecvWr();
        r.wrId = wrId;
        r.sg(sges);
        return r;
    }

    /** Fills {@code b} with a pattern from {@code seed}. */
    public static ByteBuffer pattern(ByteBuffer b, int seed) {
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (seed * 31 + i * 7 + (i >>> 8)));
        }
        return b;
    }

    /** Drains up to {@code n} completions. */
    public static List<Wc> drain(Node.Cq cq) {
        List<Wc> out = new ArrayList<>();
        Wc[] one = Wc.array(16);
        int n;
        while ((n = cq.p.pollCq(16, one)) > 0) {
            for (int i = 0; i < n; i++) {
                Wc c = new Wc();
                c.copyFrom(one[i]);
                out.add(c);
            }
        }
        return out;
    }
}
