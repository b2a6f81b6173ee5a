package org.rdma.rvt.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Supplier;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
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
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.time.VirtualClock;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * RC, UC and UD traffic between two hosts, data checked byte for byte. How completions are
 * awaited is the {@link Waiter}: by advancing a virtual clock (simulated fabric) or by a bounded
 * real-time poll (real sockets).
 */
public final class Ops {
    /** Collects {@code n} completions from a CQ, or fails the test. */
    @FunctionalInterface
    public interface Waiter {
        /** The completions, at least {@code n} unless the waiter's bound ran out. */
        List<Wc> await(Host.Cq cq, int n);
    }

    /** Advances {@code clock} by 20 x 1 ms, then takes what the CQ holds. */
    public static Waiter virtualTime(VirtualClock clock) {
        return (cq, n) -> {
            for (int i = 0; i < 20; i++) {
                clock.advance(1, TimeUnit.MILLISECONDS);
            }
            return cq.drain();
        };
    }

    /** How long a completion may take over real sockets before the test fails. */
    public static final long WAIT_MS = 10_000;

    /** Polls (bounded by {@link #WAIT_MS}) until the CQ held {@code n} completions. */
    public static Waiter realTime() {
        return (cq, n) -> {
            List<Wc> got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (got.size() < n) {
                got.addAll(cq.drain());
                if (got.size() >= n) {
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("only " + got.size() + " of " + n + " completions within " + WAIT_MS
                            + " ms: " + got);
                }
                LockSupport.parkNanos(200_000);
            }
            return got;
        };
    }

    public static final long IOVA = 0x100000;
    public static final int QKEY = 0x11111111;
    public final Host a;
    public final Host b;
    public final Waiter waiter;
    public final Host.Pd pa;
    public final Host.Pd pb;
    public final ByteBuffer ba = ByteBuffer.allocate(1 << 16);
    public final ByteBuffer bb = ByteBuffer.allocate(1 << 16);
    public final FakeMr ma;
    public final FakeMr mb;
    public final Supplier<AhAttr> toB;
    public final Supplier<AhAttr> toA;
    public final Mtu mtu;

    public Ops(Host a, Host b, Waiter waiter, Supplier<AhAttr> toB, Supplier<AhAttr> toA, Mtu mtu) {
        this.a = a;
        this.b = b;
        this.waiter = waiter;
        this.toB = toB;
        this.toA = toA;
        this.mtu = mtu;
        pa = a.allocPd();
        pb = b.allocPd();
        int acc = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        for (int i = 0; i < ba.capacity(); i++) {
            ba.put(i, (byte) (i * 7 + (i >>> 8) + 3));
        }
        ma = a.regMr(pa, ba, IOVA, acc);
        mb = b.regMr(pb, bb, IOVA, acc);
    }

    public static void toRts(Host.Qp q, QpType type, AhAttr av, int dqpn, Mtu mtu, int port) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = 0;
        at.portNum = port;
        at.qpAccessFlags = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        int m = QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT;
        if (type == QpType.UD) {
            at.qkey = QKEY;
            m |= QpAttrMask.QKEY;
        } else {
            m |= QpAttrMask.ACCESS_FLAGS;
        }
        q.p().modify(at, m);
        at.qpState = QpState.RTR;
        if (type == QpType.UD) {
            q.p().modify(at, QpAttrMask.STATE);
        } else {
            AhAttr.copy(at.ahAttr, av);
            at.pathMtu = mtu;
            at.destQpNum = dqpn;
            at.rqPsn = 100;
            at.maxDestRdAtomic = 4;
            at.minRnrTimer = 1;
            m = QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN;
            if (type == QpType.RC) {
                m |= QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;
            }
            q.p().modify(at, m);
        }
        at.qpState = QpState.RTS;
        at.sqPsn = 100;
        at.timeout = 14;
        at.retryCnt = 7;
        at.rnrRetry = 7;
        at.maxRdAtomic = 4;
        m = QpAttrMask.STATE | QpAttrMask.SQ_PSN;
        if (type == QpType.RC) {
            m |= QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC;
        }
        q.p().modify(at, m);
    }

    public static SendWr wr(WrOpcode op, long id, Sge... sg) {
        SendWr w = new SendWr();
        w.opcode = op;
        w.wrId = id;
        w.sendFlags = SendFlags.SIGNALED;
        w.sg(sg);
        return w;
    }

    public void recv(Host.Qp q, Host.Srq srq, long id, int off, int len) {
        RecvWr r = new RecvWr();
        r.wrId = id;
        r.sg(new Sge(IOVA + off, len, mb.lkey()));
        int rc = srq != null ? srq.p().postSrqRecv(r, null) : q.p().postRecv(r, null);
        assertEquals(0, rc);
    }

    public Wc one(Host.Cq cq) {
        List<Wc> w = waiter.await(cq, 1);
        assertEquals(1, w.size(), "one completion: " + w);
        assertEquals(WcStatus.SUCCESS, w.get(0).status, w.get(0).toString());
        return w.get(0);
    }

    public void same(int offA, int offB, int len) {
        for (int i = 0; i < len; i++) {
            assertEquals(ba.get(offA + i), bb.get(offB + i), "byte " + i);
        }
    }

    /** RC (with an SRQ on b when asked) then UC then UD. Returns the number of operations checked. */
    public int all(boolean srq) {
        int n = rc(srq);
        n += uc();
        n += ud();
        return n;
    }

    public int rc(boolean useSrq) {
        Host.Srq srq = useSrq ? b.createSrq(pb, 64) : null;
        Host.Qp qa = a.createQp(pa, QpType.RC, 1, null);
        Host.Qp qb = b.createQp(pb, QpType.RC, 1, srq);
        toRts(qa, QpType.RC, toB.get(), qb.qpn(), mtu, 1);
        toRts(qb, QpType.RC, toA.get(), qa.qpn(), mtu, 1);
        // send, multi-packet
        recv(qb, srq, 1, 0, 8192);
        assertEquals(0, qa.p().postSend(wr(WrOpcode.SEND, 1, new Sge(IOVA + 5, 5000, ma.lkey())), null));
        Wc r = one(qb.rcq());
        assertEquals(5000, r.byteLen);
        one(qa.scq());
        same(5, 0, 5000);
        // send with immediate, multi-SGE
        recv(qb, srq, 2, 9000, 4096);
        SendWr w = wr(WrOpcode.SEND_WITH_IMM, 2, new Sge(IOVA + 100, 300, ma.lkey()), new Sge(IOVA + 7000, 200, ma.lkey()),
                new Sge(IOVA + 20000, 33, ma.lkey()));
        w.immData = 0x12345678;
        assertEquals(0, qa.p().postSend(w, null));
        r = one(qb.rcq());
        assertEquals(533, r.byteLen);
        assertEquals(0x12345678, r.immData);
        one(qa.scq());
        same(100, 9000, 300);
        same(7000, 9300, 200);
        same(20000, 9500, 33);
        // inline send
        recv(qb, srq, 3, 12000, 256);
        w = wr(WrOpcode.SEND, 3, new Sge(IOVA + 40, 60, ma.lkey()));
        w.sendFlags |= SendFlags.INLINE;
        assertEquals(0, qa.p().postSend(w, null));
        assertEquals(60, one(qb.rcq()).byteLen);
        one(qa.scq());
        same(40, 12000, 60);
        // RDMA write, write with immediate
        w = wr(WrOpcode.RDMA_WRITE, 4, new Sge(IOVA + 1000, 3000, ma.lkey()));
        w.remoteAddr = IOVA + 20000;
        w.rkey = mb.rkey();
        assertEquals(0, qa.p().postSend(w, null));
        one(qa.scq());
        same(1000, 20000, 3000);
        recv(qb, srq, 5, 0, 16);
        w = wr(WrOpcode.RDMA_WRITE_WITH_IMM, 5, new Sge(IOVA + 4000, 1500, ma.lkey()));
        w.remoteAddr = IOVA + 24000;
        w.rkey = mb.rkey();
        w.immData = 77;
        assertEquals(0, qa.p().postSend(w, null));
        r = one(qb.rcq());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, r.opcode);
        assertEquals(77, r.immData);
        one(qa.scq());
        same(4000, 24000, 1500);
        // RDMA read: b's bytes into a
        for (int i = 0; i < 2500; i++) {
            bb.put(30000 + i, (byte) (i * 13));
        }
        w = wr(WrOpcode.RDMA_READ, 6, new Sge(IOVA + 40000, 2500, ma.lkey()));
        w.remoteAddr = IOVA + 30000;
        w.rkey = mb.rkey();
        assertEquals(0, qa.p().postSend(w, null));
        one(qa.scq());
        same(40000, 30000, 2500);
        // atomics
        java.nio.ByteOrder le = java.nio.ByteOrder.LITTLE_ENDIAN;
        bb.order(le).putLong(50000, 10);
        w = wr(WrOpcode.ATOMIC_FETCH_AND_ADD, 7, new Sge(IOVA + 50000, 8, ma.lkey()));
        w.remoteAddr = IOVA + 50000;
        w.rkey = mb.rkey();
        w.compareAdd = 5;
        assertEquals(0, qa.p().postSend(w, null));
        one(qa.scq());
        assertEquals(10, ba.order(le).getLong(50000));
        assertEquals(15, bb.order(le).getLong(50000));
        w = wr(WrOpcode.ATOMIC_CMP_AND_SWP, 8, new Sge(IOVA + 50008, 8, ma.lkey()));
        w.remoteAddr = IOVA + 50000;
        w.rkey = mb.rkey();
        w.compareAdd = 15;
        w.swap = 99;
        assertEquals(0, qa.p().postSend(w, null));
        one(qa.scq());
        assertEquals(15, ba.order(le).getLong(50008));
        assertEquals(99, bb.order(le).getLong(50000));
        return 8;
    }

    public int uc() {
        Host.Qp qa = a.createQp(pa, QpType.UC, 1, null);
        Host.Qp qb = b.createQp(pb, QpType.UC, 1, null);
        toRts(qa, QpType.UC, toB.get(), qb.qpn(), mtu, 1);
        toRts(qb, QpType.UC, toA.get(), qa.qpn(), mtu, 1);
        recv(qb, null, 1, 0, 8192);
        assertEquals(0, qa.p().postSend(wr(WrOpcode.SEND, 1, new Sge(IOVA + 11, 3000, ma.lkey())), null));
        assertEquals(3000, one(qb.rcq()).byteLen);
        one(qa.scq());
        same(11, 0, 3000);
        SendWr w = wr(WrOpcode.RDMA_WRITE_WITH_IMM, 2, new Sge(IOVA + 600, 2000, ma.lkey()));
        w.remoteAddr = IOVA + 33000;
        w.rkey = mb.rkey();
        w.immData = 5;
        recv(qb, null, 2, 0, 16);
        assertEquals(0, qa.p().postSend(w, null));
        assertEquals(5, one(qb.rcq()).immData);
        one(qa.scq());
        same(600, 33000, 2000);
        return 2;
    }

    public int ud() {
        Host.Qp qa = a.createQp(pa, QpType.UD, 1, null);
        Host.Qp qb = b.createQp(pb, QpType.UD, 1, null);
        toRts(qa, QpType.UD, null, 0, mtu, 1);
        toRts(qb, QpType.UD, null, 0, mtu, 1);
        Host.Ah ah = a.createAh(pa, toB.get());
        recv(qb, null, 1, 0, 1024 + 40);
        SendWr w = wr(WrOpcode.SEND, 1, new Sge(IOVA + 77, 700, ma.lkey()));
        w.ah = ah.core();
        w.remoteQpn = qb.qpn();
        w.remoteQkey = QKEY;
        assertEquals(0, qa.p().postSend(w, null));
        Wc r = one(qb.rcq());
        assertEquals(740, r.byteLen);
        assertEquals(qa.qpn(), r.srcQp);
        one(qa.scq());
        same(77, 40, 700);
        return 1;
    }

    public static void assertSuccess(List<Wc> w) {
        for (Wc c : w) {
            assertTrue(c.status == WcStatus.SUCCESS, c.toString());
        }
    }
}
