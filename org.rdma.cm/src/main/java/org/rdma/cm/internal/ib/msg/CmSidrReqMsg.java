package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The SIDR_REQ message (IBTA table 119): service ID resolution request. Mirrors {@code struct cm_sidr_req_msg}. */
public final class CmSidrReqMsg extends CmMsg<CmSidrReqMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 216;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmSidrReqMsg>> TABLE = List.of(
            at("cm_sidr_req_msg:request_id", 0, 0, 32, m -> u32(m.requestId), (m, v) -> m.requestId = (int) v),
            at("cm_sidr_req_msg:partition_key", 4, 0, 16, m -> m.partitionKey, (m, v) -> m.partitionKey = (int) v),
            at("cm_sidr_req_msg:service_id", 8, 0, 64, m -> m.serviceId, (m, v) -> m.serviceId = v),
            data("cm_sidr_req_msg:private_data", 16, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmSidrReqMsg> CODEC = IbCodec.of(TABLE);

    /** Request ID ({@code request_id}), 32 bits unsigned. */
    public int requestId;
    /** Partition Key ({@code partition_key}), 16 bits. */
    public int partitionKey;
    /** ServiceID ({@code service_id}). */
    public long serviceId;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.SIDR_REQ_ATTR_ID;
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
