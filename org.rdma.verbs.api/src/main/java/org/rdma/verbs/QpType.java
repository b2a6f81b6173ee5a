package org.rdma.verbs;

/** Mirrors {@code enum ib_qp_type}. */
public enum QpType {
    /** {@code IB_QPT_SMI}. */
    SMI(0),
    /** {@code IB_QPT_GSI}. */
    GSI(1),
    /** {@code IB_QPT_RC}. */
    RC(2),
    /** {@code IB_QPT_UC}. */
    UC(3),
    /** {@code IB_QPT_UD}. */
    UD(4),
    /** {@code IB_QPT_RAW_IPV6}. */
    RAW_IPV6(5),
    /** {@code IB_QPT_RAW_ETHERTYPE}. */
    RAW_ETHERTYPE(6),
    /** {@code IB_QPT_RAW_PACKET}. */
    RAW_PACKET(8),
    /** {@code IB_QPT_XRC_INI}. */
    XRC_INI(9),
    /** {@code IB_QPT_XRC_TGT}. */
    XRC_TGT(10),
    /** {@code IB_QPT_DRIVER}. */
    DRIVER(0xFF);

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
