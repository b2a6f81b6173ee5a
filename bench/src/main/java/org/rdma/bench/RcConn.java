package org.rdma.bench;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.IbCompHandler;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SigType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;

/**
 * One RC connection between an {@link HcaPair}, set up as perftest's {@code ib_write_bw} does
 * ({@code ctx_init()}, {@code ctx_connect()}): on each side a PD, one polled CQ, one direct buffer
 * registered for remote write, one RC QP with a send queue of {@code depth}; path MTU 4096.
 */
final class RcConn implements AutoCloseable {
    /** One end. */
    static final class End {
        IbPd pd;
        IbCq cq;
        ByteBuffer buf;
        IbMr mr;
        IbQp qp;

        /** Destroys what {@link #open} made, if it got as far as the QP. */
        void close() {
            if (qp != null) {
                qp.destroy();
                mr.dereg();
                cq.destroy();
                pd.dealloc();
            }
        }
    }

    private static final int PSN_A = 0x3a3f1e;
    private static final int PSN_B = 0x0c4d2b;

    final End a = new End();
    final End b = new End();

    RcConn(HcaPair net, int depth, int bufferSize) {
        int mrAccess = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
        int qpAccess = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
        open(net.devA(), a, depth, bufferSize, 0x7f3a_0000_0000L, mrAccess, qpAccess, null);
        open(net.devB(), b, depth, bufferSize, 0x7f4a_0000_0000L, mrAccess, qpAccess, null);
        connect(a, Mtu.MTU_4096, b.qp.qpNum(), PSN_A, PSN_B, 1, av -> av.dlid = net.devB().queryPort(1).lid);
        connect(b, Mtu.MTU_4096, a.qp.qpNum(), PSN_B, PSN_A, 1, av -> av.dlid = net.devA().queryPort(1).lid);
    }

    /**
     * One end up to INIT: a PD, a CQ of {@code 2 * depth + 1} (completion handler {@code onComp},
     * or none), a direct buffer of {@code size} registered at {@code iova} with {@code mrAccess}, an
     * RC QP with a send queue of {@code depth} and remote access {@code qpAccess}.
     */
    static void open(IbDevice dev, End e, int depth, int size, long iova, int mrAccess, int qpAccess,
            IbCompHandler onComp) {
        e.pd = dev.allocPd(0);
        e.cq = dev.createCq(onComp, null, null, CqInitAttr.of(depth * 2 + 1, 0));
        e.buf = ByteBuffer.allocateDirect(size);
        e.mr = e.pd.regMr(e.buf.duplicate().clear(), iova, mrAccess);
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.sqSigType = SigType.REQ_WR;
        init.sendCq = e.cq;
        init.recvCq = e.cq;
        init.cap.maxSendWr = depth;
        init.cap.maxRecvWr = 1;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        e.qp = e.pd.createQp(init);
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = 0;
        at.portNum = 1;
        at.qpAccessFlags = qpAccess;
        e.qp.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
    }

    /**
     * One end from INIT through RTR to RTS ({@code ctx_connect()}): path MTU {@code mtu}, the
     * peer's QP and PSNs, {@code rdAtomic} READ/ATOMIC resources each way, and the address vector
     * {@code route} fills in (port 1 already set).
     */
    static void connect(End e, Mtu mtu, int remoteQpn, int psn, int remotePsn, int rdAtomic, Consumer<AhAttr> route) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.RTR;
        at.pathMtu = mtu;
        at.destQpNum = remoteQpn;
        at.rqPsn = remotePsn;
        at.maxDestRdAtomic = rdAtomic;
        at.minRnrTimer = 12;
        at.ahAttr.portNum = 1;
        route.accept(at.ahAttr);
        e.qp.modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
        QpAttr rts = new QpAttr();
        rts.qpState = QpState.RTS;
        rts.timeout = 14;
        rts.retryCnt = 7;
        rts.rnrRetry = 7;
        rts.sqPsn = psn;
        rts.maxRdAtomic = rdAtomic;
        e.qp.modify(rts, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    /** Polls A's CQ; a failed completion is fatal (the run would measure nothing). */
    static int poll(End e, Wc[] wc) {
        int n = e.cq.pollCq(wc.length, wc);
        for (int i = 0; i < n; i++) {
            if (wc[i].status != WcStatus.SUCCESS) {
                throw new IllegalStateException("completion " + wc[i]);
            }
        }
        if (n < 0) {
            throw new IllegalStateException("poll CQ " + n);
        }
        return n;
    }

    @Override
    public void close() {
        b.close();
        a.close();
    }
}
