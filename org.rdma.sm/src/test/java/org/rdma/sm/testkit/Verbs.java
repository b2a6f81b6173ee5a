package org.rdma.sm.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;

/** One QP of the core API on a device, with a DMA buffer and its completions collected. */
public final class Verbs {
    public final IbDevice dev;
    public final IbPd pd;
    public final IbCq cq;
    public final IbQp qp;
    public final ByteBuffer buf = ByteBuffer.allocate(8192);
    public final long dma;
    public final List<Wc> sent = new ArrayList<>();
    public final List<Wc> received = new ArrayList<>();

    /** A PD, a 64-entry CQ polled directly, a QP of {@code type} (16 WRs, 1 SGE each) and an 8 KiB buffer. */
    public Verbs(IbDevice dev, QpType type) {
        this.dev = dev;
        pd = dev.allocPd(0);
        cq = dev.allocCq(null, 64, 0, PollContext.DIRECT);
        QpInitAttr init = new QpInitAttr();
        init.qpType = type;
        init.sendCq = cq;
        init.recvCq = cq;
        init.cap.maxSendWr = 16;
        init.cap.maxRecvWr = 16;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        qp = pd.createQp(init);
        dma = dev.dmaMapSingle(buf);
    }

    /** RESET to RTS: RC towards {@code av}/{@code dqpn}, or UD with {@code qkey}. */
    public void toRts(AhAttr av, int dqpn, int qkey) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.portNum = 1;
        at.pkeyIndex = 0;
        boolean rc = qp.qpType() == QpType.RC;
        if (rc) {
            at.qpAccessFlags = 0;
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
            at.qpState = QpState.RTR;
            AhAttr.copy(at.ahAttr, av);
            at.pathMtu = Mtu.MTU_1024;
            at.destQpNum = dqpn;
            at.rqPsn = 0;
            at.maxDestRdAtomic = 1;
            at.minRnrTimer = 1;
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                    | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
            at.qpState = QpState.RTS;
            at.sqPsn = 0;
            at.timeout = 14;
            at.retryCnt = 7;
            at.rnrRetry = 7;
            at.maxRdAtomic = 1;
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT
                    | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC);
        } else {
            at.qkey = qkey;
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
            at.qpState = QpState.RTR;
            qp.modify(at, QpAttrMask.STATE);
            at.qpState = QpState.RTS;
            at.sqPsn = 0;
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
        }
    }

    /** Posts a receive of {@code len} bytes at {@code off} of the buffer. */
    public void postRecv(int off, int len) {
        RecvWr r = new RecvWr();
        r.wrCqe = (c, w) -> received.add(copy(w));
        r.sg(new Sge(dma + off, len, pd.localDmaLkey()));
        assertEquals(0, qp.postRecv(r, null));
    }

    /** Posts {@code w}, signaled, with {@code len} bytes at {@code off} of the buffer. */
    public void postSend(int off, int len, SendWr w) {
        w.wrCqe = (c, wc) -> sent.add(copy(wc));
        w.sendFlags = SendFlags.SIGNALED;
        w.sg(new Sge(dma + off, len, pd.localDmaLkey()));
        assertEquals(0, qp.postSend(w, null));
    }

    /** Runs the CQ's completions. */
    public void poll() {
        cq.processCqDirect(-1);
    }

    private static Wc copy(Wc w) {
        Wc c = new Wc();
        c.copyFrom(w);
        return c;
    }

    /** Destroys the QP, CQ, mapping and PD. */
    public void close() {
        qp.destroy();
        cq.free();
        dev.dmaUnmapSingle(dma);
        pd.dealloc();
    }
}
