package org.rdma.verbs;

/** Mirrors {@code enum ib_wr_opcode}. */
public enum WrOpcode {
    /** {@code IB_WR_RDMA_WRITE}. */
    RDMA_WRITE(0),
    /** {@code IB_WR_RDMA_WRITE_WITH_IMM}. */
    RDMA_WRITE_WITH_IMM(1),
    /** {@code IB_WR_SEND}. */
    SEND(2),
    /** {@code IB_WR_SEND_WITH_IMM}. */
    SEND_WITH_IMM(3),
    /** {@code IB_WR_RDMA_READ}. */
    RDMA_READ(4),
    /** {@code IB_WR_ATOMIC_CMP_AND_SWP}. */
    ATOMIC_CMP_AND_SWP(5),
    /** {@code IB_WR_ATOMIC_FETCH_AND_ADD}. */
    ATOMIC_FETCH_AND_ADD(6),
    /** {@code IB_WR_LSO}. */
    LSO(10),
    /** {@code IB_WR_SEND_WITH_INV}. */
    SEND_WITH_INV(9),
    /** {@code IB_WR_RDMA_READ_WITH_INV}. */
    RDMA_READ_WITH_INV(11),
    /** {@code IB_WR_LOCAL_INV}. */
    LOCAL_INV(7),
    /** {@code IB_WR_BIND_MW}. */
    BIND_MW(8),
    /** {@code IB_WR_MASKED_ATOMIC_CMP_AND_SWP}. */
    MASKED_ATOMIC_CMP_AND_SWP(12),
    /** {@code IB_WR_MASKED_ATOMIC_FETCH_AND_ADD}. */
    MASKED_ATOMIC_FETCH_AND_ADD(13),
    /** {@code IB_WR_FLUSH}. */
    FLUSH(14),
    /** {@code IB_WR_ATOMIC_WRITE}. */
    ATOMIC_WRITE(15),
    /** {@code IB_WR_REG_MR}. */
    REG_MR(0x20),
    /** {@code IB_WR_REG_MR_INTEGRITY}. */
    REG_MR_INTEGRITY(0x21);

    /** The kernel value. */
    public final int value;

    WrOpcode(int value) {
        this.value = value;
    }

    /** The completion opcode a send-queue work request of this kind produces. */
    public WcOpcode wcOpcode() {
        switch (this) {
            case RDMA_WRITE: case RDMA_WRITE_WITH_IMM: return WcOpcode.RDMA_WRITE;
            case RDMA_READ: case RDMA_READ_WITH_INV: return WcOpcode.RDMA_READ;
            case ATOMIC_CMP_AND_SWP: return WcOpcode.COMP_SWAP;
            case ATOMIC_FETCH_AND_ADD: return WcOpcode.FETCH_ADD;
            case MASKED_ATOMIC_CMP_AND_SWP: return WcOpcode.MASKED_COMP_SWAP;
            case MASKED_ATOMIC_FETCH_AND_ADD: return WcOpcode.MASKED_FETCH_ADD;
            case LSO: return WcOpcode.LSO;
            case LOCAL_INV: return WcOpcode.LOCAL_INV;
            case BIND_MW: return WcOpcode.BIND_MW;
            case REG_MR: case REG_MR_INTEGRITY: return WcOpcode.REG_MR;
            case FLUSH: return WcOpcode.FLUSH;
            case ATOMIC_WRITE: return WcOpcode.ATOMIC_WRITE;
            default: return WcOpcode.SEND;
        }
    }
}
