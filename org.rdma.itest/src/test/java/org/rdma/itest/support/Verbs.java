package org.rdma.itest.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SigType;
import org.rdma.verbs.WrOpcode;

/** Verbs sequences the tests repeat: an RC QP brought to RTS, posting with an {@link IbCqe}. */
public final class Verbs {
    private Verbs() {
    }

    /** An RC QP on {@code pd} with both queues on {@code cq}. */
    public static IbQp rcQp(IbPd pd, IbCq sendCq, IbCq recvCq, int depth) {
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.sendCq = sendCq;
        init.recvCq = recvCq;
        init.sqSigType = SigType.REQ_WR;
        init.cap.maxSendWr = depth;
        init.cap.maxRecvWr = depth;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        return pd.createQp(init);
    }

    /** RESET -> INIT -> RTR -> RTS with the attributes an RC QP requires on port 1. */
    public static void toRts(IbQp qp) {
        QpAttr a = new QpAttr();
        a.qpState = QpState.INIT;
        a.pkeyIndex = 0;
        a.portNum = 1;
        a.qpAccessFlags = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);

        a = new QpAttr();
        a.qpState = QpState.RTR;
        a.ahAttr.type = AhAttrType.IB;
        a.ahAttr.portNum = 1;
        a.ahAttr.dlid = 0x21;
        a.pathMtu = Mtu.MTU_1024;
        a.destQpNum = qp.qpNum();
        a.rqPsn = 0x100;
        a.maxDestRdAtomic = 1;
        a.minRnrTimer = 12;
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);

        a = new QpAttr();
        a.qpState = QpState.RTS;
        a.timeout = 14;
        a.retryCnt = 7;
        a.rnrRetry = 7;
        a.sqPsn = 0x100;
        a.maxRdAtomic = 1;
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC);
        assertEquals(QpState.RTS, qp.state(), "QP state after RESET->INIT->RTR->RTS");
    }

    /** Moves the QP to {@code state} with only the state attribute. */
    public static void moveTo(IbQp qp, QpState state) {
        QpAttr a = new QpAttr();
        a.qpState = state;
        qp.modify(a, QpAttrMask.STATE);
    }

    /** Posts one signaled SEND of {@code len} bytes at DMA address {@code addr} under {@code lkey}. */
    public static int send(IbQp qp, IbCqe cqe, long addr, int len, int lkey) {
        SendWr wr = new SendWr();
        wr.opcode = WrOpcode.SEND;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.wrCqe = cqe;
        wr.sg(new Sge(addr, len, lkey));
        return qp.postSend(wr, new SendWr[1]);
    }

    /** Posts one receive of {@code len} bytes at {@code addr} under {@code lkey}. */
    public static int recv(IbQp qp, IbCqe cqe, long addr, int len, int lkey) {
        RecvWr wr = new RecvWr();
        wr.wrCqe = cqe;
        wr.sg(new Sge(addr, len, lkey));
        return qp.postRecv(wr, new RecvWr[1]);
    }
}
