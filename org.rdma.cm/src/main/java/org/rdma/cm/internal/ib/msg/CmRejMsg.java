package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The REJ message (IBTA table 108): a connection request or reply rejected. Mirrors {@code struct cm_rej_msg}. */
public final class CmRejMsg extends CmMsg<CmRejMsg> {
    /** Bytes of the Additional Reject Information area. */
    public static final int ARI_SIZE = 72;
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 148;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmRejMsg>> TABLE = List.of(
            at("cm_rej_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_rej_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            at("cm_rej_msg:message_rejected", 8, 0, 2, m -> m.messageRejected, (m, v) -> m.messageRejected = (int) v),
            at("cm_rej_msg:reject_info_length", 9, 0, 7, m -> m.rejectInfoLength, (m, v) -> m.rejectInfoLength = (int) v),
            at("cm_rej_msg:reason", 10, 0, 16, m -> m.reason, (m, v) -> m.reason = (int) v),
            data("cm_rej_msg:ari", 12, ARI_SIZE, m -> m.ari, (m, v) -> m.ari = v),
            data("cm_rej_msg:private_data", 84, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmRejMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Message Rejected: 0 REQ, 1 REP, 2 other ({@code message_rejected}), 2 bits. */
    public int messageRejected;
    /** Reject Info Length: valid bytes of the ARI ({@code reject_info_length}), 7 bits. */
    public int rejectInfoLength;
    /** Reason ({@code reason}), 16 bits. */
    public int reason;
    /** Additional Reject Information ({@code ari}): always {@link #ARI_SIZE} bytes. */
    public byte[] ari = new byte[ARI_SIZE];
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.REJ_ATTR_ID;
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
