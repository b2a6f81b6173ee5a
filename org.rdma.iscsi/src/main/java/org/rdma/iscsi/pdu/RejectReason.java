package org.rdma.iscsi.pdu;

/** The Reason codes of a Reject PDU (RFC 7143 11.17.1, {@code ISCSI_REASON_*}). */
public enum RejectReason {
    DATA_DIGEST_ERROR(0x02),
    SNACK_REJECT(0x03),
    PROTOCOL_ERROR(0x04),
    COMMAND_NOT_SUPPORTED(0x05),
    IMMEDIATE_COMMAND_REJECT(0x06),
    TASK_IN_PROGRESS(0x07),
    INVALID_DATA_ACK(0x08),
    INVALID_PDU_FIELD(0x09),
    LONG_OPERATION_REJECT(0x0a),
    /** "Deprecated; MUST NOT be used" in RFC 7143; RFC 3720's negotiation reset. */
    NEGOTIATION_RESET(0x0b),
    WAITING_FOR_LOGOUT(0x0c);

    private final int code;

    RejectReason(int code) {
        this.code = code;
    }

    /** The Reason byte. */
    public int code() {
        return code;
    }

    /** The reason with this code, or null. */
    public static RejectReason valueOf(int code) {
        for (RejectReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}
