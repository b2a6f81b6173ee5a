package org.rdma.cm.internal.rdma;

import java.lang.System.Logger.Level;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * The QP an id owns: {@code rdma_create_qp()} / {@code rdma_destroy_qp()},
 * {@code rdma_init_qp_attr()} ({@code cma_ib_init_qp_attr()} before the IB CM knows the peer,
 * {@code ib_cm_init_qp_attr()} after), and the transitions the CM makes for the consumer
 * ({@code cma_modify_qp_rtr/rts/err()}), all under the id's {@code qpLock}.
 */
final class CmaQp {
    private static final System.Logger LOG = System.getLogger(CmaQp.class.getName());

    private final Cma cma;

    CmaQp(Cma cma) {
        this.cma = cma;
    }

    /** {@code rdma_create_qp()}. */
    IbQp createQp(CmaId id, IbPd pd, QpInitAttr init) {
        IbDevice d = id.device;
        Cma.check(d != null, Errno.EINVAL, () -> "rdma_create_qp: " + id + " is not bound to a device");
        Cma.check(pd != null && pd.device() == d, Errno.EINVAL, () -> "rdma_create_qp: the PD is not on "
                + d.name());
        Cma.check(init.qpType == id.qpType, Errno.EINVAL, () -> "rdma_create_qp: a " + init.qpType
                + " QP for a " + id.qpType + " id");
        synchronized (id.qpLock) {
            Cma.check(id.qp == null, Errno.EINVAL, () -> "rdma_create_qp: " + id + " has a QP already");
            init.portNum = id.port;
            IbQp qp = pd.createQp(init);
            try {
                if (id.qpType == QpType.UD) {
                    initUdQp(id, qp);
                } else {
                    initConnQp(id, qp);
                }
            } catch (RuntimeException e) {
                qp.destroy();
                throw e;
            }
            id.qp = qp;
            id.qpNum = qp.qpNum();
            id.srq = init.srq != null;
            return qp;
        }
    }

    /** {@code cma_init_ud_qp()}: INIT with the Q_Key, then RTR and RTS. */
    private void initUdQp(CmaId id, IbQp qp) {
        QpAttr a = new QpAttr();
        a.qpState = QpState.INIT;
        qp.modify(a, initQpAttr(id, a));
        a.qpState = QpState.RTR;
        qp.modify(a, QpAttrMask.STATE);
        a.qpState = QpState.RTS;
        a.sqPsn = 0;
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
    }

    /** {@code cma_init_conn_qp()}: INIT. */
    private void initConnQp(CmaId id, IbQp qp) {
        QpAttr a = new QpAttr();
        a.qpState = QpState.INIT;
        qp.modify(a, initQpAttr(id, a));
    }

    /** {@code rdma_destroy_qp()}: detached from the groups the CM attached it to first. */
    void destroyQp(CmaId id) {
        IbQp qp;
        synchronized (id.qpLock) {
            qp = id.qp;
            Cma.check(qp != null, Errno.EINVAL, () -> "rdma_destroy_qp: " + id + " has no QP");
            cma.mc.detachAll(id);
            id.qp = null;
        }
        qp.destroy();
    }

    /** A QP the consumer left on an id being destroyed or losing its device. */
    void destroyLeftover(CmaId id) {
        IbQp qp;
        synchronized (id.qpLock) {
            qp = id.qp;
            if (qp != null) {
                cma.mc.detachAll(id);
            }
            id.qp = null;
        }
        if (qp != null) {
            try {
                qp.destroy();
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "{0}: QP not destroyed: {1}", id, e.getMessage());
            }
        }
    }

    /** {@code rdma_init_qp_attr()}. */
    int initQpAttr(CmaId id, QpAttr a) {
        Cma.check(id.device != null, Errno.EINVAL, () -> "rdma_init_qp_attr: " + id + " is not bound to a device");
        IbCmId cm = id.cmId;
        int mask;
        if (cm == null || id.qpType == QpType.UD) {
            mask = ibInitQpAttr(id, a);
        } else {
            mask = cma.ibcm.cmInitQpAttr(cm, a);
        }
        synchronized (id.qpLock) {
            if (a.qpState == QpState.RTR) {
                a.rqPsn = id.seqNum;
            }
            if ((mask & QpAttrMask.TIMEOUT) != 0 && id.timeoutSet) {
                a.timeout = id.timeout;
            }
        }
        return mask;
    }

    /** {@code cma_ib_init_qp_attr()}: P_Key index, port, and the Q_Key (UD) or no remote access. */
    private int ibInitQpAttr(CmaId id, QpAttr a) {
        CmaDevice cd = id.cmaDev;
        boolean roce = cd != null && cd.isRoce(id.port);
        int pkey;
        synchronized (id) {
            pkey = roce ? 0xFFFF : id.pkey;
        }
        a.pkeyIndex = id.device.findPkey(id.port, pkey);
        a.portNum = id.port;
        int mask = QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT;
        if (id.qpType == QpType.UD) {
            a.qkey = setDefaultQkey(id);
            mask |= QpAttrMask.QKEY;
        } else {
            a.qpAccessFlags = 0;
            mask |= QpAttrMask.ACCESS_FLAGS;
        }
        return mask;
    }

    /** {@code cma_set_default_qkey()}: {@link RdmaCm#UDP_QKEY} for the UDP and IB port spaces. */
    int setDefaultQkey(CmaId id) {
        synchronized (id.qpLock) {
            if (id.qkey == 0 && (id.ps == RdmaPortSpace.UDP || id.ps == RdmaPortSpace.IB)) {
                id.qkey = RdmaCm.UDP_QKEY;
            }
            return id.qkey;
        }
    }

    /** {@code cma_set_qkey()}: EINVAL for 0 or a Q_Key other than the one the id has. */
    void setQkey(CmaId id, int qkey) {
        synchronized (id.qpLock) {
            Cma.check(qkey != 0 && (id.qkey == 0 || id.qkey == qkey), Errno.EINVAL,
                    () -> "Q_Key 0x" + Integer.toHexString(qkey) + " for " + id + " which uses 0x" + Integer.toHexString(id.qkey));
            id.qkey = qkey;
        }
    }

    /** {@code cma_modify_qp_rtr()}: INIT again with the IB CM's attributes, then RTR. */
    void modifyRtr(CmaId id, RdmaConnParam conn) {
        synchronized (id.qpLock) {
            IbQp qp = id.qp;
            if (qp == null) {
                return;
            }
            QpAttr a = new QpAttr();
            try {
                a.qpState = QpState.INIT;
                qp.modify(a, initQpAttr(id, a));
                a.qpState = QpState.RTR;
                int mask = initQpAttr(id, a);
                if (conn != null) {
                    a.maxDestRdAtomic = conn.responderResources;
                }
                qp.modify(a, mask);
            } finally {
                release(a);
            }
        }
    }

    /** {@code cma_modify_qp_rts()}. */
    void modifyRts(CmaId id, RdmaConnParam conn) {
        synchronized (id.qpLock) {
            IbQp qp = id.qp;
            if (qp == null) {
                return;
            }
            QpAttr a = new QpAttr();
            try {
                a.qpState = QpState.RTS;
                int mask = initQpAttr(id, a);
                if (conn != null) {
                    a.maxRdAtomic = conn.initiatorDepth;
                }
                qp.modify(a, mask);
            } finally {
                release(a);
            }
        }
    }

    /** {@code cma_modify_qp_err()}: flushes what the consumer posted; false if the QP refused. */
    boolean modifyErr(CmaId id) {
        synchronized (id.qpLock) {
            IbQp qp = id.qp;
            if (qp == null) {
                return true;
            }
            QpAttr a = new QpAttr();
            a.qpState = QpState.ERR;
            try {
                qp.modify(a, QpAttrMask.STATE);
                return true;
            } catch (RdmaException e) {
                LOG.log(Level.DEBUG, "{0}: QP not moved to ERR: {1}", id, e.getMessage());
                return false;
            }
        }
    }

    /** The SGID references the IB CM's address vectors took in {@code a}. */
    static void release(QpAttr a) {
        AhAttr.destroy(a.ahAttr);
        AhAttr.destroy(a.altAhAttr);
    }
}
