package org.rdma.cm.rdma;

/**
 * {@code struct rdma_conn_param}: what {@link RdmaCmService#connect} and {@link RdmaCmService#accept}
 * send, and what {@code CONNECT_REQUEST}, {@code CONNECT_RESPONSE}, {@code ESTABLISHED} and
 * {@code REJECTED} events report ({@link RdmaCmEvent#conn()}).
 */
public final class RdmaConnParam {
    /** {@code private_data}: the consumer's part, without the IP CM header; {@code null} for none. */
    public byte[] privateData;
    /** {@code responder_resources}: RDMA READ/atomic requests the local QP accepts. */
    public int responderResources;
    /** {@code initiator_depth}: RDMA READ/atomic requests the local QP issues. */
    public int initiatorDepth;
    /** {@code flow_control}. */
    public int flowControl;
    /** {@code retry_count}: transport retries (ignored by accept). */
    public int retryCount;
    /** {@code rnr_retry_count}: RNR NAK retries, 7 = infinite. */
    public int rnrRetryCount;
    /** {@code srq}: the QP uses an SRQ (only when the QP is not the CM's). */
    public int srq;
    /** {@code qp_num}: the QP (only when the id has no QP of {@link RdmaCmService#createQp}). */
    public int qpNum;
    /** {@code qkey}: the Q_Key a UD accept answers with, 0 for the port space's default. */
    public int qkey;

    /** The private data, never {@code null}. */
    public byte[] privateDataOrEmpty() {
        return privateData == null ? new byte[0] : privateData;
    }

    @Override
    public String toString() {
        return "RdmaConnParam[rr=" + responderResources + " id=" + initiatorDepth + " qpn=0x"
                + Integer.toHexString(qpNum) + " pd=" + (privateData == null ? 0 : privateData.length) + "B]";
    }
}
