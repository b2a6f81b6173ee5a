package org.rdma.mad;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;

/**
 * The MAD layer's consumer API: the exported functions of drivers/infiniband/core/mad.c.
 * Control-path calls throw {@code RdmaException} with the kernel's errno; the send path returns
 * 0 or a negative errno.
 */
@ProviderType
public interface MadService {
    /**
     * {@code ib_register_mad_agent()}: an agent on {@code portNum}'s SMI or GSI QP.
     *
     * @param regReq      the requests to receive, or {@code null} for a send-only agent (it still
     *                    receives responses to its own requests)
     * @param rmppVersion 0, or {@link MadAgent#RMPP_VERSION} for an RMPP class
     * @param flags       {@link MadAgent#FLAG_USER_RMPP} or 0
     * @throws org.rdma.verbs.RdmaException EINVAL for a bad class, version, QP or RMPP version,
     *         or a missing handler; EBUSY if another agent has one of the methods; ENODEV/ENXIO
     *         when the device or port has no MAD QPs (e.g. QP0 on a RoCE port)
     */
    MadAgent registerMadAgent(IbDevice device, int portNum, QpType qpType, MadRegRequest regReq,
            int rmppVersion, MadSendHandler sendHandler, MadRecvHandler recvHandler, Object context, int flags);

    /**
     * {@code ib_unregister_mad_agent()}: outstanding sends complete with {@code WR_FLUSH_ERR}; a
     * fence: no handler of the agent runs once this returns (unless called from one of them).
     */
    void unregisterMadAgent(MadAgent agent);

    /**
     * {@code ib_create_send_mad()}: a send buffer for {@code agent}.
     *
     * @param remoteQpn   destination QP
     * @param pkeyIndex   P_Key index (GSI)
     * @param rmppActive  segment {@code dataLen} with RMPP (agent must have an RMPP version)
     * @param hdrLen      header bytes ({@code IB_MGMT_MAD_HDR}, {@code IB_MGMT_SA_HDR}, ...)
     * @param dataLen     data bytes
     * @param baseVersion {@code IB_MGMT_BASE_VERSION}
     * @throws org.rdma.verbs.RdmaException EINVAL if the sizes do not fit
     */
    MadSendBuf createSendMad(MadAgent agent, int remoteQpn, int pkeyIndex, boolean rmppActive, int hdrLen,
            int dataLen, int baseVersion);

    /** {@code ib_free_send_mad()}: releases a buffer that is not (or no longer) posted. */
    void freeSendMad(MadSendBuf sendBuf);

    /**
     * {@code ib_post_send_mad()}: posts the buffer. Requests with a timeout wait for their
     * response (matched by TID) and are retried {@link MadSendBuf#retries()} times.
     *
     * @return 0, or -EINVAL (bad buffer, directed route refused by the SMI), -ENODEV (agent gone)
     */
    int postSendMad(MadSendBuf sendBuf);

    /** {@code ib_cancel_mad()}: the send completes with {@code WR_FLUSH_ERR}; a no-op if already done. */
    void cancelMad(MadSendBuf sendBuf);

    /**
     * {@code ib_modify_mad()}: sets a new response timeout, counted from now; 0 cancels.
     *
     * @return 0, or -EINVAL if the send is not outstanding
     */
    int modifyMad(MadSendBuf sendBuf, int timeoutMs);

    /** {@code ib_create_ah_from_wc()}: an address handle back to a MAD's sender, on the agent's PD. */
    IbAh createAhFromWc(MadAgent agent, MadRecvWc wc);

    /** {@code rdma_create_ah()} on the agent's PD ({@code agent->qp->pd}). */
    IbAh createAh(MadAgent agent, AhAttr attr);

    /**
     * {@code ib_response_mad()}-based reply helper, as {@code agent_send_response()} does: a send
     * buffer addressed back to the sender of {@code request}, its MAD a copy of the request's
     * first 256 bytes (the caller sets method, status and data); timeout 0. The address handle
     * is destroyed when the buffer is freed.
     */
    MadSendBuf createResponse(MadAgent agent, MadRecvWc request, boolean rmppActive, int hdrLen, int dataLen);

    /** A counter of {@code device}'s port; 0 for unknown ports. */
    long counter(IbDevice device, int portNum, MadCounter counter);
}
