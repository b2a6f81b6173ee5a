package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The MRA message (IBTA table 107): message receipt acknowledgement, asking for more time. Mirrors {@code struct cm_mra_msg}. */
public final class CmMraMsg extends CmMsg<CmMraMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 222;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmMraMsg>> TABLE = List.of(
            at("cm_mra_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_mra_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            at("cm_mra_msg:message_mraed", 8, 0, 2, m -> m.messageMraed, (m, v) -> m.messageMraed = (int) v),
            at("cm_mra_msg:service_timeout", 9, 0, 5, m -> m.serviceTimeout, (m, v) -> m.serviceTimeout = (int) v),
            data("cm_mra_msg:private_data", 10, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmMraMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Message MRAed: 0 REQ, 1 REP, 2 LAP ({@code message_mraed}), 2 bits. */
    public int messageMraed;
    /** Service Timeout ({@code service_timeout}), 5 bits. */
    public int serviceTimeout;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.MRA_ATTR_ID;
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
