package org.rdma.rvt;

/** Transport counters of a device, after rxe's hardware counters ({@code rxe_hw_counters.h}). */
public enum RvtCounter {
    /** Packets handed to the driver. */
    SENT_PKTS,
    /** Packets received for a QP. */
    RCVD_PKTS,
    /** Duplicate requests the responder answered again. */
    DUPLICATE_REQUEST,
    /** Requests after a PSN gap (PSN sequence error NAK or dropped). */
    OUT_OF_SEQUENCE,
    /** RNR NAKs received by the completer. */
    RCV_RNR_ERR,
    /** RNR NAKs sent by the responder. */
    SND_RNR,
    /** PSN sequence error NAKs received by the completer. */
    RCV_SEQ_ERR,
    /** Retries started by the completer (timeout or sequence NAK). */
    COMP_RETRY,
    /** Local ACK timeouts. */
    ACK_TIMEOUT,
    /** Request packets sent again by go-back-N retransmission. */
    RETRANSMITTED_PKTS,
    /** QPs that ran out of retries ({@code RETRY_EXC_ERR}). */
    RETRY_EXCEEDED,
    /** QPs that ran out of RNR retries ({@code RNR_RETRY_EXC_ERR}). */
    RNR_RETRY_EXCEEDED,
    /** Transmit calls the driver refused ({@code -EAGAIN}) or failed. */
    SEND_ERR,
    /** Packets dropped on receive (bad opcode, QP, state, P_Key, Q_Key, address). */
    RCV_DROPPED,
    /** P_Key violations on receive. */
    BAD_PKEY,
    /** Q_Key violations on receive. */
    BAD_QKEY,
    /** Sends completed by the requester. */
    RDMA_SENDS,
    /** Receives completed by the responder. */
    RDMA_RECVS,
    /**
     * Responses (ACKs, read responses) that found the QP's task busy and were queued for it
     * instead of completing at once ({@code RXE_CNT_COMPLETER_SCHED}, shown as {@code ack_deferred}).
     */
    ACK_DEFERRED,
    /** A port left ACTIVE ({@code RXE_CNT_LINK_DOWNED}). */
    LINK_DOWNED,
}
