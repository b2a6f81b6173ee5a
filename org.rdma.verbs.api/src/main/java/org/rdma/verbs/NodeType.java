package org.rdma.verbs;

/** Mirrors {@code enum rdma_node_type}. */
public enum NodeType {
    CA(1), SWITCH(2), ROUTER(3), RNIC(4), USNIC(5), USNIC_UDP(6), UNSPECIFIED(7);

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
