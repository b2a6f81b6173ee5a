package org.rdma.cm.ib;

import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.GidAttr;

/** What {@link IbCmService#sendCmSidrReq} sends: {@code struct ib_cm_sidr_req_param}. */
public final class IbCmSidrReqParam {
    /** {@code path}: to the node resolving the service ID. */
    public PathRecord path;
    /** {@code sgid_attr}: the path's source GID entry (RoCE); optional on IB. */
    public GidAttr sgidAttr;
    /** {@code service_id}. */
    public long serviceId;
    /** {@code timeout_ms}: how long to wait for the SIDR_REP, per try. */
    public int timeoutMs;
    /** {@code private_data}: at most {@link IbCm#SIDR_REQ_PRIVATE_DATA_SIZE} bytes, or {@code null}. */
    public byte[] privateData;
    /** {@code max_cm_retries}. */
    public int maxCmRetries;
}
