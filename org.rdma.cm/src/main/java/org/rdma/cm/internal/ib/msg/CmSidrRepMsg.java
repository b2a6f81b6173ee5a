package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The SIDR_REP message (IBTA table 120): service ID resolution response. Mirrors {@code struct cm_sidr_rep_msg}. */
public final class CmSidrRepMsg extends CmMsg<CmSidrRepMsg> {
    /** Bytes of the Additional Information area. */
    public static final int INFO_SIZE = 72;
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 136;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmSidrRepMsg>> TABLE = List.of(
            at("cm_sidr_rep_msg:request_id", 0, 0, 32, m -> u32(m.requestId), (m, v) -> m.requestId = (int) v),
            at("cm_sidr_rep_msg:status", 4, 0, 8, m -> m.status, (m, v) -> m.status = (int) v),
            at("cm_sidr_rep_msg:additional_information_length", 5, 0, 8, m -> m.additionalInfoLength, (m, v) -> m.additionalInfoLength = (int) v),
            at("cm_sidr_rep_msg:qpn", 8, 0, 24, m -> m.qpn, (m, v) -> m.qpn = (int) v),
            at("cm_sidr_rep_msg:service_id", 12, 0, 64, m -> m.serviceId, (m, v) -> m.serviceId = v),
            at("cm_sidr_rep_msg:q_key", 20, 0, 32, m -> u32(m.qkey), (m, v) -> m.qkey = (int) v),
            data("cm_sidr_rep_msg:additional_information", 24, INFO_SIZE, m -> m.additionalInfo, (m, v) -> m.additionalInfo = v),
            data("cm_sidr_rep_msg:private_data", 96, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmSidrRepMsg> CODEC = IbCodec.of(TABLE);

    /** Request ID ({@code request_id}), 32 bits unsigned. */
    public int requestId;
    /** Status ({@code status}), 8 bits. */
    public int status;
    /** Additional Information Length ({@code additional_information_length}), 8 bits. */
    public int additionalInfoLength;
    /** QPN ({@code qpn}), 24 bits. */
    public int qpn;
    /** ServiceID ({@code service_id}). */
    public long serviceId;
    /** Q_Key ({@code q_key}), 32 bits unsigned. */
    public int qkey;
    /** Additional Information ({@code additional_information}): always {@link #INFO_SIZE} bytes. */
    public byte[] additionalInfo = new byte[INFO_SIZE];
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.SIDR_REP_ATTR_ID;
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
