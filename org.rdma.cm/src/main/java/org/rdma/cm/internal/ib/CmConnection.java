package org.rdma.cm.internal.ib;

import java.util.Arrays;
import java.util.function.Supplier;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmMraEventParam;
import org.rdma.cm.ib.IbCmRejEventParam;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmRepEventParam;
import org.rdma.cm.ib.IbCmRepParam;
import org.rdma.cm.ib.IbCmReqEventParam;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmState;
import org.rdma.cm.internal.ib.msg.CmMraMsg;
import org.rdma.cm.internal.ib.msg.CmMsg;
import org.rdma.cm.internal.ib.msg.CmRejMsg;
import org.rdma.cm.internal.ib.msg.CmRepMsg;
import org.rdma.cm.internal.ib.msg.CmReqMsg;
import org.rdma.cm.internal.ib.msg.CmRtuMsg;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Errno;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * Connection establishment (IBTA 12.9.5, 12.9.6): {@code ib_send_cm_req/rep/rtu/rej/mra()},
 * {@code ib_cm_notify()}, and the REQ, REP, RTU, REJ and MRA handlers with their duplicate and
 * stale-connection checks.
 */
final class CmConnection {
    /** Transport Service Type of a REQ ({@code cm_req_set_qp_type()}). */
    private static final int TST_RC = 0;
    private static final int TST_UC = 1;
    private static final int TST_EXTENDED = 3;
    /** Extended Transport Type: XRC. */
    private static final int ETT_XRC = 1;

    private final CmCore core;

    CmConnection(CmCore core) {
        this.core = core;
    }

    static void check(boolean ok, String what) {
        RdmaException.check(ok, Errno.EINVAL, what);
    }

    /** EINVAL with a message built only when needed (the checks sit on the connection path). */
    static void check(boolean ok, Supplier<String> what) {
        if (!ok) {
            throw new RdmaException(Errno.EINVAL, what.get());
        }
    }

    static void checkLen(byte[] data, int max, String what) {
        if (data != null && data.length > max) {
            throw new RdmaException(Errno.EINVAL, what + " of " + data.length + " bytes exceeds " + max);
        }
    }

    static byte[] copy(byte[] data) {
        return data == null || data.length == 0 ? null : data.clone();
    }

    private static void checkState(CmIdImpl id, String call, IbCmState... allowed) {
        for (IbCmState s : allowed) {
            if (id.state == s) {
                return;
            }
        }
        throw new RdmaException(Errno.EINVAL, call + ": " + id + " is " + id.state + ", needs one of "
                + Arrays.toString(allowed));
    }

    // ================================================================== active side: REQ

    /** {@code ib_send_cm_req()}. */
    void sendReq(CmIdImpl id, IbCmReqParam p) {
        check(p != null && p.primaryPath != null, "ib_send_cm_req: a primary path is required");
        check(p.qpType == QpType.RC || p.qpType == QpType.UC || p.qpType == QpType.XRC_INI,
                () -> "ib_send_cm_req: a REQ connects RC, UC or XRC initiator QPs, not " + p.qpType);
        checkLen(p.privateData, IbCm.REQ_PRIVATE_DATA_SIZE, "REQ private data");
        check(p.alternatePath == null || p.alternatePath.pkey == p.primaryPath.pkey
                && p.alternatePath.mtu == p.primaryPath.mtu, "ib_send_cm_req: the alternate path's P_Key and MTU "
                + "must be the primary path's");
        CmDevice dev = core.requireDevice(id.device);
        synchronized (id) {
            check(!id.destroyed && id.state == IbCmState.IDLE && id.timewaitInfo == null && id.pendingTimewait == null,
                    () -> "ib_send_cm_req: " + id + " is not idle");
            CmPaths.initAvByPath(dev, core.sa, p.primaryPath, p.ppathSgidAttr, id.av);
            if (p.alternatePath != null) {
                CmPaths.initAvByPath(dev, core.sa, p.alternatePath, null, id.altAv);
            }
            id.serviceId = p.serviceId;
            id.serviceMask = ~0L;
            id.timeoutMs = 2 * CmTime.toMs(p.primaryPath.packetLifeTime) + CmTime.toMs(p.remoteCmResponseTimeout);
            id.maxCmRetries = p.maxCmRetries;
            id.initiatorDepth = p.initiatorDepth;
            id.responderResources = p.responderResources;
            id.retryCount = p.retryCount;
            id.pathMtu = p.primaryPath.mtu;
            id.pkey = p.primaryPath.pkey;
            id.qpType = p.qpType;
            id.remoteCmResponseTimeout = p.remoteCmResponseTimeout;
            MadSendBuf m = core.sender.alloc(id);
            long tid = m.agent().tid(id.localId);
            formatReq(id, p, dev.ackDelay).toMad(m.mad(), tid);
            id.tid = tid;
            id.localQpn = p.qpNum & 0xFF_FFFF;
            id.rqPsn = p.startingPsn & 0xFF_FFFF;
            core.sender.postRequest(m, id.timeoutMs, IbCmState.REQ_SENT, null);
            id.timewaitInfo = new CmTimewait(id.localId);
            id.msg = m;
            id.state = IbCmState.REQ_SENT;
        }
    }

    /** {@code cm_format_req()}. */
    private static CmReqMsg formatReq(CmIdImpl id, IbCmReqParam p, int ackDelay) {
        CmReqMsg r = new CmReqMsg();
        PathRecord pri = p.primaryPath;
        r.localCommId = id.localId;
        r.serviceId = p.serviceId;
        r.localCaGuid = id.device.nodeGuid();
        r.localQpn = p.qpNum;
        r.initiatorDepth = p.initiatorDepth;
        r.remoteCmResponseTimeout = p.remoteCmResponseTimeout;
        if (p.qpType == QpType.XRC_INI) {
            r.transportServiceType = TST_EXTENDED;
            r.extendedTransportType = ETT_XRC;
        } else {
            r.transportServiceType = p.qpType == QpType.UC ? TST_UC : TST_RC;
            r.responderResources = p.responderResources;
            r.retryCount = p.retryCount;
            r.rnrRetryCount = p.rnrRetryCount;
            r.srq = p.srq;
        }
        r.endToEndFlowControl = p.flowControl;
        r.startingPsn = p.startingPsn;
        r.localCmResponseTimeout = p.localCmResponseTimeout;
        r.partitionKey = pri.pkey;
        r.pathPacketPayloadMtu = pri.mtu;
        r.maxCmRetries = p.maxCmRetries;
        boolean local = pri.hopLimit <= 1;
        r.primaryLocalPortGid = pri.sgid;
        r.primaryRemotePortGid = pri.dgid;
        r.primaryLocalPortLid = local ? pri.slid : CmPaths.LID_PERMISSIVE;
        r.primaryRemotePortLid = local ? pri.dlid : CmPaths.LID_PERMISSIVE;
        r.primaryFlowLabel = pri.flowLabel;
        r.primaryPacketRate = pri.rate;
        r.primaryTrafficClass = pri.trafficClass;
        r.primaryHopLimit = pri.hopLimit;
        r.primarySl = pri.sl;
        r.primarySubnetLocal = local ? 1 : 0;
        r.primaryLocalAckTimeout = CmTime.ackTimeout(ackDelay, pri.packetLifeTime);
        PathRecord alt = p.alternatePath;
        if (alt != null) {
            boolean altLocal = alt.hopLimit <= 1;
            r.alternateLocalPortGid = alt.sgid;
            r.alternateRemotePortGid = alt.dgid;
            r.alternateLocalPortLid = altLocal ? alt.slid : CmPaths.LID_PERMISSIVE;
            r.alternateRemotePortLid = altLocal ? alt.dlid : CmPaths.LID_PERMISSIVE;
            r.alternateFlowLabel = alt.flowLabel;
            r.alternatePacketRate = alt.rate;
            r.alternateTrafficClass = alt.trafficClass;
            r.alternateHopLimit = alt.hopLimit;
            r.alternateSl = alt.sl;
            r.alternateSubnetLocal = altLocal ? 1 : 0;
            r.alternateLocalAckTimeout = CmTime.ackTimeout(ackDelay, alt.packetLifeTime);
        }
        r.privateData = CmMsg.area(p.privateData, CmReqMsg.PRIVATE_DATA_SIZE);
        return r;
    }

    private static QpType qpTypeOf(CmReqMsg r) {
        if (r.transportServiceType == TST_EXTENDED && r.extendedTransportType == ETT_XRC) {
            return QpType.XRC_TGT;
        }
        return r.transportServiceType == TST_UC ? QpType.UC : QpType.RC;
    }

    // ================================================================== passive side: REQ received

    /** {@code cm_req_handler()}. */
    void reqHandler(CmPort port, MadRecvWc wc) {
        CmReqMsg req = new CmReqMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.create(port.device(), null, null);
        try {
            synchronized (id) {
                id.remoteId = req.localCommId;
                id.serviceId = req.serviceId;
                id.serviceMask = ~0L;
                id.tid = wc.hdr().tid;
                id.timeoutMs = CmTime.toMs(req.localCmResponseTimeout);
                id.maxCmRetries = req.maxCmRetries;
                id.remoteQpn = req.localQpn;
                id.initiatorDepth = req.responderResources;
                id.responderResources = req.initiatorDepth;
                id.pathMtu = req.pathPacketPayloadMtu;
                id.pkey = req.partitionKey;
                id.sqPsn = req.startingPsn;
                id.retryCount = req.retryCount;
                id.rnrRetryCount = req.rnrRetryCount;
                id.qpType = qpTypeOf(req);
                id.remoteCmResponseTimeout = req.localCmResponseTimeout;
                CmPaths.initAvForResponse(port, wc, id.av);
                CmTimewait tw = new CmTimewait(id.localId);
                tw.remoteId = req.localCommId;
                tw.remoteCaGuid = req.localCaGuid;
                tw.remoteQpn = req.localQpn;
                id.timewaitInfo = tw;
                id.state = IbCmState.REQ_RCVD;
            }
        } catch (RuntimeException e) {
            port.dropped.incrementAndGet();
            core.destroy(id, 0);
            return;
        }
        CmIdImpl listen = matchReq(port, wc, id, req);
        if (listen == null) {
            synchronized (id) {
                id.state = IbCmState.IDLE;
            }
            core.destroy(id, 0);
            return;
        }
        int hop = id.av.ahAttr.hasGrh() ? id.av.ahAttr.grh.hopLimit : 0;
        PathRecord[] paths = CmPaths.pathsFromReq(req, wc.wc(), port.roce, hop);
        try {
            synchronized (id) {
                CmPaths.initAvByPath(port.cmDev, core.sa, paths[0], null, id.av);
            }
        } catch (RuntimeException e) {
            rejectAndDestroy(id, IbCmRejReason.INVALID_GID, port.device().queryGid(port.portNum, 0).bytes());
            return;
        }
        if (paths[1] != null) {
            try {
                synchronized (id) {
                    CmPaths.initAvByPath(port.cmDev, core.sa, paths[1], null, id.altAv);
                }
            } catch (RuntimeException e) {
                rejectAndDestroy(id, IbCmRejReason.INVALID_ALT_GID, paths[0].sgid.bytes());
                return;
            }
        }
        id.handler = listen.handler;
        id.context = listen.context;
        IbCmReqEventParam e = reqEvent(port, wc, listen, req, paths);
        GidAttr sgid;
        synchronized (id) {
            sgid = CmCore.sgidAttr(id.av);
        }
        e.ppathSgidAttr = sgid;
        core.deliverLending(id, new IbCmEvent(IbCmEventType.REQ_RECEIVED, e, req.privateData.clone()), sgid);
    }

    private void rejectAndDestroy(CmIdImpl id, IbCmRejReason reason, byte[] ari) {
        try {
            sendRej(id, reason, ari, null);
        } catch (RdmaException e) {
            // the id goes anyway
        }
        core.destroy(id, 0);
    }

    /** {@code cm_format_req_event()}: the values named from the passive side. */
    private static IbCmReqEventParam reqEvent(CmPort port, MadRecvWc wc, CmIdImpl listen, CmReqMsg req,
            PathRecord[] paths) {
        IbCmReqEventParam e = new IbCmReqEventParam();
        e.listenId = listen;
        e.bthPkey = bthPkey(port, wc);
        e.port = port.portNum;
        e.primaryPath = paths[0];
        e.alternatePath = paths[1];
        e.remoteCaGuid = req.localCaGuid;
        e.remoteQkey = req.localQkey;
        e.remoteQpn = req.localQpn;
        e.qpType = qpTypeOf(req);
        e.startingPsn = req.startingPsn;
        e.responderResources = req.initiatorDepth;
        e.initiatorDepth = req.responderResources;
        e.localCmResponseTimeout = req.remoteCmResponseTimeout;
        e.flowControl = req.endToEndFlowControl;
        e.remoteCmResponseTimeout = req.localCmResponseTimeout;
        e.retryCount = req.retryCount;
        e.rnrRetryCount = req.rnrRetryCount;
        e.srq = req.srq;
        return e;
    }

    /** {@code cm_get_bth_pkey()}: the P_Key of the table entry the MAD arrived with, 0 if unreadable. */
    static int bthPkey(CmPort port, MadRecvWc wc) {
        try {
            return port.device().queryPkey(port.portNum, wc.wc().pkeyIndex);
        } catch (RdmaException e) {
            return 0;
        }
    }

    /**
     * {@code cm_match_req()}: a duplicate of a REQ being served is answered from its id; a REQ
     * from a QP we are connected to is a stale connection (REJ, and a DREQ on the old one); else
     * the listen for the service ID, or REJ(INVALID_SERVICE_ID).
     */
    private CmIdImpl matchReq(CmPort port, MadRecvWc wc, CmIdImpl id, CmReqMsg req) {
        CmTimewait tw = id.timewaitInfo;
        CmTimewait dup = core.tables.insertRemoteId(tw);
        if (dup != null) {
            CmIdImpl cur = core.tables.acquire(dup.localId, dup.remoteId);
            if (cur != null) {
                dupReq(port, wc, cur);
            }
            return null;
        }
        CmTimewait stale = core.tables.insertRemoteQpn(tw);
        if (stale != null) {
            core.tables.cleanupTimewait(tw);
            CmIdImpl cur = core.tables.acquire(stale.localId, stale.remoteId);
            issueRej(port, wc, IbCmRejReason.STALE_CONN, CmMsg.MSG_RESPONSE_REQ, null);
            if (cur != null) {
                dreqQuietly(cur);
            }
            return null;
        }
        CmIdImpl listen = core.tables.findListen(id.device, req.serviceId);
        if (listen == null) {
            core.tables.cleanupTimewait(tw);
            issueRej(port, wc, IbCmRejReason.INVALID_SERVICE_ID, CmMsg.MSG_RESPONSE_REQ, null);
        }
        return listen;
    }

    private void dreqQuietly(CmIdImpl id) {
        try {
            core.disc.sendDreq(id, null);
        } catch (RdmaException e) {
            // not established (any more): nothing to tear down
        }
    }

    /** {@code cm_dup_req_handler()}: an MRA sent is sent again; in timewait the answer is REJ(STALE_CONN). */
    private void dupReq(CmPort port, MadRecvWc wc, CmIdImpl id) {
        port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.REQ_ATTR_ID, 1);
        MadSendBuf m;
        synchronized (id) {
            if (id.state != IbCmState.MRA_REQ_SENT && id.state != IbCmState.TIMEWAIT) {
                return;
            }
            m = core.sender.allocResponse(port, wc);
            if (id.state == IbCmState.MRA_REQ_SENT) {
                formatMra(id, CmMsg.MSG_RESPONSE_REQ, id.serviceTimeout, id.privateData).toMad(m.mad(), id.tid);
            } else {
                formatRej(id, IbCmRejReason.STALE_CONN, null, null).toMad(m.mad(), id.tid);
            }
        }
        core.sender.postQuietly(m);
    }

    /** {@code cm_issue_rej()}: a REJ to the sender of a message no id takes. */
    void issueRej(CmPort port, MadRecvWc wc, IbCmRejReason reason, int msgRejected, byte[] ari) {
        CmRejMsg rcv = new CmRejMsg().fromMad(wc.mad());
        CmRejMsg rej = new CmRejMsg();
        rej.remoteCommId = rcv.localCommId;
        rej.localCommId = rcv.remoteCommId;
        rej.messageRejected = msgRejected;
        rej.reason = reason.value;
        if (ari != null && ari.length > 0) {
            rej.rejectInfoLength = ari.length;
            rej.ari = CmMsg.area(ari, CmRejMsg.ARI_SIZE);
        }
        MadSendBuf m;
        try {
            m = core.sender.allocResponse(port, wc);
        } catch (RuntimeException e) {
            port.dropped.incrementAndGet();
            return;
        }
        rej.toMad(m.mad(), wc.hdr().tid);
        core.sender.postQuietly(m);
    }

    // ================================================================== REP, RTU

    /** {@code ib_send_cm_rep()}. */
    void sendRep(CmIdImpl id, IbCmRepParam p) {
        check(p != null, "ib_send_cm_rep: no parameters");
        checkLen(p.privateData, IbCm.REP_PRIVATE_DATA_SIZE, "REP private data");
        CmDevice dev = core.requireDevice(id.device);
        synchronized (id) {
            checkState(id, "ib_send_cm_rep", IbCmState.REQ_RCVD, IbCmState.MRA_REQ_SENT);
            MadSendBuf m = core.sender.alloc(id);
            formatRep(id, p, dev.ackDelay).toMad(m.mad(), id.tid);
            core.sender.postRequest(m, id.timeoutMs, IbCmState.REP_SENT, null);
            id.state = IbCmState.REP_SENT;
            id.msg = m;
            id.initiatorDepth = p.initiatorDepth;
            id.responderResources = p.responderResources;
            id.rqPsn = p.startingPsn & 0xFF_FFFF;
            id.localQpn = p.qpNum & 0xFF_FFFF;
        }
    }

    /** {@code cm_format_rep()}. */
    private static CmRepMsg formatRep(CmIdImpl id, IbCmRepParam p, int ackDelay) {
        CmRepMsg r = new CmRepMsg();
        r.localCommId = id.localId;
        r.remoteCommId = id.remoteId;
        r.startingPsn = p.startingPsn;
        r.responderResources = p.responderResources;
        r.targetAckDelay = ackDelay;
        r.failoverAccepted = p.failoverAccepted;
        r.rnrRetryCount = p.rnrRetryCount;
        r.localCaGuid = id.device.nodeGuid();
        if (id.qpType != QpType.XRC_TGT) {
            r.initiatorDepth = p.initiatorDepth;
            r.endToEndFlowControl = p.flowControl;
            r.srq = p.srq;
            r.localQpn = p.qpNum;
        } else {
            r.srq = 1;
            r.localEecn = p.qpNum;
        }
        r.privateData = CmMsg.area(p.privateData, CmRepMsg.PRIVATE_DATA_SIZE);
        return r;
    }

    private static int repQpn(CmRepMsg rep, QpType type) {
        return type == QpType.XRC_INI ? rep.localEecn : rep.localQpn;
    }

    /** {@code cm_rep_handler()}. */
    void repHandler(CmPort port, MadRecvWc wc) {
        CmRepMsg rep = new CmRepMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(rep.remoteCommId, 0);
        if (id == null) {
            dupRep(port, wc, rep);
            return;
        }
        IbCmRepEventParam e;
        CmIdImpl staleId = null;
        boolean stale = false;
        synchronized (id) {
            if (id.state != IbCmState.REQ_SENT && id.state != IbCmState.MRA_REQ_RCVD) {
                return;
            }
            e = repEvent(rep, id.qpType);
            CmTimewait tw = id.timewaitInfo;
            tw.remoteId = rep.localCommId;
            tw.remoteCaGuid = rep.localCaGuid;
            tw.remoteQpn = repQpn(rep, id.qpType);
            if (core.tables.insertRemoteId(tw) != null) {
                return;
            }
            CmTimewait other = core.tables.insertRemoteQpn(tw);
            if (other != null) {
                core.tables.removeRemoteId(tw);
                staleId = core.tables.acquire(other.localId, other.remoteId);
                stale = true;
            } else {
                id.state = IbCmState.REP_RCVD;
                id.remoteId = rep.localCommId;
                id.remoteQpn = tw.remoteQpn;
                id.initiatorDepth = rep.responderResources;
                id.responderResources = rep.initiatorDepth;
                id.sqPsn = rep.startingPsn;
                id.rnrRetryCount = rep.rnrRetryCount;
                id.targetAckDelay = rep.targetAckDelay;
                id.av.timeout = CmTime.ackTimeout(id.targetAckDelay, id.av.timeout - 1);
                id.altAv.timeout = CmTime.ackTimeout(id.targetAckDelay, id.altAv.timeout - 1);
                core.sender.cancel(id);
                id.msg = null;
            }
        }
        if (stale) {
            issueRej(port, wc, IbCmRejReason.STALE_CONN, CmMsg.MSG_RESPONSE_REP, null);
            if (staleId != null) {
                dreqQuietly(staleId);
            }
            return;
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.REP_RECEIVED, e, rep.privateData.clone()));
    }

    /** {@code cm_format_rep_event()}. */
    private static IbCmRepEventParam repEvent(CmRepMsg rep, QpType type) {
        IbCmRepEventParam e = new IbCmRepEventParam();
        e.remoteCaGuid = rep.localCaGuid;
        e.remoteQkey = rep.localQkey;
        e.remoteQpn = repQpn(rep, type);
        e.startingPsn = rep.startingPsn;
        e.responderResources = rep.initiatorDepth;
        e.initiatorDepth = rep.responderResources;
        e.targetAckDelay = rep.targetAckDelay;
        e.failoverAccepted = rep.failoverAccepted;
        e.flowControl = rep.endToEndFlowControl;
        e.rnrRetryCount = rep.rnrRetryCount;
        e.srq = rep.srq;
        return e;
    }

    /** {@code cm_dup_rep_handler()}: the RTU (or MRA) answering a REP is sent again. */
    private void dupRep(CmPort port, MadRecvWc wc, CmRepMsg rep) {
        CmIdImpl id = core.tables.acquire(rep.remoteCommId, rep.localCommId);
        if (id == null) {
            return;
        }
        port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.REP_ATTR_ID, 1);
        MadSendBuf m;
        synchronized (id) {
            if (id.state != IbCmState.ESTABLISHED && id.state != IbCmState.MRA_REP_SENT) {
                return;
            }
            m = core.sender.allocResponse(port, wc);
            if (id.state == IbCmState.ESTABLISHED) {
                formatRtu(id, id.privateData).toMad(m.mad(), id.tid);
            } else {
                formatMra(id, CmMsg.MSG_RESPONSE_REP, id.serviceTimeout, id.privateData).toMad(m.mad(), id.tid);
            }
        }
        core.sender.postQuietly(m);
    }

    /** {@code ib_send_cm_rtu()}. */
    void sendRtu(CmIdImpl id, byte[] privateData) {
        checkLen(privateData, IbCm.RTU_PRIVATE_DATA_SIZE, "RTU private data");
        synchronized (id) {
            checkState(id, "ib_send_cm_rtu", IbCmState.REP_RCVD, IbCmState.MRA_REP_SENT);
            MadSendBuf m = core.sender.alloc(id);
            formatRtu(id, privateData).toMad(m.mad(), id.tid);
            core.sender.post(m);
            id.state = IbCmState.ESTABLISHED;
            id.privateData = copy(privateData);
        }
    }

    private static CmRtuMsg formatRtu(CmIdImpl id, byte[] privateData) {
        CmRtuMsg r = new CmRtuMsg();
        r.localCommId = id.localId;
        r.remoteCommId = id.remoteId;
        r.privateData = CmMsg.area(privateData, CmRtuMsg.PRIVATE_DATA_SIZE);
        return r;
    }

    /** {@code cm_rtu_handler()}. */
    void rtuHandler(CmPort port, MadRecvWc wc) {
        CmRtuMsg rtu = new CmRtuMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(rtu.remoteCommId, rtu.localCommId);
        if (id == null) {
            return;
        }
        synchronized (id) {
            if (id.state != IbCmState.REP_SENT && id.state != IbCmState.MRA_REP_RCVD) {
                port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.RTU_ATTR_ID, 1);
                return;
            }
            id.state = IbCmState.ESTABLISHED;
            core.sender.cancel(id);
            id.msg = null;
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.RTU_RECEIVED, null, rtu.privateData.clone()));
    }

    /** {@code cm_establish()}: {@code IB_EVENT_COMM_EST} on the passive side before the RTU. */
    void establish(CmIdImpl id) {
        CmDevice dev = core.requireDevice(id.device);
        synchronized (id) {
            if (id.state == IbCmState.ESTABLISHED) {
                throw new RdmaException(Errno.EINVAL, "ib_cm_notify(COMM_EST): " + id + " is established already");
            }
            checkState(id, "ib_cm_notify(COMM_EST)", IbCmState.REP_SENT, IbCmState.MRA_REP_RCVD);
            id.state = IbCmState.ESTABLISHED;
        }
        core.queue(dev, () -> {
            synchronized (id) {
                if (id.state != IbCmState.ESTABLISHED) {
                    return;
                }
                core.sender.cancel(id);
                id.msg = null;
            }
            core.deliver(id, new IbCmEvent(IbCmEventType.USER_ESTABLISHED, null, null));
        });
    }

    /** {@code cm_migrate()}: {@code IB_EVENT_PATH_MIG}, the alternate path became the primary one. */
    void migrate(CmIdImpl id) {
        synchronized (id) {
            check(id.state == IbCmState.ESTABLISHED
                    && (id.lapState == IbCmLapState.UNINIT || id.lapState == IbCmLapState.IDLE),
                    () -> "ib_cm_notify(PATH_MIG): " + id + " has no alternate path to migrate to");
            id.lapState = IbCmLapState.IDLE;
            CmAv tmp = new CmAv();
            tmp.copyFrom(id.av);
            id.av.copyFrom(id.altAv);
            id.altAv.copyFrom(tmp);
            tmp.clear();
        }
    }

    // ================================================================== REJ

    /** {@code ib_send_cm_rej()}. */
    void sendRej(CmIdImpl id, IbCmRejReason reason, byte[] ari, byte[] privateData) {
        check(reason != null, "ib_send_cm_rej: no reason");
        checkLen(privateData, IbCm.REJ_PRIVATE_DATA_SIZE, "REJ private data");
        checkLen(ari, IbCm.REJ_ARI_LENGTH, "REJ additional information");
        MadSendBuf m = null;
        synchronized (id) {
            RuntimeException failed = null;
            switch (id.state) {
                case REQ_SENT, MRA_REQ_RCVD, REQ_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT,
                        REP_SENT, MRA_REP_RCVD -> {
                    try {
                        m = core.sender.alloc(id);
                        formatRej(id, reason, ari, privateData).toMad(m.mad(), id.tid);
                    } catch (RuntimeException e) {
                        failed = e;
                    }
                    if (id.state == IbCmState.REP_SENT || id.state == IbCmState.MRA_REP_RCVD) {
                        core.enterTimewait(id);
                    } else {
                        core.resetToIdle(id);
                    }
                }
                default -> throw new RdmaException(Errno.EINVAL, "ib_send_cm_rej: " + id + " is " + id.state
                        + ", nothing to reject");
            }
            if (failed != null) {
                throw failed;
            }
            core.sender.post(m);
        }
    }

    /** {@code cm_format_rej()}: names the message rejected from the id's state; caller holds the lock. */
    CmRejMsg formatRej(CmIdImpl id, IbCmRejReason reason, byte[] ari, byte[] privateData) {
        CmRejMsg r = new CmRejMsg();
        r.remoteCommId = id.remoteId;
        switch (id.state) {
            case REQ_RCVD -> {
                r.localCommId = 0;
                r.messageRejected = CmMsg.MSG_RESPONSE_REQ;
            }
            case MRA_REQ_SENT -> {
                r.localCommId = id.localId;
                r.messageRejected = CmMsg.MSG_RESPONSE_REQ;
            }
            case REP_RCVD, MRA_REP_SENT -> {
                r.localCommId = id.localId;
                r.messageRejected = CmMsg.MSG_RESPONSE_REP;
            }
            default -> {
                r.localCommId = id.localId;
                r.messageRejected = CmMsg.MSG_RESPONSE_OTHER;
            }
        }
        r.reason = reason.value;
        if (ari != null && ari.length > 0) {
            r.rejectInfoLength = ari.length;
            r.ari = CmMsg.area(ari, CmRejMsg.ARI_SIZE);
        }
        r.privateData = CmMsg.area(privateData, CmRejMsg.PRIVATE_DATA_SIZE);
        return r;
    }

    /** {@code cm_acquire_rejected_id()}. */
    private CmIdImpl rejectedId(CmRejMsg rej) {
        if (rej.reason == IbCmRejReason.TIMEOUT.value) {
            long guid = 0;
            for (int i = 0; i < 8; i++) {
                guid = guid << 8 | rej.ari[i] & 0xFF;
            }
            CmTimewait tw = core.tables.findRemoteId(guid, rej.localCommId);
            return tw == null ? null : core.tables.acquire(tw.localId, rej.localCommId);
        }
        if (rej.messageRejected == CmMsg.MSG_RESPONSE_REQ) {
            return core.tables.acquire(rej.remoteCommId, 0);
        }
        return core.tables.acquire(rej.remoteCommId, rej.localCommId);
    }

    /** {@code cm_rej_handler()}. */
    void rejHandler(CmPort port, MadRecvWc wc) {
        CmRejMsg rej = new CmRejMsg().fromMad(wc.mad());
        CmIdImpl id = rejectedId(rej);
        if (id == null) {
            return;
        }
        IbCmRejEventParam e = new IbCmRejEventParam();
        e.reason = rej.reason;
        e.ari = Arrays.copyOf(rej.ari, Math.min(rej.rejectInfoLength, CmRejMsg.ARI_SIZE));
        boolean stale = rej.reason == IbCmRejReason.STALE_CONN.value;
        synchronized (id) {
            switch (id.state) {
                case REQ_SENT, MRA_REQ_RCVD, REP_SENT, MRA_REP_RCVD, REQ_RCVD, MRA_REQ_SENT -> {
                    core.sender.cancel(id);
                    id.msg = null;
                    if (stale) {
                        core.enterTimewait(id);
                    } else {
                        core.resetToIdle(id);
                    }
                }
                case DREQ_SENT, REP_RCVD, MRA_REP_SENT -> {
                    core.sender.cancel(id);
                    id.msg = null;
                    core.enterTimewait(id);
                }
                case ESTABLISHED -> {
                    if (id.lapState != IbCmLapState.UNINIT && id.lapState != IbCmLapState.LAP_SENT) {
                        return;
                    }
                    if (id.lapState == IbCmLapState.LAP_SENT) {
                        core.sender.cancel(id);
                        id.msg = null;
                    }
                    core.enterTimewait(id);
                }
                default -> {
                    return;
                }
            }
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.REJ_RECEIVED, e, rej.privateData.clone()));
    }

    // ================================================================== MRA

    /** {@code ib_send_cm_mra()}. */
    void sendMra(CmIdImpl id, int serviceTimeout, byte[] privateData) {
        checkLen(privateData, IbCm.MRA_PRIVATE_DATA_SIZE, "MRA private data");
        synchronized (id) {
            IbCmState next = id.state;
            IbCmLapState nextLap = id.lapState;
            int response;
            switch (id.state) {
                case REQ_RCVD -> {
                    next = IbCmState.MRA_REQ_SENT;
                    response = CmMsg.MSG_RESPONSE_REQ;
                }
                case REP_RCVD -> {
                    next = IbCmState.MRA_REP_SENT;
                    response = CmMsg.MSG_RESPONSE_REP;
                }
                case ESTABLISHED -> {
                    check(id.lapState == IbCmLapState.LAP_RCVD, () -> "ib_send_cm_mra: " + id + " has no LAP to acknowledge");
                    nextLap = IbCmLapState.MRA_LAP_SENT;
                    response = CmMsg.MSG_RESPONSE_OTHER;
                }
                default -> throw new RdmaException(Errno.EINVAL, "ib_send_cm_mra: " + id + " is " + id.state
                        + ", no message to acknowledge");
            }
            if ((serviceTimeout & IbCm.MRA_FLAG_DELAY) == 0) {
                MadSendBuf m = core.sender.alloc(id);
                formatMra(id, response, serviceTimeout, privateData).toMad(m.mad(), id.tid);
                core.sender.post(m);
            }
            id.state = next;
            id.lapState = nextLap;
            id.serviceTimeout = serviceTimeout & 0x1F;
            id.privateData = copy(privateData);
        }
    }

    static CmMraMsg formatMra(CmIdImpl id, int msgMraed, int serviceTimeout, byte[] privateData) {
        CmMraMsg r = new CmMraMsg();
        r.messageMraed = msgMraed;
        r.localCommId = id.localId;
        r.remoteCommId = id.remoteId;
        r.serviceTimeout = serviceTimeout & 0x1F;
        r.privateData = CmMsg.area(privateData, CmMraMsg.PRIVATE_DATA_SIZE);
        return r;
    }

    /** {@code cm_acquire_mraed_id()}. */
    private CmIdImpl mraedId(CmMraMsg mra) {
        return switch (mra.messageMraed) {
            case CmMsg.MSG_RESPONSE_REQ -> core.tables.acquire(mra.remoteCommId, 0);
            case CmMsg.MSG_RESPONSE_REP, CmMsg.MSG_RESPONSE_OTHER -> core.tables.acquire(mra.remoteCommId,
                    mra.localCommId);
            default -> null;
        };
    }

    /** {@code cm_mra_handler()}: the request's timeout grows by the service timeout the peer asked for. */
    void mraHandler(CmPort port, MadRecvWc wc) {
        CmMraMsg mra = new CmMraMsg().fromMad(wc.mad());
        CmIdImpl id = mraedId(mra);
        if (id == null) {
            return;
        }
        IbCmMraEventParam e = new IbCmMraEventParam();
        e.serviceTimeout = mra.serviceTimeout;
        synchronized (id) {
            int timeout = CmTime.toMs(mra.serviceTimeout) + CmTime.toMs(id.av.timeout);
            switch (id.state) {
                case REQ_SENT -> {
                    if (mra.messageMraed != CmMsg.MSG_RESPONSE_REQ || !core.sender.modify(id, timeout)) {
                        return;
                    }
                    id.state = IbCmState.MRA_REQ_RCVD;
                }
                case REP_SENT -> {
                    if (mra.messageMraed != CmMsg.MSG_RESPONSE_REP || !core.sender.modify(id, timeout)) {
                        return;
                    }
                    id.state = IbCmState.MRA_REP_RCVD;
                }
                case ESTABLISHED -> {
                    if (mra.messageMraed != CmMsg.MSG_RESPONSE_OTHER || id.lapState != IbCmLapState.LAP_SENT
                            || !core.sender.modify(id, timeout)) {
                        if (id.lapState == IbCmLapState.MRA_LAP_RCVD) {
                            port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.MRA_ATTR_ID, 1);
                        }
                        return;
                    }
                    id.lapState = IbCmLapState.MRA_LAP_RCVD;
                }
                case MRA_REQ_RCVD, MRA_REP_RCVD -> {
                    port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.MRA_ATTR_ID, 1);
                    return;
                }
                default -> {
                    return;
                }
            }
            if (id.msg != null && id.msg.context(1) instanceof CmSender.Sent s) {
                s.state = id.state;
            }
        }
        core.deliver(id, new IbCmEvent(IbCmEventType.MRA_RECEIVED, e, mra.privateData.clone()));
    }
}
