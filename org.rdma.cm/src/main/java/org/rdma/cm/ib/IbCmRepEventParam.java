package org.rdma.cm.ib;

/** The REP that arrived: {@code struct ib_cm_rep_event_param}. */
public final class IbCmRepEventParam {
    /** {@code remote_ca_guid}. */
    public long remoteCaGuid;
    /** {@code remote_qkey}. */
    public int remoteQkey;
    /** {@code remote_qpn}. */
    public int remoteQpn;
    /** {@code starting_psn}. */
    public int startingPsn;
    /** {@code responder_resources}. */
    public int responderResources;
    /** {@code initiator_depth}. */
    public int initiatorDepth;
    /** {@code target_ack_delay}. */
    public int targetAckDelay;
    /** {@code failover_accepted}. */
    public int failoverAccepted;
    /** {@code flow_control}. */
    public int flowControl;
    /** {@code rnr_retry_count}. */
    public int rnrRetryCount;
    /** {@code srq}. */
    public int srq;
}
