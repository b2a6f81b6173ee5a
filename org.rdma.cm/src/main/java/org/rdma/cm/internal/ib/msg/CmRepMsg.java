package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The REP message (IBTA table 110): the passive side accepts a REQ. Mirrors {@code struct cm_rep_msg}. */
public final class CmRepMsg extends CmMsg<CmRepMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 196;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmRepMsg>> TABLE = List.of(
            at("cm_rep_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_rep_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            at("cm_rep_msg:local_q_key", 8, 0, 32, m -> u32(m.localQkey), (m, v) -> m.localQkey = (int) v),
            at("cm_rep_msg:local_qpn", 12, 0, 24, m -> m.localQpn, (m, v) -> m.localQpn = (int) v),
            at("cm_rep_msg:local_eecn", 16, 0, 24, m -> m.localEecn, (m, v) -> m.localEecn = (int) v),
            at("cm_rep_msg:starting_psn", 20, 0, 24, m -> m.startingPsn, (m, v) -> m.startingPsn = (int) v),
            at("cm_rep_msg:responder_resources", 24, 0, 8, m -> m.responderResources, (m, v) -> m.responderResources = (int) v),
            at("cm_rep_msg:initiator_depth", 25, 0, 8, m -> m.initiatorDepth, (m, v) -> m.initiatorDepth = (int) v),
            at("cm_rep_msg:target_ack_delay", 26, 0, 5, m -> m.targetAckDelay, (m, v) -> m.targetAckDelay = (int) v),
            at("cm_rep_msg:failover_accepted", 26, 5, 2, m -> m.failoverAccepted, (m, v) -> m.failoverAccepted = (int) v),
            at("cm_rep_msg:end_to_end_flow_control", 26, 7, 1, m -> m.endToEndFlowControl, (m, v) -> m.endToEndFlowControl = (int) v),
            at("cm_rep_msg:rnr_retry_count", 27, 0, 3, m -> m.rnrRetryCount, (m, v) -> m.rnrRetryCount = (int) v),
            at("cm_rep_msg:srq", 27, 3, 1, m -> m.srq, (m, v) -> m.srq = (int) v),
            at("cm_rep_msg:local_ca_guid", 28, 0, 64, m -> m.localCaGuid, (m, v) -> m.localCaGuid = v),
            data("cm_rep_msg:private_data", 36, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmRepMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Local Q_Key ({@code local_q_key}), 32 bits unsigned. */
    public int localQkey;
    /** Local QPN ({@code local_qpn}), 24 bits. */
    public int localQpn;
    /** Local EE Context Number ({@code local_eecn}), 24 bits. */
    public int localEecn;
    /** Starting PSN ({@code starting_psn}), 24 bits. */
    public int startingPsn;
    /** Responder Resources ({@code responder_resources}), 8 bits. */
    public int responderResources;
    /** Initiator Depth ({@code initiator_depth}), 8 bits. */
    public int initiatorDepth;
    /** Target ACK Delay ({@code target_ack_delay}), 5 bits. */
    public int targetAckDelay;
    /** Failover Accepted ({@code failover_accepted}), 2 bits. */
    public int failoverAccepted;
    /** End-to-End Flow Control ({@code end_to_end_flow_control}), 1 bits. */
    public int endToEndFlowControl;
    /** RNR Retry Count ({@code rnr_retry_count}), 3 bits. */
    public int rnrRetryCount;
    /** SRQ ({@code srq}), 1 bits. */
    public int srq;
    /** Local CA GUID ({@code local_ca_guid}). */
    public long localCaGuid;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.REP_ATTR_ID;
    }

    @Override
    protected void packFields(byte[] buf, int off) {
        CODEC.pack(this, buf, off);
    }

    @Override
    protected void unpackFields(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
    }
}
