package org.rdma.cm.ib;

/** The MRA that arrived: {@code struct ib_cm_mra_event_param}. */
public final class IbCmMraEventParam {
    /** {@code service_timeout}: the extra time the peer asked for (4.096 us * 2^t). */
    public int serviceTimeout;
}
