package org.rdma.verbs;

/** Mirrors {@code enum rdma_link_layer} ({@code rdma_port_get_link_layer()}). */
public enum LinkLayer {
    UNSPECIFIED, INFINIBAND, ETHERNET;

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
