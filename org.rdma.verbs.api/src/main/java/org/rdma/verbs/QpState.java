package org.rdma.verbs;

/** Mirrors {@code enum ib_qp_state}. */
public enum QpState {
    /** {@code IB_QPS_RESET}. */
    RESET,
    /** {@code IB_QPS_INIT}. */
    INIT,
    /** {@code IB_QPS_RTR}. */
    RTR,
    /** {@code IB_QPS_RTS}. */
    RTS,
    /** {@code IB_QPS_SQD}. */
    SQD,
    /** {@code IB_QPS_SQE}. */
    SQE,
    /** {@code IB_QPS_ERR}. */
    ERR
}
