package org.rdma.verbs;

/** Mirrors {@code enum rdma_ah_attr_type}. */
public enum AhAttrType {
    UNDEFINED, IB, ROCE, OPA
}
