package org.rdma.cm.ib;

/** Mirrors {@code enum ib_cm_sidr_status} (IBTA table 120): the Status of a SIDR_REP; {@link #value()} is the wire value. */
public enum IbCmSidrStatus {
    /** {@code IB_SIDR_SUCCESS}: the service is available; QPN and Q_Key are valid. */
    SUCCESS,
    /** {@code IB_SIDR_UNSUPPORTED}: no such service. */
    UNSUPPORTED,
    /** {@code IB_SIDR_REJECT}: the service provider rejected the request. */
    REJECT,
    /** {@code IB_SIDR_NO_QP}: no QP available for the service. */
    NO_QP,
    /** {@code IB_SIDR_REDIRECT}: ask the node named in ClassPortInfo. */
    REDIRECT,
    /** {@code IB_SIDR_UNSUPPORTED_VERSION}: the service ID is known, the version is not. */
    UNSUPPORTED_VERSION;

    /** The wire value. */
    public int value() {
        return ordinal();
    }

    /** The status with wire value {@code value}, or {@code null} if undefined. */
    public static IbCmSidrStatus of(int value) {
        IbCmSidrStatus[] all = values();
        return value >= 0 && value < all.length ? all[value] : null;
    }
}
