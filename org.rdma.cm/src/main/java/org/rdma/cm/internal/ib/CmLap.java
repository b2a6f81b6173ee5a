package org.rdma.cm.internal.ib;

import java.util.Arrays;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmAprEventParam;
import org.rdma.cm.ib.IbCmAprStatus;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmLapEventParam;
import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmState;
import org.rdma.cm.internal.ib.msg.CmAprMsg;
import org.rdma.cm.internal.ib.msg.CmLapMsg;
import org.rdma.cm.internal.ib.msg.CmMsg;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * Alternate path loading (IBTA 12.8): {@code ib_send_cm_lap/apr()} as kernels up to 5.8 had
 * them, and the LAP and APR handlers. Like the kernel, RoCE ports do not take part.
 */
final class CmLap {
    private final CmCore core;

    CmLap(CmCore core) {
        this.core = core;
    }

    /** {@code ib_send_cm_lap()}. */
    void sendLap(CmIdImpl id, PathRecord alt, byte[] privateData) {
        CmConnection.check(alt != null, "ib_send_cm_lap: an alternate path is required");
        CmConnection.checkLen(privateData, IbCm.LAP_PRIVATE_DATA_SIZE, "LAP private data");
        CmDevice dev = core.requireDevice(id.device);
        synchronized (id) {
            CmConnection.check(id.state == IbCmState.ESTABLISHED
                    && (id.lapState == IbCmLapState.UNINIT || id.lapState == IbCmLapState.IDLE),
                    () -> "ib_send_cm_lap: " + id + " is " + id.state + "/" + id.lapState);
            RdmaException.check(id.av.port != null && !id.av.port.roce, Errno.EOPNOTSUPP,
                    "ib_send_cm_lap: no alternate paths on RoCE");
            CmPaths.initAvByPath(dev, core.sa, alt, null, id.altAv);
            id.altAv.timeout = CmTime.ackTimeout(id.targetAckDelay, id.altAv.timeout - 1);
            MadSendBuf m = core.sender.alloc(id);
            CmLapMsg l = new CmLapMsg();
            l.localCommId = id.localId;
            l.remoteCommId = id.remoteId;
            l.remoteQpnEecn = id.remoteQpn;
            l.remoteCmResponseTimeout = id.remoteCmResponseTimeout;
            l.alternateLocalPortLid = alt.slid;
            l.alternateRemotePortLid = alt.dlid;
            l.alternateLocalPortGid = alt.sgid;
            l.alternateRemotePortGid = alt.dgid;
            l.alternateFlowLabel = alt.flowLabel;
            l.alternateTrafficClass = alt.trafficClass;
            l.alternateHopLimit = alt.hopLimit;
            l.alternatePacketRate = alt.rate;
            l.alternateSl = alt.sl;
            l.alternateSubnetLocal = 1;
            l.alternateLocalAckTimeout = CmTime.ackTimeout(dev.ackDelay, alt.packetLifeTime);
            l.privateData = CmMsg.area(privateData, CmLapMsg.PRIVATE_DATA_SIZE);
            l.toMad(m.mad(), m.agent().tid(id.localId));
            core.sender.postRequest(m, id.timeoutMs, IbCmState.ESTABLISHED, IbCmLapState.LAP_SENT);
            id.lapState = IbCmLapState.LAP_SENT;
            id.msg = m;
        }
    }

    /** {@code cm_lap_handler()}: a LAP already acknowledged with an MRA gets the MRA again. */
    void lapHandler(CmPort port, MadRecvWc wc) {
        if (port.roce) {
            port.dropped.incrementAndGet();
            return;
        }
        CmLapMsg lap = new CmLapMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(lap.remoteCommId, lap.localCommId);
        if (id == null) {
            return;
        }
        IbCmLapEventParam e = new IbCmLapEventParam();
        MadSendBuf again = null;
        synchronized (id) {
            if (id.state != IbCmState.ESTABLISHED) {
                return;
            }
            switch (id.lapState) {
                case UNINIT, IDLE -> {
                }
                case MRA_LAP_SENT -> {
                    port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.LAP_ATTR_ID, 1);
                    again = core.sender.allocResponse(port, wc);
                    CmConnection.formatMra(id, CmMsg.MSG_RESPONSE_OTHER, id.serviceTimeout, id.privateData)
                            .toMad(again.mad(), id.tid);
                }
                case LAP_RCVD -> {
                    port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.LAP_ATTR_ID, 1);
                    return;
                }
                default -> {
                    return;
                }
            }
            if (again == null) {
                e.alternatePath = CmPaths.pathFromLap(lap, id.pkey, id.pathMtu);
                try {
                    CmPaths.initAvByPath(port.cmDev, core.sa, e.alternatePath, null, id.altAv);
                } catch (RdmaException x) {
                    return;
                }
                id.lapState = IbCmLapState.LAP_RCVD;
                id.tid = wc.hdr().tid;
            }
        }
        if (again != null) {
            core.sender.postQuietly(again);
            return;
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.LAP_RECEIVED, e, lap.privateData.clone()));
    }

    /** {@code ib_send_cm_apr()}. */
    void sendApr(CmIdImpl id, IbCmAprStatus status, byte[] info, byte[] privateData) {
        CmConnection.check(status != null, "ib_send_cm_apr: no status");
        CmConnection.checkLen(info, IbCm.APR_INFO_LENGTH, "APR additional information");
        CmConnection.checkLen(privateData, IbCm.APR_PRIVATE_DATA_SIZE, "APR private data");
        synchronized (id) {
            CmConnection.check(id.state == IbCmState.ESTABLISHED
                    && (id.lapState == IbCmLapState.LAP_RCVD || id.lapState == IbCmLapState.MRA_LAP_SENT),
                    () -> "ib_send_cm_apr: " + id + " has no LAP to answer");
            MadSendBuf m = core.sender.alloc(id);
            CmAprMsg a = new CmAprMsg();
            a.localCommId = id.localId;
            a.remoteCommId = id.remoteId;
            a.apStatus = status.value();
            if (info != null && info.length > 0) {
                a.additionalInfoLength = info.length;
                a.additionalInfo = CmMsg.area(info, CmAprMsg.INFO_SIZE);
            }
            a.privateData = CmMsg.area(privateData, CmAprMsg.PRIVATE_DATA_SIZE);
            a.toMad(m.mad(), id.tid);
            core.sender.post(m);
            id.lapState = IbCmLapState.IDLE;
        }
    }

    /** {@code cm_apr_handler()}. */
    void aprHandler(CmPort port, MadRecvWc wc) {
        if (port.roce) {
            port.dropped.incrementAndGet();
            return;
        }
        CmAprMsg apr = new CmAprMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(apr.remoteCommId, apr.localCommId);
        if (id == null) {
            return;
        }
        synchronized (id) {
            if (id.state != IbCmState.ESTABLISHED
                    || id.lapState != IbCmLapState.LAP_SENT && id.lapState != IbCmLapState.MRA_LAP_RCVD) {
                return;
            }
            id.lapState = IbCmLapState.IDLE;
            core.sender.cancel(id);
            id.msg = null;
        }
        IbCmAprEventParam e = new IbCmAprEventParam();
        e.apStatus = apr.apStatus;
        e.aprInfo = Arrays.copyOf(apr.additionalInfo, Math.min(apr.additionalInfoLength, CmAprMsg.INFO_SIZE));
        core.deliver(id, new IbCmEvent(IbCmEventType.APR_RECEIVED, e, apr.privateData.clone()));
    }
}
