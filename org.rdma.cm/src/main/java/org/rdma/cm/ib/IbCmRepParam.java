package org.rdma.cm.ib;

/** What {@link IbCmService#sendCmRep} puts in a REP: {@code struct ib_cm_rep_param}. */
public final class IbCmRepParam {
    /** {@code qp_num}: the local QP (24 bits). */
    public int qpNum;
    /**
     * {@code starting_psn} (24 bits): the first PSN of the active side's send queue, which is
     * this side's receive queue PSN: {@code ib_cm_init_qp_attr()} gives it for RTR once the REP
     * has been sent (the RDMA CM sets its own instead and may go to RTR first).
     */
    public int startingPsn;
    /** {@code private_data}: at most {@link IbCm#REP_PRIVATE_DATA_SIZE} bytes, or {@code null}. */
    public byte[] privateData;
    /** {@code responder_resources}. */
    public int responderResources;
    /** {@code initiator_depth}. */
    public int initiatorDepth;
    /** {@code failover_accepted}: 0 accepted, 1 rejected, 2 unsupported (IBTA table 110). */
    public int failoverAccepted;
    /** {@code flow_control}. */
    public int flowControl;
    /** {@code rnr_retry_count}: RNR NAK retries the peer's QP makes (0..7). */
    public int rnrRetryCount;
    /** {@code srq}. */
    public int srq;
}
