package org.rdma.cm.ib;

/**
 * Mirrors {@code enum ib_cm_rej_reason} (IBTA table 109): why a REQ, REP or other message was
 * rejected. {@link #value} is the 16-bit Reason field of the REJ message.
 */
public enum IbCmRejReason {
    /** {@code IB_CM_REJ_NO_QP}. */
    NO_QP(1, "no QP"),
    /** {@code IB_CM_REJ_NO_EEC}. */
    NO_EEC(2, "no EEC"),
    /** {@code IB_CM_REJ_NO_RESOURCES}. */
    NO_RESOURCES(3, "no resources"),
    /** {@code IB_CM_REJ_TIMEOUT}. */
    TIMEOUT(4, "timeout"),
    /** {@code IB_CM_REJ_UNSUPPORTED}. */
    UNSUPPORTED(5, "unsupported"),
    /** {@code IB_CM_REJ_INVALID_COMM_ID}. */
    INVALID_COMM_ID(6, "invalid comm ID"),
    /** {@code IB_CM_REJ_INVALID_COMM_INSTANCE}. */
    INVALID_COMM_INSTANCE(7, "invalid comm instance"),
    /** {@code IB_CM_REJ_INVALID_SERVICE_ID}. */
    INVALID_SERVICE_ID(8, "invalid service ID"),
    /** {@code IB_CM_REJ_INVALID_TRANSPORT_TYPE}. */
    INVALID_TRANSPORT_TYPE(9, "invalid transport type"),
    /** {@code IB_CM_REJ_STALE_CONN}. */
    STALE_CONN(10, "stale conn"),
    /** {@code IB_CM_REJ_RDC_NOT_EXIST}. */
    RDC_NOT_EXIST(11, "RDC not exist"),
    /** {@code IB_CM_REJ_INVALID_GID}. */
    INVALID_GID(12, "invalid GID"),
    /** {@code IB_CM_REJ_INVALID_LID}. */
    INVALID_LID(13, "invalid LID"),
    /** {@code IB_CM_REJ_INVALID_SL}. */
    INVALID_SL(14, "invalid SL"),
    /** {@code IB_CM_REJ_INVALID_TRAFFIC_CLASS}. */
    INVALID_TRAFFIC_CLASS(15, "invalid traffic class"),
    /** {@code IB_CM_REJ_INVALID_HOP_LIMIT}. */
    INVALID_HOP_LIMIT(16, "invalid hop limit"),
    /** {@code IB_CM_REJ_INVALID_PACKET_RATE}. */
    INVALID_PACKET_RATE(17, "invalid packet rate"),
    /** {@code IB_CM_REJ_INVALID_ALT_GID}. */
    INVALID_ALT_GID(18, "invalid alt GID"),
    /** {@code IB_CM_REJ_INVALID_ALT_LID}. */
    INVALID_ALT_LID(19, "invalid alt LID"),
    /** {@code IB_CM_REJ_INVALID_ALT_SL}. */
    INVALID_ALT_SL(20, "invalid alt SL"),
    /** {@code IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS}. */
    INVALID_ALT_TRAFFIC_CLASS(21, "invalid alt traffic class"),
    /** {@code IB_CM_REJ_INVALID_ALT_HOP_LIMIT}. */
    INVALID_ALT_HOP_LIMIT(22, "invalid alt hop limit"),
    /** {@code IB_CM_REJ_INVALID_ALT_PACKET_RATE}. */
    INVALID_ALT_PACKET_RATE(23, "invalid alt packet rate"),
    /** {@code IB_CM_REJ_PORT_CM_REDIRECT}. */
    PORT_CM_REDIRECT(24, "port CM redirect"),
    /** {@code IB_CM_REJ_PORT_REDIRECT}. */
    PORT_REDIRECT(25, "port redirect"),
    /** {@code IB_CM_REJ_INVALID_MTU}. */
    INVALID_MTU(26, "invalid MTU"),
    /** {@code IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES}. */
    INSUFFICIENT_RESP_RESOURCES(27, "insufficient resp resources"),
    /** {@code IB_CM_REJ_CONSUMER_DEFINED}. */
    CONSUMER_DEFINED(28, "consumer defined"),
    /** {@code IB_CM_REJ_INVALID_RNR_RETRY}. */
    INVALID_RNR_RETRY(29, "invalid RNR retry"),
    /** {@code IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID}. */
    DUPLICATE_LOCAL_COMM_ID(30, "duplicate local comm ID"),
    /** {@code IB_CM_REJ_INVALID_CLASS_VERSION}. */
    INVALID_CLASS_VERSION(31, "invalid class version"),
    /** {@code IB_CM_REJ_INVALID_FLOW_LABEL}. */
    INVALID_FLOW_LABEL(32, "invalid flow label"),
    /** {@code IB_CM_REJ_INVALID_ALT_FLOW_LABEL}. */
    INVALID_ALT_FLOW_LABEL(33, "invalid alt flow label"),
    /** {@code IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED}. */
    VENDOR_OPTION_NOT_SUPPORTED(35, "vendor option not supported");

    /** The wire value. */
    public final int value;
    private final String message;

    IbCmRejReason(int value, String message) {
        this.value = value;
        this.message = message;
    }

    /** The reason with wire value {@code value}, or {@code null} for a value the IBTA does not define. */
    public static IbCmRejReason of(int value) {
        for (IbCmRejReason r : values()) {
            if (r.value == value) {
                return r;
            }
        }
        return null;
    }

    /** {@code ibcm_reject_msg()}: a short text for a reason value, known or not. */
    public static String rejectMsg(int value) {
        IbCmRejReason r = of(value);
        return r == null ? "unrecognized reason" : r.message;
    }

    /** The short text {@code ibcm_reject_msg()} gives. */
    public String message() {
        return message;
    }
}
