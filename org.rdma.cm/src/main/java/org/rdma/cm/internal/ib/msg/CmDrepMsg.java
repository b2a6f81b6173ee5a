package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The DREP message (IBTA table 113): the reply to a DREQ. Mirrors {@code struct cm_drep_msg}. */
public final class CmDrepMsg extends CmMsg<CmDrepMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 224;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmDrepMsg>> TABLE = List.of(
            at("cm_drep_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_drep_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            data("cm_drep_msg:private_data", 8, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmDrepMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.DREP_ATTR_ID;
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
