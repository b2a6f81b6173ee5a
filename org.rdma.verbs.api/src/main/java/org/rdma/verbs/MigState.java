package org.rdma.verbs;

/** Mirrors {@code enum ib_mig_state}. */
public enum MigState {
    /** {@code IB_MIG_MIGRATED}. */
    MIGRATED,
    /** {@code IB_MIG_REARM}. */
    REARM,
    /** {@code IB_MIG_ARMED}. */
    ARMED
}
