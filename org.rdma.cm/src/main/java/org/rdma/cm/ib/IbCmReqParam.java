package org.rdma.cm.ib;

import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.QpType;

/** What {@link IbCmService#sendCmReq} puts in a REQ: {@code struct ib_cm_req_param}. */
public final class IbCmReqParam {
    /** {@code primary_path}: required; its SGID (and {@link #ppathSgidAttr}) picks the port. */
    public PathRecord primaryPath;
    /** {@code alternate_path}: optional, for automatic path migration. */
    public PathRecord alternatePath;
    /** {@code ppath_sgid_attr}: the primary path's source GID entry (RoCE); optional on IB. */
    public GidAttr ppathSgidAttr;
    /** {@code service_id}. */
    public long serviceId;
    /** {@code qp_num}: the local QP (24 bits). */
    public int qpNum;
    /** {@code qp_type}: {@link QpType#RC}, {@link QpType#UC} or {@link QpType#XRC_INI}. */
    public QpType qpType = QpType.RC;
    /**
     * {@code starting_psn} (24 bits): the first PSN of the passive side's send queue, which is
     * this side's receive queue PSN ({@code ib_cm_init_qp_attr()} RTR here, RTS there).
     */
    public int startingPsn;
    /** {@code private_data}: at most {@link IbCm#REQ_PRIVATE_DATA_SIZE} bytes, or {@code null}. */
    public byte[] privateData;
    /** {@code responder_resources}: RDMA READ/atomic requests the local QP accepts. */
    public int responderResources;
    /** {@code initiator_depth}: RDMA READ/atomic requests the local QP issues. */
    public int initiatorDepth;
    /** {@code remote_cm_response_timeout}: how long the peer may take to answer (4.096 us * 2^t). */
    public int remoteCmResponseTimeout;
    /** {@code flow_control}: end-to-end flow control (0 or 1). */
    public int flowControl;
    /** {@code local_cm_response_timeout}: how long the local side takes to answer the REP. */
    public int localCmResponseTimeout;
    /** {@code retry_count}: transport retries (0..7). */
    public int retryCount;
    /** {@code rnr_retry_count}: RNR NAK retries (0..7, 7 = infinite). */
    public int rnrRetryCount;
    /** {@code max_cm_retries}: resends of an unanswered REQ (0..15). */
    public int maxCmRetries;
    /** {@code srq}: the local QP uses an SRQ (0 or 1). */
    public int srq;
}
