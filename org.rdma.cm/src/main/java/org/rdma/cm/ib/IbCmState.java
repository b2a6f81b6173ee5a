package org.rdma.cm.ib;

/** Mirrors {@code enum ib_cm_state}: the state of a communication identifier (IBTA 12.9.6). */
public enum IbCmState {
    /** {@code IB_CM_IDLE}. */
    IDLE,
    /** {@code IB_CM_LISTEN}. */
    LISTEN,
    /** {@code IB_CM_REQ_SENT}. */
    REQ_SENT,
    /** {@code IB_CM_REQ_RCVD}. */
    REQ_RCVD,
    /** {@code IB_CM_MRA_REQ_SENT}. */
    MRA_REQ_SENT,
    /** {@code IB_CM_MRA_REQ_RCVD}. */
    MRA_REQ_RCVD,
    /** {@code IB_CM_REP_SENT}. */
    REP_SENT,
    /** {@code IB_CM_REP_RCVD}. */
    REP_RCVD,
    /** {@code IB_CM_MRA_REP_SENT}. */
    MRA_REP_SENT,
    /** {@code IB_CM_MRA_REP_RCVD}. */
    MRA_REP_RCVD,
    /** {@code IB_CM_ESTABLISHED}. */
    ESTABLISHED,
    /** {@code IB_CM_DREQ_SENT}. */
    DREQ_SENT,
    /** {@code IB_CM_DREQ_RCVD}. */
    DREQ_RCVD,
    /** {@code IB_CM_TIMEWAIT}. */
    TIMEWAIT,
    /** {@code IB_CM_SIDR_REQ_SENT}. */
    SIDR_REQ_SENT,
    /** {@code IB_CM_SIDR_REQ_RCVD}. */
    SIDR_REQ_RCVD;

    /** The kernel value ({@code IB_CM_IDLE} is 0). */
    public int value() {
        return ordinal();
    }
}
