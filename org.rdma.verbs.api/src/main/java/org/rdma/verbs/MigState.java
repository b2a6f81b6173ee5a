package org.rdma.verbs;

/** Mirrors {@code enum ib_mig_state}. */
public enum MigState {
    MIGRATED, REARM, ARMED
}
