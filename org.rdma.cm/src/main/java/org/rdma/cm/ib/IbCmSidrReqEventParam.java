package org.rdma.cm.ib;

import org.rdma.verbs.GidAttr;

/** The SIDR_REQ that arrived: {@code struct ib_cm_sidr_req_event_param}. */
public final class IbCmSidrReqEventParam {
    /** {@code listen_id}: the listen that matched. */
    public IbCmId listenId;
    /** {@code service_id}. */
    public long serviceId;
    /** {@code sgid_attr}: the local GID entry the request arrived on (with a GRH), or {@code null}; lent for the call. */
    public GidAttr sgidAttr;
    /** {@code bth_pkey}: the P_Key of the MAD's BTH. */
    public int bthPkey;
    /** {@code port}. */
    public int port;
    /** {@code pkey}: the P_Key the requester asks for. */
    public int pkey;
}
