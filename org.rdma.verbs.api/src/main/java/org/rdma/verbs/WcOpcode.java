package org.rdma.verbs;

/** Mirrors {@code enum ib_wc_opcode}. Receive opcodes have {@link #isRecv()} set. */
public enum WcOpcode {
    /** {@code IB_WC_SEND}. */
    SEND(0),
    /** {@code IB_WC_RDMA_WRITE}. */
    RDMA_WRITE(1),
    /** {@code IB_WC_RDMA_READ}. */
    RDMA_READ(2),
    /** {@code IB_WC_COMP_SWAP}. */
    COMP_SWAP(3),
    /** {@code IB_WC_FETCH_ADD}. */
    FETCH_ADD(4),
    /** {@code IB_WC_BIND_MW}. */
    BIND_MW(5),
    /** {@code IB_WC_LOCAL_INV}. */
    LOCAL_INV(6),
    /** {@code IB_WC_LSO}. */
    LSO(7),
    /** {@code IB_WC_FLUSH}. */
    FLUSH(8),
    /** {@code IB_WC_ATOMIC_WRITE}. */
    ATOMIC_WRITE(9),
    /** {@code IB_WC_REG_MR}. */
    REG_MR(10),
    /** {@code IB_WC_MASKED_COMP_SWAP}. */
    MASKED_COMP_SWAP(11),
    /** {@code IB_WC_MASKED_FETCH_ADD}. */
    MASKED_FETCH_ADD(12),
    /** {@code IB_WC_DRIVER1}. */
    DRIVER1(13),
    /** {@code IB_WC_RECV}. */
    RECV(1 << 7),
    /** {@code IB_WC_RECV_RDMA_WITH_IMM}. */
    RECV_RDMA_WITH_IMM((1 << 7) + 1);

    /** The kernel value. */
    public final int value;

    WcOpcode(int value) {
        this.value = value;
    }

    /** {@code opcode & IB_WC_RECV}. */
    public boolean isRecv() {
        return (value & (1 << 7)) != 0;
    }
}
