package org.rdma.mad;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.IbAh;

/**
 * A MAD to send: {@code struct ib_mad_send_buf} from {@link MadService#createSendMad}. The
 * caller fills {@link #mad()} (the common header, class headers and data; for RMPP the whole
 * message, segmented by the MAD layer), sets the address handle, timeout and retries, and posts
 * it with {@link MadService#postSendMad}.
 */
@ProviderType
public interface MadSendBuf {
    /** {@code send_buf->mad_agent}. */
    MadAgent agent();

    /**
     * {@code send_buf->mad}: the message. Without RMPP, one 256-byte MAD; with RMPP,
     * {@link #hdrLen()} header bytes followed by {@link #dataLen()} data bytes (rounded up to
     * whole segments), the MAD layer copying the header in front of every segment.
     */
    byte[] mad();

    /** {@code send_buf->hdr_len}. */
    int hdrLen();

    /** {@code send_buf->data_len}. */
    int dataLen();

    /** {@code send_buf->seg_count}: 1 without RMPP. */
    int segCount();

    /** {@code send_buf->seg_size}: data bytes per segment. */
    int segSize();

    /** {@code send_buf->ah}. */
    IbAh ah();

    /** Sets {@code send_buf->ah}. */
    void setAh(IbAh ah);

    /** {@code send_buf->timeout_ms}: 0 when no response is expected. */
    int timeoutMs();

    /** Sets {@code send_buf->timeout_ms}. */
    void setTimeoutMs(int timeoutMs);

    /** {@code send_buf->retries}: retries allowed; grows by one on each retry done. */
    int retries();

    /** Sets {@code send_buf->retries}. */
    void setRetries(int retries);

    /** {@code send_buf->context[i]} for {@code i} 0 or 1. */
    Object context(int i);

    /** Sets {@code send_buf->context[i]}. */
    void setContext(int i, Object value);

    /** The remote QP number given to {@link MadService#createSendMad}. */
    int remoteQpn();

    /** The remote Q_Key: {@code IB_QP1_QKEY} by default on QP1, 0 on QP0. */
    int remoteQkey();

    /** Sets the remote Q_Key (redirected GSI classes). */
    void setRemoteQkey(int qkey);

    /** The P_Key index given to {@link MadService#createSendMad}. */
    int pkeyIndex();
}
