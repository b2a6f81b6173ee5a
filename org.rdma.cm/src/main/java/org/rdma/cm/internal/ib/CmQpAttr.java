package org.rdma.cm.internal.ib;

import org.rdma.cm.ib.IbCmLapState;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.MigState;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/** {@code ib_cm_init_qp_attr()}: the QP attributes of INIT, RTR and RTS from what the CM exchanged. */
final class CmQpAttr {
    private CmQpAttr() {
    }

    static int init(CmIdImpl id, QpAttr a) {
        synchronized (id) {
            return switch (a.qpState) {
                case INIT -> initAttr(id, a);
                case RTR -> rtrAttr(id, a);
                case RTS -> rtsAttr(id, a);
                default -> throw new RdmaException(Errno.EINVAL,
                        "ib_cm_init_qp_attr: the CM knows attributes for INIT, RTR and RTS, not " + a.qpState);
            };
        }
    }

    private static void require(CmIdImpl id, boolean ok, String target) {
        if (!ok || id.av.port == null) {
            throw new RdmaException(Errno.EINVAL, "ib_cm_init_qp_attr(" + target + "): " + id + " is " + id.state);
        }
    }

    /** {@code cm_init_qp_init_attr()}. */
    private static int initAttr(CmIdImpl id, QpAttr a) {
        require(id, switch (id.state) {
            case REQ_SENT, MRA_REQ_RCVD, REQ_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT, REP_SENT, MRA_REP_RCVD,
                    ESTABLISHED -> true;
            default -> false;
        }, "INIT");
        a.qpAccessFlags = AccessFlags.REMOTE_WRITE;
        if (id.responderResources != 0) {
            a.qpAccessFlags |= AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        }
        a.pkeyIndex = id.av.pkeyIndex;
        a.portNum = id.av.port.portNum;
        return QpAttrMask.STATE | QpAttrMask.ACCESS_FLAGS | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT;
    }

    /** {@code cm_init_qp_rtr_attr()}. */
    private static int rtrAttr(CmIdImpl id, QpAttr a) {
        require(id, switch (id.state) {
            case REQ_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT, REP_SENT, MRA_REP_RCVD, ESTABLISHED -> true;
            default -> false;
        }, "RTR");
        int mask = QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN;
        AhAttr.replace(a.ahAttr, id.av.ahAttr);
        a.pathMtu = Mtu.of(id.pathMtu);
        a.destQpNum = id.remoteQpn;
        a.rqPsn = id.rqPsn;
        if (id.qpType == QpType.RC || id.qpType == QpType.XRC_TGT) {
            mask |= QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;
            a.maxDestRdAtomic = id.responderResources;
            a.minRnrTimer = 0;
        }
        if (id.altAv.hasPath()) {
            mask |= QpAttrMask.ALT_PATH;
            alt(id, a);
        }
        return mask;
    }

    private static void alt(CmIdImpl id, QpAttr a) {
        a.altPortNum = id.altAv.port.portNum;
        a.altPkeyIndex = id.altAv.pkeyIndex;
        a.altTimeout = id.altAv.timeout;
        AhAttr.replace(a.altAhAttr, id.altAv.ahAttr);
    }

    /** {@code cm_init_qp_rts_attr()}: after a LAP, only the new alternate path. */
    private static int rtsAttr(CmIdImpl id, QpAttr a) {
        require(id, switch (id.state) {
            case REQ_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT, REP_SENT, MRA_REP_RCVD, ESTABLISHED -> true;
            default -> false;
        }, "RTS");
        if (id.lapState != IbCmLapState.UNINIT) {
            RdmaException.check(id.altAv.hasPath(), Errno.EINVAL, "ib_cm_init_qp_attr(RTS): " + id
                    + " has no alternate path loaded");
            alt(id, a);
            a.pathMigState = MigState.REARM;
            return QpAttrMask.ALT_PATH | QpAttrMask.PATH_MIG_STATE;
        }
        int mask = QpAttrMask.STATE | QpAttrMask.SQ_PSN;
        a.sqPsn = id.sqPsn;
        switch (id.qpType) {
            case RC, XRC_INI -> {
                mask |= QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC | QpAttrMask.TIMEOUT;
                a.retryCnt = id.retryCount;
                a.rnrRetry = id.rnrRetryCount;
                a.maxRdAtomic = id.initiatorDepth;
                a.timeout = id.av.timeout;
            }
            case XRC_TGT -> {
                mask |= QpAttrMask.TIMEOUT;
                a.timeout = id.av.timeout;
            }
            default -> {
            }
        }
        if (id.altAv.hasPath()) {
            mask |= QpAttrMask.PATH_MIG_STATE;
            a.pathMigState = MigState.REARM;
        }
        return mask;
    }
}
