package org.rdma.cm.ib;

/** Mirrors {@code enum ib_cm_event_type}; {@link #value()} is the kernel's number. */
public enum IbCmEventType {
    /** {@code IB_CM_REQ_ERROR}: the REQ was not answered after all retries (or could not be sent). */
    REQ_ERROR,
    /** {@code IB_CM_REQ_RECEIVED}: a new id from a listen, or the peer-to-peer id. */
    REQ_RECEIVED,
    /** {@code IB_CM_REP_ERROR}: the REP was not answered after all retries. */
    REP_ERROR,
    /** {@code IB_CM_REP_RECEIVED}. */
    REP_RECEIVED,
    /** {@code IB_CM_RTU_RECEIVED}. */
    RTU_RECEIVED,
    /** {@code IB_CM_USER_ESTABLISHED}: the consumer reported {@code IB_EVENT_COMM_EST}. */
    USER_ESTABLISHED,
    /** {@code IB_CM_DREQ_ERROR}: the DREQ was not answered; the id went to timewait. */
    DREQ_ERROR,
    /** {@code IB_CM_DREQ_RECEIVED}. */
    DREQ_RECEIVED,
    /** {@code IB_CM_DREP_RECEIVED}. */
    DREP_RECEIVED,
    /** {@code IB_CM_TIMEWAIT_EXIT}: timewait is over; the QP may be reused. */
    TIMEWAIT_EXIT,
    /** {@code IB_CM_MRA_RECEIVED}. */
    MRA_RECEIVED,
    /** {@code IB_CM_REJ_RECEIVED}, also reported for a local timeout of an unanswered REQ/REP. */
    REJ_RECEIVED,
    /** {@code IB_CM_LAP_ERROR}. */
    LAP_ERROR,
    /** {@code IB_CM_LAP_RECEIVED}. */
    LAP_RECEIVED,
    /** {@code IB_CM_APR_RECEIVED}. */
    APR_RECEIVED,
    /** {@code IB_CM_SIDR_REQ_ERROR}. */
    SIDR_REQ_ERROR,
    /** {@code IB_CM_SIDR_REQ_RECEIVED}. */
    SIDR_REQ_RECEIVED,
    /** {@code IB_CM_SIDR_REP_RECEIVED}. */
    SIDR_REP_RECEIVED;

    /** The kernel value. */
    public int value() {
        return ordinal();
    }
}
