package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/** A queue pair: {@code struct ib_qp}. */
@ProviderType
public interface IbQp {
    /** {@code qp->device}. */
    IbDevice device();

    /** {@code qp->pd}. */
    IbPd pd();

    /** {@code qp->qp_num}. */
    int qpNum();

    /** {@code qp->qp_type}. */
    QpType qpType();

    /** {@code qp->send_cq}. */
    IbCq sendCq();

    /** {@code qp->recv_cq}. */
    IbCq recvCq();

    /** {@code qp->srq}, or {@code null}. */
    IbSrq srq();

    /** {@code qp->qp_context}. */
    Object context();

    /** {@code qp->port}: the port of SMI/GSI QPs and QPs moved to INIT with a port; else 0. */
    int port();

    /** The current state as the driver reports it. */
    QpState state();

    /**
     * {@code ib_modify_qp()}: the transition and mask are checked as
     * {@link QpStateTable#modifyQpIsOk} does (EINVAL), addresses are resolved, then the driver runs.
     */
    void modify(QpAttr attr, int mask);

    /** {@code ib_query_qp()}: fills {@code attr} and {@code init}. */
    void query(QpAttr attr, int mask, QpInitAttr init);

    /**
     * {@code ib_post_send()}: posts the chain; returns 0, or a negative errno with
     * {@code badWr[0]} (if given) set to the first request not posted.
     */
    int postSend(SendWr wr, SendWr[] badWr);

    /** {@code ib_post_recv()}: as {@link #postSend} for the receive queue. */
    int postRecv(RecvWr wr, RecvWr[] badWr);

    /** {@code ib_attach_mcast()}: UD QPs only. */
    void attachMcast(Gid gid, int lid);

    /** {@code ib_detach_mcast()}. */
    void detachMcast(Gid gid, int lid);

    /**
     * {@code ib_drain_sq()}: moves the QP to ERR and returns once every send posted before the
     * call has completed. The send CQ must not be {@link PollContext#DIRECT}.
     */
    void drainSq();

    /** {@code ib_drain_rq()}: as {@link #drainSq} for the receive queue. */
    void drainRq();

    /** {@code ib_drain_qp()}: {@link #drainSq} then, without an SRQ, {@link #drainRq}. */
    void drain();

    /**
     * {@code ib_destroy_qp()}: outstanding work requests are flushed first; the QP's MR pools
     * ({@code rdma_rw_cleanup_mrs()}) are destroyed with it.
     */
    void destroy();

    /** {@code qp->max_write_sge}: SGEs one RDMA WRITE may carry (the QP's {@code max_send_sge}). */
    default int maxWriteSge() {
        return 1;
    }

    /** {@code qp->max_read_sge}: SGEs one RDMA READ may carry ({@code max_send_sge} capped by {@code max_sge_rd}). */
    default int maxReadSge() {
        return 1;
    }

    /** {@code qp->integrity_en}: created with {@link QpInitAttr#CREATE_INTEGRITY_EN}. */
    default boolean integrityEn() {
        return false;
    }

    /** {@code qp->rdma_mrs}: the fast-registration MRs {@code rdma_rw} uses for plain transfers. */
    default IbMrPool rdmaMrs() {
        throw new RdmaException(Errno.EOPNOTSUPP, "this QP has no MR pools");
    }

    /** {@code qp->sig_mrs}: the {@link MrType#INTEGRITY} MRs {@code rdma_rw} uses for signature transfers. */
    default IbMrPool sigMrs() {
        throw new RdmaException(Errno.EOPNOTSUPP, "this QP has no MR pools");
    }

    /** {@code qp->mrs_used}: MRs taken from this QP's pools and not yet put back. */
    default int mrsUsed() {
        return 0;
    }
}
