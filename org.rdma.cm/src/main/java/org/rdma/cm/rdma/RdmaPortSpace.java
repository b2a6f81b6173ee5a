package org.rdma.cm.rdma;

/**
 * Mirrors {@code enum rdma_ucm_port_space}: the port space of an id. The IB service ID of an IP
 * port is {@code value << 16 | port} under the RDMA CM's prefix ({@code rdma_get_service_id()}).
 */
public enum RdmaPortSpace {
    /** {@code RDMA_PS_IPOIB}. */
    IPOIB(0x0002),
    /** {@code RDMA_PS_IB}: connected or UD, QP type taken from the request. */
    IB(0x013F),
    /** {@code RDMA_PS_TCP}: reliable connected. */
    TCP(0x0106),
    /** {@code RDMA_PS_UDP}: unreliable datagram. */
    UDP(0x0111);

    /** The kernel value. */
    public final int value;

    RdmaPortSpace(int value) {
        this.value = value;
    }

    /** The port space with kernel value {@code value}, or {@code null}. */
    public static RdmaPortSpace of(int value) {
        for (RdmaPortSpace p : values()) {
            if (p.value == value) {
                return p;
            }
        }
        return null;
    }
}
