package org.rdma.verbs;

/** Mirrors {@code enum ib_qp_type}. */
public enum QpType {
    SMI(0), GSI(1), RC(2), UC(3), UD(4), RAW_IPV6(5), RAW_ETHERTYPE(6), RAW_PACKET(8),
    XRC_INI(9), XRC_TGT(10), DRIVER(0xFF);

    /** The kernel value. */
    public final int value;

    QpType(int value) {
        this.value = value;
    }

    /** Whether this is a datagram type (UD, GSI, SMI) that needs an AH per send. */
    public boolean isDatagram() {
        return this == UD || this == GSI || this == SMI;
    }
}
