package org.rdma.verbs;

/** Mirrors {@code enum ib_qp_state}. */
public enum QpState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR
}
