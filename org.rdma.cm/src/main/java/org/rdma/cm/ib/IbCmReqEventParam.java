package org.rdma.cm.ib;

import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.QpType;

/** The REQ that arrived: {@code struct ib_cm_req_event_param}, paths seen from the receiver. */
public final class IbCmReqEventParam {
    /** {@code listen_id}: the listen that matched. */
    public IbCmId listenId;
    /** {@code bth_pkey}: the P_Key of the MAD's BTH. */
    public int bthPkey;
    /** {@code port}: the port the REQ arrived on. */
    public int port;
    /** {@code primary_path}: reversed to run from this node to the requester. */
    public PathRecord primaryPath;
    /** {@code alternate_path}, or {@code null}. */
    public PathRecord alternatePath;
    /**
     * {@code ppath_sgid_attr}: the local GID entry the primary path sends from when it has a GRH
     * (always on RoCE), else {@code null}; lent for the call ({@code hold()} it to keep it).
     */
    public GidAttr ppathSgidAttr;
    /** {@code remote_ca_guid}. */
    public long remoteCaGuid;
    /** {@code remote_qkey}. */
    public int remoteQkey;
    /** {@code remote_qpn}. */
    public int remoteQpn;
    /** {@code qp_type}. */
    public QpType qpType;
    /** {@code starting_psn}: the requester's send PSN (this side's receive PSN). */
    public int startingPsn;
    /** {@code responder_resources}: the requester's. */
    public int responderResources;
    /** {@code initiator_depth}: the requester's. */
    public int initiatorDepth;
    /** {@code local_cm_response_timeout}: the requester's local timeout. */
    public int localCmResponseTimeout;
    /** {@code flow_control}. */
    public int flowControl;
    /** {@code remote_cm_response_timeout}: how long this side may take. */
    public int remoteCmResponseTimeout;
    /** {@code retry_count}. */
    public int retryCount;
    /** {@code rnr_retry_count}. */
    public int rnrRetryCount;
    /** {@code srq}. */
    public int srq;
}
