package org.rdma.cm.ib;

/** Mirrors {@code enum ib_cm_lap_state}: alternate path loading on an established connection. */
public enum IbCmLapState {
    /** {@code IB_CM_LAP_UNINIT}: the connection is not established yet. */
    UNINIT,
    /** {@code IB_CM_LAP_IDLE}. */
    IDLE,
    /** {@code IB_CM_LAP_SENT}. */
    LAP_SENT,
    /** {@code IB_CM_LAP_RCVD}. */
    LAP_RCVD,
    /** {@code IB_CM_MRA_LAP_SENT}. */
    MRA_LAP_SENT,
    /** {@code IB_CM_MRA_LAP_RCVD}. */
    MRA_LAP_RCVD;

    /** The kernel value. */
    public int value() {
        return ordinal();
    }
}
