package org.rdma.cm.rdma;

/** Mirrors {@code enum rdma_cm_state} (cma_priv.h): where an id is in its life. */
public enum RdmaCmState {
    /** {@code RDMA_CM_IDLE}. */
    IDLE,
    /** {@code RDMA_CM_ADDR_QUERY}. */
    ADDR_QUERY,
    /** {@code RDMA_CM_ADDR_RESOLVED}. */
    ADDR_RESOLVED,
    /** {@code RDMA_CM_ROUTE_QUERY}. */
    ROUTE_QUERY,
    /** {@code RDMA_CM_ROUTE_RESOLVED}. */
    ROUTE_RESOLVED,
    /** {@code RDMA_CM_CONNECT}. */
    CONNECT,
    /** {@code RDMA_CM_DISCONNECT}. */
    DISCONNECT,
    /** {@code RDMA_CM_ADDR_BOUND}. */
    ADDR_BOUND,
    /** {@code RDMA_CM_LISTEN}. */
    LISTEN,
    /** {@code RDMA_CM_DEVICE_REMOVAL}. */
    DEVICE_REMOVAL,
    /** {@code RDMA_CM_DESTROYING}. */
    DESTROYING
}
