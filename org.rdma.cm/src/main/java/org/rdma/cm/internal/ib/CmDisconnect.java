package org.rdma.cm.internal.ib;

import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmState;
import org.rdma.cm.internal.ib.msg.CmDrepMsg;
import org.rdma.cm.internal.ib.msg.CmDreqMsg;
import org.rdma.cm.internal.ib.msg.CmMsg;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * Connection release (IBTA 12.9.7): {@code ib_send_cm_dreq/drep()} and the DREQ and DREP
 * handlers. Both sides end in timewait ({@link CmCore#enterTimewait}).
 */
final class CmDisconnect {
    private final CmCore core;

    CmDisconnect(CmCore core) {
        this.core = core;
    }

    /** {@code ib_send_cm_dreq()}: if the DREQ cannot be sent the id goes to timewait at once. */
    void sendDreq(CmIdImpl id, byte[] privateData) {
        CmConnection.checkLen(privateData, IbCm.DREQ_PRIVATE_DATA_SIZE, "DREQ private data");
        synchronized (id) {
            if (id.state != IbCmState.ESTABLISHED) {
                throw new RdmaException(Errno.EINVAL, "ib_send_cm_dreq: " + id + " is " + id.state + ", not established");
            }
            if (id.lapState == IbCmLapState.LAP_SENT || id.lapState == IbCmLapState.MRA_LAP_RCVD) {
                core.sender.cancel(id);
                id.msg = null;
            }
            MadSendBuf m;
            try {
                m = core.sender.alloc(id);
                CmDreqMsg d = new CmDreqMsg();
                d.localCommId = id.localId;
                d.remoteCommId = id.remoteId;
                d.remoteQpnEecn = id.remoteQpn;
                d.privateData = CmMsg.area(privateData, CmDreqMsg.PRIVATE_DATA_SIZE);
                d.toMad(m.mad(), m.agent().tid(id.localId));
                core.sender.postRequest(m, id.timeoutMs, IbCmState.DREQ_SENT, null);
            } catch (RuntimeException e) {
                core.enterTimewait(id);
                throw e;
            }
            id.state = IbCmState.DREQ_SENT;
            id.msg = m;
        }
    }

    /** {@code ib_send_cm_drep()}: the id enters timewait whether or not the DREP can be sent. */
    void sendDrep(CmIdImpl id, byte[] privateData) {
        CmConnection.checkLen(privateData, IbCm.DREP_PRIVATE_DATA_SIZE, "DREP private data");
        synchronized (id) {
            if (id.state != IbCmState.DREQ_RCVD) {
                throw new RdmaException(Errno.EINVAL, "ib_send_cm_drep: " + id + " is " + id.state
                        + ", no DREQ to answer");
            }
            id.privateData = CmConnection.copy(privateData);
            core.enterTimewait(id);
            MadSendBuf m = core.sender.alloc(id);
            formatDrep(id, privateData).toMad(m.mad(), id.tid);
            core.sender.post(m);
        }
    }

    private static CmDrepMsg formatDrep(CmIdImpl id, byte[] privateData) {
        CmDrepMsg d = new CmDrepMsg();
        d.localCommId = id.localId;
        d.remoteCommId = id.remoteId;
        d.privateData = CmMsg.area(privateData, CmDrepMsg.PRIVATE_DATA_SIZE);
        return d;
    }

    /**
     * {@code cm_dreq_handler()}: a DREQ for a connection we no longer know gets a DREP at once
     * ({@code cm_issue_drep()}); one in timewait gets the DREP sent before again.
     */
    void dreqHandler(CmPort port, MadRecvWc wc) {
        CmDreqMsg dreq = new CmDreqMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(dreq.remoteCommId, dreq.localCommId);
        if (id == null) {
            port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.DREQ_ATTR_ID, 1);
            issueDrep(port, wc, dreq);
            return;
        }
        MadSendBuf again = null;
        synchronized (id) {
            if (id.localQpn != dreq.remoteQpnEecn) {
                return;
            }
            switch (id.state) {
                case REP_SENT, DREQ_SENT -> {
                    core.sender.cancel(id);
                    id.msg = null;
                }
                case ESTABLISHED -> {
                    if (id.lapState == IbCmLapState.LAP_SENT || id.lapState == IbCmLapState.MRA_LAP_RCVD) {
                        core.sender.cancel(id);
                        id.msg = null;
                    }
                }
                case MRA_REP_RCVD -> {
                }
                case TIMEWAIT -> {
                    port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.DREQ_ATTR_ID, 1);
                    again = core.sender.allocResponse(port, wc);
                    formatDrep(id, id.privateData).toMad(again.mad(), id.tid);
                }
                case DREQ_RCVD -> {
                    port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.DREQ_ATTR_ID, 1);
                    return;
                }
                default -> {
                    return;
                }
            }
            if (again == null) {
                id.state = IbCmState.DREQ_RCVD;
                id.tid = wc.hdr().tid;
            }
        }
        if (again != null) {
            core.sender.postQuietly(again);
            return;
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.DREQ_RECEIVED, null, dreq.privateData.clone()));
    }

    /** {@code cm_issue_drep()}. */
    private void issueDrep(CmPort port, MadRecvWc wc, CmDreqMsg dreq) {
        MadSendBuf m;
        try {
            m = core.sender.allocResponse(port, wc);
        } catch (RuntimeException e) {
            port.dropped.incrementAndGet();
            return;
        }
        CmDrepMsg d = new CmDrepMsg();
        d.remoteCommId = dreq.localCommId;
        d.localCommId = dreq.remoteCommId;
        d.toMad(m.mad(), wc.hdr().tid);
        core.sender.postQuietly(m);
    }

    /** {@code cm_drep_handler()}. */
    void drepHandler(CmPort port, MadRecvWc wc) {
        CmDrepMsg drep = new CmDrepMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(drep.remoteCommId, drep.localCommId);
        if (id == null) {
            return;
        }
        synchronized (id) {
            if (id.state != IbCmState.DREQ_SENT && id.state != IbCmState.DREQ_RCVD) {
                return;
            }
            core.enterTimewait(id);
            core.sender.cancel(id);
            id.msg = null;
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.DREP_RECEIVED, null, drep.privateData.clone()));
    }
}
