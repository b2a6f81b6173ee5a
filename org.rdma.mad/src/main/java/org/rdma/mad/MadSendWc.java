package org.rdma.mad;

import org.rdma.verbs.WcStatus;

/**
 * The outcome of a posted MAD: {@code struct ib_mad_send_wc}. {@link WcStatus#SUCCESS} when it was
 * sent (and answered, if a response was expected), {@link WcStatus#RESP_TIMEOUT_ERR} after the
 * last retry timed out, {@link WcStatus#WR_FLUSH_ERR} when cancelled or when its agent was
 * unregistered, another error when the send failed.
 *
 * @param sendBuf   {@code send_buf}
 * @param status    {@code status}
 * @param vendorErr {@code vendor_err}
 */
public record MadSendWc(MadSendBuf sendBuf, WcStatus status, int vendorErr) {
}
