package org.rdma.verbs;

/** Mirrors {@code enum ib_wq_state}. */
public enum WqState {
    /** {@code IB_WQS_RESET}. */
    RESET,
    /** {@code IB_WQS_RDY}. */
    RDY,
    /** {@code IB_WQS_ERR}. */
    ERR
}
