package org.rdma.mad;

/** Per-port MAD layer counters (the kernel's drop paths, counted instead of silent). */
public enum MadCounter {
    /** MADs received and passed validation. */
    RECV,
    /** MADs (segments) posted to the send queue. */
    SENT,
    /** Responses whose TID matched no outstanding send ({@code ib_find_send_mad()} miss). */
    UNMATCHED_RESPONSE,
    /** Requests for which no agent is registered (answered with an error status for Get/Set). */
    NO_AGENT,
    /** Dropped for a base version other than 1 ({@code validate_mad()}). */
    BAD_BASE_VERSION,
    /** Dropped for a length shorter than a MAD. */
    BAD_LENGTH,
    /** Dropped for a class not allowed on the QP (SMP on QP1, GMP on QP0). */
    BAD_QP,
    /** Directed-route SMPs discarded by the SMI ({@code smi_handle_dr_smp_recv()}: hop pointer/count). */
    SMI_DISCARD,
    /** Retransmissions after a response timeout. */
    RETRIES,
    /** Sends completed with {@code RESP_TIMEOUT_ERR}. */
    TIMEOUTS,
    /** RMPP segments received. */
    RMPP_SEGMENTS,
    /** Receive completions with an error status. */
    RECV_ERRORS,
    /** RMPP reassemblies dropped because their next segment did not come in time (ABORT with T2L sent). */
    RMPP_RECV_TIMEOUTS
}
