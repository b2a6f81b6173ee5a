package org.rdma.verbs;

/** Mirrors {@code enum rdma_link_layer} ({@code rdma_port_get_link_layer()}). */
public enum LinkLayer {
    /** {@code IB_LINK_LAYER_UNSPECIFIED}. */
    UNSPECIFIED,
    /** {@code IB_LINK_LAYER_INFINIBAND}. */
    INFINIBAND,
    /** {@code IB_LINK_LAYER_ETHERNET}. */
    ETHERNET;

    /** The name {@code ibv_devinfo} prints for this link layer. */
    public String displayName() {
        switch (this) {
            case INFINIBAND:
                return "InfiniBand";
            case ETHERNET:
                return "Ethernet";
            default:
                return "Unknown";
        }
    }
}
