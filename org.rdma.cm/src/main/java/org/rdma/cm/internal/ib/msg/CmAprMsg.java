package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The APR message (IBTA table 116): the answer to a LAP. Mirrors {@code struct cm_apr_msg}. */
public final class CmAprMsg extends CmMsg<CmAprMsg> {
    /** Bytes of the Additional Information area. */
    public static final int INFO_SIZE = 72;
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 148;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmAprMsg>> TABLE = List.of(
            at("cm_apr_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_apr_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            at("cm_apr_msg:additional_information_length", 8, 0, 8, m -> m.additionalInfoLength, (m, v) -> m.additionalInfoLength = (int) v),
            at("cm_apr_msg:ar_status", 9, 0, 8, m -> m.apStatus, (m, v) -> m.apStatus = (int) v),
            data("cm_apr_msg:additional_information", 12, INFO_SIZE, m -> m.additionalInfo, (m, v) -> m.additionalInfo = v),
            data("cm_apr_msg:private_data", 84, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmAprMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Additional Information Length ({@code additional_information_length}), 8 bits. */
    public int additionalInfoLength;
    /** AP Status ({@code ar_status}), 8 bits. */
    public int apStatus;
    /** Additional Information ({@code additional_information}): always {@link #INFO_SIZE} bytes. */
    public byte[] additionalInfo = new byte[INFO_SIZE];
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.APR_ATTR_ID;
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
