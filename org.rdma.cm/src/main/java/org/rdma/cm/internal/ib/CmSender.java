package org.rdma.cm.internal.ib;

import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmState;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadService;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;

/**
 * Send buffers for CM messages: {@code cm_alloc_msg()} on an id's primary path,
 * {@code cm_alloc_response_msg()} back to the sender of a received MAD, posting and
 * {@code cm_free_msg()}. Each buffer owns an address handle, destroyed when the buffer is freed
 * from the send handler. {@code context(0)} is the id (null for stateless responses);
 * {@code context(1)} a {@link Sent} naming the state a request was sent in.
 */
final class CmSender {
    /**
     * What a request was sent for ({@code msg->context[1]}): an answer it gets is matched against
     * the id's state, and a send error is reported only if the id is still in it.
     *
     * @param retries the retries allowed at post time ({@link MadSendBuf#retries()} grows by one per retry)
     */
    static final class Sent {
        volatile IbCmState state;
        final IbCmLapState lapState;
        final int retries;

        Sent(IbCmState state, IbCmLapState lapState, int retries) {
            this.state = state;
            this.lapState = lapState;
            this.retries = retries;
        }
    }

    private final MadService mad;

    CmSender(MadService mad) {
        this.mad = mad;
    }

    /** {@code cm_alloc_msg()}: a MAD to the peer of {@code id} on its primary path; caller holds the id's lock. */
    MadSendBuf alloc(CmIdImpl id) {
        CmPort port = id.av.port;
        if (port == null) {
            throw new RdmaException(Errno.EINVAL, id + " has no path");
        }
        MadAgent agent = port.agent;
        if (agent == null || port.cmDev.goingDown) {
            throw new RdmaException(Errno.ENODEV, port + ": the CM is gone from the port");
        }
        MadSendBuf m = create(agent, id.remoteCmQpn, id.av.pkeyIndex, id.av.ahAttr);
        m.setRetries(id.maxCmRetries);
        m.setContext(0, id);
        return m;
    }

    /** {@code cm_alloc_response_msg()}: a MAD back to the sender of {@code wc}, not tied to an id. */
    MadSendBuf allocResponse(CmPort port, MadRecvWc wc) {
        MadAgent agent = port.agent;
        if (agent == null) {
            throw new RdmaException(Errno.ENODEV, port + ": the CM is gone from the port");
        }
        return create(agent, 1, wc.wc().pkeyIndex, CmPaths.ahAttrFromWc(port, wc));
    }

    private MadSendBuf create(MadAgent agent, int remoteQpn, int pkeyIndex, AhAttr attr) {
        IbAh ah = mad.createAh(agent, attr);
        try {
            MadSendBuf m = mad.createSendMad(agent, remoteQpn, pkeyIndex, false, MadHdr.IB_MGMT_MAD_HDR,
                    MadHdr.IB_MGMT_MAD_DATA, MadHdr.IB_MGMT_BASE_VERSION);
            m.setAh(ah);
            return m;
        } catch (RuntimeException e) {
            ah.destroy();
            throw e;
        }
    }

    /**
     * Posts a request that waits for an answer: {@code timeoutMs} per try, the id's retries. The
     * buffer is freed and the errno thrown if the MAD layer refuses it.
     */
    void postRequest(MadSendBuf m, int timeoutMs, IbCmState state, IbCmLapState lapState) {
        m.setTimeoutMs(Math.max(1, timeoutMs));
        m.setContext(1, new Sent(state, lapState, m.retries()));
        post(m);
    }

    /** Posts a message that expects no answer; the buffer is freed and the errno thrown on refusal. */
    void post(MadSendBuf m) {
        int r = mad.postSendMad(m);
        if (r != 0) {
            free(m);
            throw new RdmaException(Errno.of(r), "the MAD layer refused a CM message");
        }
    }

    /** Posts a response; a refusal frees it and is only logged by the caller's counters (false). */
    boolean postQuietly(MadSendBuf m) {
        int r = mad.postSendMad(m);
        if (r != 0) {
            free(m);
            return false;
        }
        return true;
    }

    /** {@code ib_cancel_mad()} of the id's outstanding request, if any; caller holds the id's lock. */
    void cancel(CmIdImpl id) {
        MadSendBuf m = id.msg;
        if (m != null) {
            mad.cancelMad(m);
        }
    }

    /** {@code ib_modify_mad()}: a new response timeout for the outstanding request (an MRA arrived). */
    boolean modify(CmIdImpl id, int timeoutMs) {
        MadSendBuf m = id.msg;
        return m != null && mad.modifyMad(m, timeoutMs) == 0;
    }

    /** {@code cm_free_msg()}. */
    void free(MadSendBuf m) {
        IbAh ah = m.ah();
        if (ah != null) {
            m.setAh(null);
            ah.destroy();
        }
        mad.freeSendMad(m);
    }
}
