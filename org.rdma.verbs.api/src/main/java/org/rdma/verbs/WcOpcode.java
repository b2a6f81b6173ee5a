package org.rdma.verbs;

/** Mirrors {@code enum ib_wc_opcode}. Receive opcodes have {@link #isRecv()} set. */
public enum WcOpcode {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6),
    LSO(7), FLUSH(8), ATOMIC_WRITE(9), REG_MR(10), MASKED_COMP_SWAP(11), MASKED_FETCH_ADD(12),
    DRIVER1(13), RECV(1 << 7), RECV_RDMA_WITH_IMM((1 << 7) + 1);

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
