package org.rdma.hca.mlx4sim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.Random;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.rvt.testkit.Host;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.Sge;

/**
 * One RC connection of the lossy-fabric runs: a requester QP on one HCA, its responder QP on the
 * other, 4 MiB registered on each side in the regions below, and a model of both buffers. Every
 * operation the run checks is applied to the model as it completes; afterwards the real memory
 * must equal the model byte for byte, so a write that landed twice, late or in the wrong place
 * shows even where no single completion looked at it.
 */
final class RcConn {
    static final int ACC = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE
            | AccessFlags.REMOTE_ATOMIC;
    static final Mtu MTU = Mtu.MTU_1024;
    /** Largest message: eight packets at {@link #MTU}. */
    static final int MAX_LEN = 8 * 1024;
    /** WRITE, READ and atomic target slots; more than a window, so no two operations in flight share one. */
    static final int SLOTS = 128;
    /** Receive slots, each {@link #MAX_LEN}; more than {@link #RECVS_POSTED}. */
    static final int RECV_SLOTS = 128;
    /** Receives kept posted (the QP's receive queue holds 128): more than a window, so never RNR. */
    static final int RECVS_POSTED = 100;
    static final int BUF = 4 << 20;

    static final long IOVA_REQ = 0x1_0000_0000L;
    static final int SRC = 0;              // requester: fixed pattern, never written
    static final int READ_DST = 1 << 20;   // requester: SLOTS slots of MAX_LEN
    static final int ATOMIC_DST = 2 << 20; // requester: SLOTS slots of 8 bytes, the originals atomics return
    static final long IOVA_RESP = 0x2_0000_0000L;
    static final int RECV = 0;             // responder: RECV_SLOTS slots of MAX_LEN
    static final int WRITE_DST = 1 << 20;  // responder: SLOTS slots of MAX_LEN
    static final int READ_SRC = 2 << 20;   // responder: fixed pattern to read
    static final int COUNTER_FAA = 3 << 20; // responder: the fetch-add word
    static final int COUNTER_CAS = COUNTER_FAA + 8; // responder: the compare-swap word

    final String name;
    final Host.Qp req;
    final Host.Qp resp;
    final ByteBuffer reqBuf;
    final ByteBuffer respBuf;
    final FakeMr reqMr;
    final FakeMr respMr;
    /** What the requester's and the responder's buffers must hold. */
    final ByteBuffer reqModel;
    final ByteBuffer respModel;
    private long recvPosted;

    /**
     * @param toResp  address vector from the requester's HCA to the responder's
     * @param toReq   the way back
     * @param timeout local ACK timeout exponent; {@code retryCnt}, {@code rnrRetry}, {@code minRnr} as {@code ib_qp_attr}
     */
    RcConn(String name, Host from, Host to, AhAttr toResp, AhAttr toReq, int seed, int timeout, int retryCnt,
           int rnrRetry, int minRnr) {
        this.name = name;
        Host.Pd pa = from.allocPd();
        Host.Pd pb = to.allocPd();
        reqBuf = pattern(ByteBuffer.allocate(BUF), seed);
        respBuf = pattern(ByteBuffer.allocate(BUF), seed + 1);
        respBuf.putLong(COUNTER_FAA, 0).putLong(COUNTER_CAS, 0);
        reqModel = copy(reqBuf);
        respModel = copy(respBuf);
        reqMr = from.regMr(pa, reqBuf, IOVA_REQ, ACC);
        respMr = to.regMr(pb, respBuf, IOVA_RESP, ACC);
        req = from.createQp(pa, QpType.RC, 1, null);
        resp = to.createQp(pb, QpType.RC, 1, null);
        toRts(req, toResp, resp.qpn(), timeout, retryCnt, rnrRetry, minRnr);
        toRts(resp, toReq, req.qpn(), timeout, retryCnt, rnrRetry, minRnr);
    }

    private static ByteBuffer pattern(ByteBuffer b, int seed) {
        byte[] bytes = new byte[b.capacity()];
        new Random(seed).nextBytes(bytes);
        // native order: the byte order rvt executes atomics in, so the model's longs are the HCA's
        b.put(0, bytes).order(java.nio.ByteOrder.nativeOrder());
        return b;
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer c = ByteBuffer.allocate(b.capacity()).order(b.order());
        c.put(0, b, 0, b.capacity());
        return c;
    }

    /** Posts the next receive into its slot. */
    long postRecv() {
        long id = recvPosted++;
        RecvWr r = new RecvWr();
        r.wrId = id;
        r.sg(new Sge(IOVA_RESP + recvSlot(id), MAX_LEN, respMr.lkey()));
        assertEquals(0, resp.p().postRecv(r, null), name + ": post receive " + id);
        return id;
    }

    /** @return where receive {@code id} lands in the responder's buffer */
    static int recvSlot(long id) {
        return RECV + (int) (id % RECV_SLOTS) * MAX_LEN;
    }

    /** Fails unless {@code len} bytes at {@code off} of the requester's (or responder's) buffer equal the model. */
    void assertModel(boolean requester, int off, int len, String what) {
        ByteBuffer real = requester ? reqBuf : respBuf;
        ByteBuffer model = requester ? reqModel : respModel;
        int m = real.slice(off, len).mismatch(model.slice(off, len));
        if (m >= 0) {
            fail(name + ": " + what + ": byte " + m + " of " + len + " at " + (requester ? "requester" : "responder")
                    + " offset " + off + " differs from the model");
        }
    }

    /** Fails unless both whole buffers equal the model. */
    void assertModel() {
        assertModel(true, 0, BUF, "requester memory after the run");
        assertModel(false, 0, BUF, "responder memory after the run");
    }

    static void toRts(Host.Qp q, AhAttr av, int dqpn, int timeout, int retryCnt, int rnrRetry, int minRnr) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = 0;
        at.portNum = 1;
        at.qpAccessFlags = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        q.p().modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
        at = new QpAttr();
        at.qpState = QpState.RTR;
        AhAttr.copy(at.ahAttr, av);
        at.pathMtu = MTU;
        at.destQpNum = dqpn;
        at.rqPsn = 100;
        at.maxDestRdAtomic = 16;
        at.minRnrTimer = minRnr;
        q.p().modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
        at = new QpAttr();
        at.qpState = QpState.RTS;
        at.sqPsn = 100;
        at.timeout = timeout;
        at.retryCnt = retryCnt;
        at.rnrRetry = rnrRetry;
        at.maxRdAtomic = 16;
        q.p().modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT
                | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC);
        assertEquals(QpState.RTS, q.p().state());
    }
}
