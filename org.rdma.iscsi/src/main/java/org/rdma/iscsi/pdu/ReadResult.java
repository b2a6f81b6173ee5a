package org.rdma.iscsi.pdu;

/**
 * What {@link PduReader#read} has found. Results found in the header leave the header readable
 * ({@link PduReader#bhs()}) and the reader skips the rest of that PDU by itself; the RFC's answer
 * to each is {@link #rejectReason()} or, where it is null, dropping the connection
 * ({@link #dropsConnection()}).
 */
public enum ReadResult {
    /** The bytes given so far end inside a PDU; {@link PduReader#needed()} says how many more the stage wants. */
    NEED_MORE(null, false),
    /** A whole, valid PDU: {@link PduReader#bhs()}, {@link PduReader#ahs()} and {@link PduReader#data()}. */
    PDU(null, false),
    /**
     * A reserved, vendor-specific or wrong-direction opcode (a target opcode sent to a target):
     * the reader skips its data segment; RFC 7143 11.17.1 "Command not supported".
     */
    UNKNOWN_OPCODE(RejectReason.COMMAND_NOT_SUPPORTED, false),
    /**
     * DataSegmentLength above the MaxRecvDataSegmentLength this side declared (RFC 7143 13.12):
     * a protocol error; the reader discards the data segment without buffering it.
     */
    OVERSIZE(RejectReason.PROTOCOL_ERROR, false),
    /**
     * A header field no valid PDU has: AHSs that do not fill TotalAHSLength exactly, an AHS of a
     * wrong length, or a data segment on an opcode whose DataSegmentLength must be 0.
     */
    INVALID_FIELD(RejectReason.INVALID_PDU_FIELD, false),
    /**
     * The header digest does not match (RFC 7143 7.8): the lengths cannot be trusted, so the
     * stream is out of step; the reader stays in this result and the connection must be dropped.
     */
    HEADER_DIGEST_ERROR(null, true),
    /** The data digest does not match (RFC 7143 7.8): the PDU is discarded and answered with a Reject. */
    DATA_DIGEST_ERROR(RejectReason.DATA_DIGEST_ERROR, false),
    /** The stream ended inside a PDU ({@link PduReader#endOfStream()}). */
    TRUNCATED(null, true),
    /** The stream ended between PDUs ({@link PduReader#endOfStream()}). */
    END_OF_STREAM(null, true);

    private final RejectReason rejectReason;
    private final boolean dropsConnection;

    ReadResult(RejectReason rejectReason, boolean dropsConnection) {
        this.rejectReason = rejectReason;
        this.dropsConnection = dropsConnection;
    }

    /** The Reject reason the RFC answers this result with, or null (no Reject). */
    public RejectReason rejectReason() {
        return rejectReason;
    }

    /** The connection cannot go on. */
    public boolean dropsConnection() {
        return dropsConnection;
    }
}
