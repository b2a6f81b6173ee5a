package org.rdma.verbs;

/** Mirrors {@code enum ib_wr_opcode}. */
public enum WrOpcode {
    RDMA_WRITE(0), RDMA_WRITE_WITH_IMM(1), SEND(2), SEND_WITH_IMM(3), RDMA_READ(4),
    ATOMIC_CMP_AND_SWP(5), ATOMIC_FETCH_AND_ADD(6), LSO(10), SEND_WITH_INV(9),
    RDMA_READ_WITH_INV(11), LOCAL_INV(7), BIND_MW(8), MASKED_ATOMIC_CMP_AND_SWP(12),
    MASKED_ATOMIC_FETCH_AND_ADD(13), FLUSH(14), ATOMIC_WRITE(15), REG_MR(0x20), REG_MR_INTEGRITY(0x21);

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
