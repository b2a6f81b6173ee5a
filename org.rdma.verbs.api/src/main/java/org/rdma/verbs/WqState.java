package org.rdma.verbs;

/** Mirrors {@code enum ib_wq_state}. */
public enum WqState {
    RESET, RDY, ERR
}
