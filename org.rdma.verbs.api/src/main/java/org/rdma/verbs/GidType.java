package org.rdma.verbs;

/** Mirrors {@code enum ib_gid_type}. */
public enum GidType {
    /** {@code IB_GID_TYPE_IB}. */
    IB,
    /** {@code IB_GID_TYPE_ROCE}. */
    ROCE,
    /** {@code IB_GID_TYPE_ROCE_UDP_ENCAP}. */
    ROCE_UDP_ENCAP;

    /** The name {@code rdma link}/sysfs print ("IB/RoCE v1", "RoCE v2"). */
    public String displayName() {
        return this == ROCE_UDP_ENCAP ? "RoCE v2" : this == ROCE ? "IB/RoCE v1" : "IB";
    }
}
