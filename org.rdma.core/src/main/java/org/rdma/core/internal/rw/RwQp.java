package org.rdma.core.internal.rw;

import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.MrType;
import org.rdma.verbs.QpInitAttr;

/**
 * The QP side of {@code rdma_rw} that {@code ib_create_qp()} and {@code ib_destroy_qp()} run:
 * room in the send queue for {@code max_rdma_ctxs} contexts, and the QP's MR pools.
 */
public final class RwQp {
    private RwQp() {
    }

    /**
     * {@code rdma_rw_init_qp()}: each context posts one READ/WRITE, plus a registration and an
     * invalidation where MRs may be used; the total is capped by {@code max_qp_wr}.
     */
    public static void initQp(IbDevice dev, DeviceAttr a, QpInitAttr attr) {
        int factor = 1;
        if ((attr.createFlags & QpInitAttr.CREATE_INTEGRITY_EN) != 0 || RwPolicy.canUseMr(dev, a, attr.portNum)) {
            factor += 2;
        }
        long wr = attr.cap.maxSendWr + (long) factor * attr.cap.maxRdmaCtxs;
        attr.cap.maxSendWr = (int) Math.min(wr, a.maxQpWr);
    }

    /**
     * {@code rdma_rw_init_mrs()}: with integrity, {@code max_rdma_ctxs} MEM_REG and as many
     * INTEGRITY MRs of the signature page-list length; else MEM_REG MRs only where the device
     * may use them. Throws the allocation error with both pools empty.
     */
    public static void initMrs(IbQp qp, DeviceAttr a, QpInitAttr attr) {
        int nrMrs = 0;
        int nrSigMrs = 0;
        int maxNumSg = 0;
        if ((attr.createFlags & QpInitAttr.CREATE_INTEGRITY_EN) != 0) {
            nrSigMrs = attr.cap.maxRdmaCtxs;
            nrMrs = attr.cap.maxRdmaCtxs;
            maxNumSg = RwPolicy.frPageListLen(a, true);
        } else if (RwPolicy.canUseMr(qp.device(), a, attr.portNum)) {
            nrMrs = attr.cap.maxRdmaCtxs;
            maxNumSg = RwPolicy.frPageListLen(a, false);
        }
        if (nrMrs > 0) {
            qp.rdmaMrs().init(nrMrs, MrType.MEM_REG, maxNumSg, 0);
        }
        if (nrSigMrs > 0) {
            try {
                qp.sigMrs().init(nrSigMrs, MrType.INTEGRITY, maxNumSg, maxNumSg);
            } catch (RuntimeException e) {
                qp.rdmaMrs().destroy();
                throw e;
            }
        }
    }

    /** {@code rdma_rw_cleanup_mrs()}. */
    public static void cleanupMrs(IbQp qp) {
        qp.sigMrs().destroy();
        qp.rdmaMrs().destroy();
    }
}
