package org.rdma.iscsi.pdu;

/**
 * The iSCSI opcodes with what the codec needs to know of each (RFC 7143 11.1.1, the
 * {@code ISCSI_OP_*} values of Linux's iscsi_proto.h): who sends it, whether its F bit is a
 * constant 1 in the figure, whether its I bit is a constant 1 (Login Request), and whether it may
 * carry a data segment. Code asks these attributes instead of switching on opcodes again.
 */
public enum Opcode {
    /** RFC 7143 11.18. */
    NOP_OUT(0x00, true, true, false, true),
    /** RFC 7143 11.3. */
    SCSI_COMMAND(0x01, true, false, false, true),
    /** RFC 7143 11.5; DataSegmentLength MUST be 0. */
    TASK_MGMT_REQUEST(0x02, true, true, false, false),
    /** RFC 7143 11.12; the I bit is always 1. */
    LOGIN_REQUEST(0x03, true, false, true, true),
    /** RFC 7143 11.10. */
    TEXT_REQUEST(0x04, true, false, false, true),
    /** RFC 7143 11.7. */
    SCSI_DATA_OUT(0x05, true, false, false, true),
    /** RFC 7143 11.14; DataSegmentLength MUST be 0. */
    LOGOUT_REQUEST(0x06, true, true, false, false),
    /** RFC 7143 11.16. */
    SNACK_REQUEST(0x10, true, true, false, false),
    /** RFC 7143 11.19. */
    NOP_IN(0x20, false, true, false, true),
    /** RFC 7143 11.4. */
    SCSI_RESPONSE(0x21, false, true, false, true),
    /** RFC 7143 11.6. */
    TASK_MGMT_RESPONSE(0x22, false, true, false, false),
    /** RFC 7143 11.13. */
    LOGIN_RESPONSE(0x23, false, false, false, true),
    /** RFC 7143 11.11. */
    TEXT_RESPONSE(0x24, false, false, false, true),
    /** RFC 7143 11.7. */
    SCSI_DATA_IN(0x25, false, false, false, true),
    /** RFC 7143 11.15. */
    LOGOUT_RESPONSE(0x26, false, true, false, false),
    /** RFC 7143 11.8; DataSegmentLength is 0. */
    READY_TO_TRANSFER(0x31, false, true, false, false),
    /** RFC 7143 11.9. */
    ASYNC_MESSAGE(0x32, false, true, false, true),
    /** RFC 7143 11.17; the data segment is the rejected header. */
    REJECT(0x3f, false, true, false, true);

    private static final Opcode[] BY_CODE = new Opcode[64];

    static {
        for (Opcode o : values()) {
            BY_CODE[o.code] = o;
        }
    }

    private final int code;
    private final boolean initiator;
    private final boolean finalAlways;
    private final boolean immediateAlways;
    private final boolean dataAllowed;

    Opcode(int code, boolean initiator, boolean finalAlways, boolean immediateAlways, boolean dataAllowed) {
        this.code = code;
        this.initiator = initiator;
        this.finalAlways = finalAlways;
        this.immediateAlways = immediateAlways;
        this.dataAllowed = dataAllowed;
    }

    /** The 6-bit opcode of byte 0 ({@code ISCSI_OPCODE_MASK}). */
    public int code() {
        return code;
    }

    /** Sent by initiators (0x00-0x1f) rather than targets (0x20-0x3f). */
    public boolean initiator() {
        return initiator;
    }

    /** The figure shows the F bit as a constant 1. */
    public boolean finalAlways() {
        return finalAlways;
    }

    /** The I bit is a constant 1 (Login Request, RFC 7143 11.12.1). */
    public boolean immediateAlways() {
        return immediateAlways;
    }

    /** The PDU may carry a data segment; for the others DataSegmentLength is 0. */
    public boolean dataAllowed() {
        return dataAllowed;
    }

    /** The opcode with this 6-bit code, or null: reserved and vendor codes are unknown here. */
    public static Opcode valueOf(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
