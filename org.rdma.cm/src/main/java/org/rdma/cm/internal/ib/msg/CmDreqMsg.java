package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The DREQ message (IBTA table 112): a disconnect request. Mirrors {@code struct cm_dreq_msg}. */
public final class CmDreqMsg extends CmMsg<CmDreqMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 220;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmDreqMsg>> TABLE = List.of(
            at("cm_dreq_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_dreq_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            at("cm_dreq_msg:remote_qpn_eecn", 8, 0, 24, m -> m.remoteQpnEecn, (m, v) -> m.remoteQpnEecn = (int) v),
            data("cm_dreq_msg:private_data", 12, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmDreqMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Remote QPN/EECN ({@code remote_qpn_eecn}), 24 bits. */
    public int remoteQpnEecn;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.DREQ_ATTR_ID;
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
