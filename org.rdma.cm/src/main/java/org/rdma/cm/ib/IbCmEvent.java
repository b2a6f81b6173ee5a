package org.rdma.cm.ib;

import org.rdma.verbs.WcStatus;

/**
 * A communication event: {@code struct ib_cm_event}. The kernel's {@code param} union is one
 * parameter object whose class matches the {@link #event() type}; the typed getters return it,
 * or {@code null} for another type. The parameters and private data are valid during the
 * handler call only.
 */
public final class IbCmEvent {
    private final IbCmEventType event;
    private final Object param;
    private final byte[] privateData;

    /**
     * @param event       the type
     * @param param       the parameter object for the type ({@code WcStatus} for the error events,
     *                    {@code null} for RTU/DREQ/DREP/TIMEWAIT_EXIT/USER_ESTABLISHED)
     * @param privateData the message's private data area, or {@code null}
     */
    public IbCmEvent(IbCmEventType event, Object param, byte[] privateData) {
        this.event = event;
        this.param = param;
        this.privateData = privateData;
    }

    /** {@code event->event}. */
    public IbCmEventType event() {
        return event;
    }

    /** {@code event->param.req_rcvd}. */
    public IbCmReqEventParam reqRcvd() {
        return param instanceof IbCmReqEventParam p ? p : null;
    }

    /** {@code event->param.rep_rcvd}. */
    public IbCmRepEventParam repRcvd() {
        return param instanceof IbCmRepEventParam p ? p : null;
    }

    /** {@code event->param.rej_rcvd}. */
    public IbCmRejEventParam rejRcvd() {
        return param instanceof IbCmRejEventParam p ? p : null;
    }

    /** {@code event->param.mra_rcvd}. */
    public IbCmMraEventParam mraRcvd() {
        return param instanceof IbCmMraEventParam p ? p : null;
    }

    /** {@code event->param.lap_rcvd}. */
    public IbCmLapEventParam lapRcvd() {
        return param instanceof IbCmLapEventParam p ? p : null;
    }

    /** {@code event->param.apr_rcvd}. */
    public IbCmAprEventParam aprRcvd() {
        return param instanceof IbCmAprEventParam p ? p : null;
    }

    /** {@code event->param.sidr_req_rcvd}. */
    public IbCmSidrReqEventParam sidrReqRcvd() {
        return param instanceof IbCmSidrReqEventParam p ? p : null;
    }

    /** {@code event->param.sidr_rep_rcvd}. */
    public IbCmSidrRepEventParam sidrRepRcvd() {
        return param instanceof IbCmSidrRepEventParam p ? p : null;
    }

    /** {@code event->param.send_status}: why a REQ/REP/DREQ/LAP/SIDR_REQ failed ({@code *_ERROR} events). */
    public WcStatus sendStatus() {
        return param instanceof WcStatus s ? s : null;
    }

    /** {@code event->private_data}: the whole private data area of the message, or {@code null}. */
    public byte[] privateData() {
        return privateData;
    }

    @Override
    public String toString() {
        return "IbCmEvent[" + event + (param == null ? "" : " " + param) + "]";
    }
}
