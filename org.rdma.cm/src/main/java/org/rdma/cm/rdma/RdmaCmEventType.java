package org.rdma.cm.rdma;

/** Mirrors {@code enum rdma_cm_event_type}; {@link #value()} is the kernel's number. */
public enum RdmaCmEventType {
    /** {@code RDMA_CM_EVENT_ADDR_RESOLVED}. */
    ADDR_RESOLVED("address resolved"),
    /** {@code RDMA_CM_EVENT_ADDR_ERROR}. */
    ADDR_ERROR("address error"),
    /** {@code RDMA_CM_EVENT_ROUTE_RESOLVED}. */
    ROUTE_RESOLVED("route resolved"),
    /** {@code RDMA_CM_EVENT_ROUTE_ERROR}. */
    ROUTE_ERROR("route error"),
    /** {@code RDMA_CM_EVENT_CONNECT_REQUEST}: reported on a new id the consumer then owns. */
    CONNECT_REQUEST("connect request"),
    /** {@code RDMA_CM_EVENT_CONNECT_RESPONSE}: a REP arrived for an id without a CM-managed QP. */
    CONNECT_RESPONSE("connect response"),
    /** {@code RDMA_CM_EVENT_CONNECT_ERROR}. */
    CONNECT_ERROR("connect error"),
    /** {@code RDMA_CM_EVENT_UNREACHABLE}: the peer did not answer (CM timeout) or refused SIDR. */
    UNREACHABLE("unreachable"),
    /** {@code RDMA_CM_EVENT_REJECTED}: status is the IB CM reject reason. */
    REJECTED("rejected"),
    /** {@code RDMA_CM_EVENT_ESTABLISHED}. */
    ESTABLISHED("established"),
    /** {@code RDMA_CM_EVENT_DISCONNECTED}. */
    DISCONNECTED("disconnected"),
    /** {@code RDMA_CM_EVENT_DEVICE_REMOVAL}: the id's device is going away. */
    DEVICE_REMOVAL("device removal"),
    /** {@code RDMA_CM_EVENT_MULTICAST_JOIN}. */
    MULTICAST_JOIN("multicast join"),
    /** {@code RDMA_CM_EVENT_MULTICAST_ERROR}. */
    MULTICAST_ERROR("multicast error"),
    /** {@code RDMA_CM_EVENT_ADDR_CHANGE}. */
    ADDR_CHANGE("address change"),
    /** {@code RDMA_CM_EVENT_TIMEWAIT_EXIT}: the QP may be reused. */
    TIMEWAIT_EXIT("timewait exit");

    private final String message;

    RdmaCmEventType(String message) {
        this.message = message;
    }

    /** The kernel value. */
    public int value() {
        return ordinal();
    }

    /** {@code rdma_event_msg()}: the kernel's text for the event. */
    public String message() {
        return message;
    }

    /** {@code rdma_event_str()} of librdmacm: the constant's name, e.g. {@code RDMA_CM_EVENT_ESTABLISHED}. */
    public String eventStr() {
        return "RDMA_CM_EVENT_" + name();
    }
}
