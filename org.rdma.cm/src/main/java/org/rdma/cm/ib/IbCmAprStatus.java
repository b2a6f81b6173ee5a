package org.rdma.cm.ib;

/** Mirrors {@code enum ib_cm_apr_status} (IBTA table 117): the AP Status of an APR; {@link #value()} is the wire value. */
public enum IbCmAprStatus {
    /** {@code IB_CM_APR_SUCCESS}. */
    SUCCESS,
    /** {@code IB_CM_APR_INVALID_COMM_ID}. */
    INVALID_COMM_ID,
    /** {@code IB_CM_APR_UNSUPPORTED}. */
    UNSUPPORTED,
    /** {@code IB_CM_APR_REJECT}. */
    REJECT,
    /** {@code IB_CM_APR_REDIRECT}. */
    REDIRECT,
    /** {@code IB_CM_APR_IS_CURRENT}. */
    IS_CURRENT,
    /** {@code IB_CM_APR_INVALID_QPN_EECN}. */
    INVALID_QPN_EECN,
    /** {@code IB_CM_APR_INVALID_LID}. */
    INVALID_LID,
    /** {@code IB_CM_APR_INVALID_GID}. */
    INVALID_GID,
    /** {@code IB_CM_APR_INVALID_FLOW_LABEL}. */
    INVALID_FLOW_LABEL,
    /** {@code IB_CM_APR_INVALID_TCLASS}. */
    INVALID_TCLASS,
    /** {@code IB_CM_APR_INVALID_HOP_LIMIT}. */
    INVALID_HOP_LIMIT,
    /** {@code IB_CM_APR_INVALID_PACKET_RATE}. */
    INVALID_PACKET_RATE,
    /** {@code IB_CM_APR_INVALID_SL}. */
    INVALID_SL;

    /** The wire value. */
    public int value() {
        return ordinal();
    }

    /** The status with wire value {@code value}, or {@code null} if undefined. */
    public static IbCmAprStatus of(int value) {
        IbCmAprStatus[] all = values();
        return value >= 0 && value < all.length ? all[value] : null;
    }
}
