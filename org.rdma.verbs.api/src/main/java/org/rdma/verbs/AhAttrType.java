package org.rdma.verbs;

/** Mirrors {@code enum rdma_ah_attr_type}. */
public enum AhAttrType {
    /** {@code RDMA_AH_ATTR_TYPE_UNDEFINED}: the core fills it from the port's link layer. */
    UNDEFINED,
    /** {@code RDMA_AH_ATTR_TYPE_IB}. */
    IB,
    /** {@code RDMA_AH_ATTR_TYPE_ROCE}. */
    ROCE,
    /** {@code RDMA_AH_ATTR_TYPE_OPA}. */
    OPA
}
