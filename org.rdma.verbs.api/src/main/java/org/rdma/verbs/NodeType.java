package org.rdma.verbs;

/** Mirrors {@code enum rdma_node_type}. */
public enum NodeType {
    /** {@code RDMA_NODE_IB_CA}. */
    CA(1),
    /** {@code RDMA_NODE_IB_SWITCH}. */
    SWITCH(2),
    /** {@code RDMA_NODE_IB_ROUTER}. */
    ROUTER(3),
    /** {@code RDMA_NODE_RNIC}. */
    RNIC(4),
    /** {@code RDMA_NODE_USNIC}. */
    USNIC(5),
    /** {@code RDMA_NODE_USNIC_UDP}. */
    USNIC_UDP(6),
    /** {@code RDMA_NODE_UNSPECIFIED}. */
    UNSPECIFIED(7);

    /** The kernel value (also the SMP NodeInfo NodeType for CA, switch, router). */
    public final int value;

    NodeType(int value) {
        this.value = value;
    }

    /** The node type with this kernel value. */
    public static NodeType of(int value) {
        for (NodeType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new RdmaException(Errno.EINVAL, "unknown node type " + value);
    }
}
