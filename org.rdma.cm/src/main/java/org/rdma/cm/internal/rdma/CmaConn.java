package org.rdma.cm.internal.rdma;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmRepEventParam;
import org.rdma.cm.ib.IbCmRepParam;
import org.rdma.cm.ib.IbCmReqEventParam;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmSidrRepEventParam;
import org.rdma.cm.ib.IbCmSidrRepParam;
import org.rdma.cm.ib.IbCmSidrReqEventParam;
import org.rdma.cm.ib.IbCmSidrReqParam;
import org.rdma.cm.ib.IbCmSidrStatus;
import org.rdma.cm.ib.IbCmState;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaUdParam;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * Connections over the IB CM: {@code rdma_connect()} ({@code cma_connect_ib()},
 * {@code cma_resolve_ib_udp()}), {@code rdma_accept()}, {@code rdma_reject()},
 * {@code rdma_disconnect()}, {@code rdma_notify()}, and the IB CM's events turned into RDMA CM
 * events: {@code cma_ib_req_handler()} for requests on a listen, {@code cma_ib_handler()} for
 * connected ids, {@code cma_sidr_rep_handler()} for UD ids. One {@link IbCmHandler} serves every
 * IB CM id of the RDMA CM (so listens on one service ID are shared, as
 * {@code ib_cm_insert_listen()} wants); an IB CM id's context is the RDMA CM id it belongs to.
 */
final class CmaConn implements IbCmHandler {
    private static final System.Logger LOG = System.getLogger(CmaConn.class.getName());
    /** {@code CMA_CM_MRA_SETTING}: an MRA only if the peer repeats itself, asking for the CM response timeout. */
    private static final int MRA_SETTING = IbCm.MRA_FLAG_DELAY | RdmaCm.CM_RESPONSE_TIMEOUT;
    /** The SIDR_REQ timeout per try: {@code 1 << (CMA_CM_RESPONSE_TIMEOUT - 8)} ms. */
    private static final int SIDR_TIMEOUT_MS = 1 << (RdmaCm.CM_RESPONSE_TIMEOUT - 8);

    private final Cma cma;

    CmaConn(Cma cma) {
        this.cma = cma;
    }

    /** {@code rdma_get_service_id()}. */
    long serviceId(CmaId id, SocketAddress addr) {
        if (addr instanceof IbSocketAddress ib) {
            return ib.sid();
        }
        return ((long) id.ps.value << 16) + CmaAddr.port(addr);
    }

    /** The private data of a REQ or SIDR_REQ: the IP CM header (IP ids), then the consumer's. */
    private static byte[] privateData(CmaId id, byte[] user, int max, String what) {
        int offset = id.family() == CmaAddr.AF_IB ? 0 : RdmaCm.CMA_HDR_SIZE;
        int len = user == null ? 0 : user.length;
        Cma.check(offset + len <= max, Errno.EINVAL, () -> what + ": " + len + " bytes of private data, at most "
                + (max - offset) + " fit");
        if (offset + len == 0) {
            return null;
        }
        byte[] out = new byte[offset + len];
        if (len > 0) {
            System.arraycopy(user, 0, out, offset, len);
        }
        if (offset > 0) {
            synchronized (id) {
                CmaHdr.of((InetSocketAddress) id.src, (InetSocketAddress) id.dst).encode(out, 0);
            }
        }
        return out;
    }

    // ================================================================== active side

    /** {@code rdma_connect()}. */
    void connect(CmaId id, RdmaConnParam p) {
        RdmaException.check(p != null, Errno.EINVAL, "rdma_connect: no connection parameters");
        id.handlerLock.lock();
        try {
            Cma.check(id.compExch(RdmaCmState.ROUTE_RESOLVED, RdmaCmState.CONNECT), Errno.EINVAL,
                    () -> "rdma_connect: " + id + " has no resolved route");
            synchronized (id.qpLock) {
                if (id.qp == null) {
                    id.qpNum = p.qpNum & 0xFF_FFFF;
                    id.srq = p.srq != 0;
                }
            }
            try {
                if (id.qpType == QpType.UD) {
                    resolveIbUdp(id, p);
                } else {
                    connectIb(id, p);
                }
            } catch (RuntimeException e) {
                id.compExch(RdmaCmState.CONNECT, RdmaCmState.ROUTE_RESOLVED);
                throw e;
            }
        } finally {
            id.handlerLock.unlock();
        }
    }

    /** {@code cma_connect_ib()}. */
    private void connectIb(CmaId id, RdmaConnParam p) {
        byte[] pd = privateData(id, p.privateData, IbCm.REQ_PRIVATE_DATA_SIZE, "rdma_connect");
        IbCmReqParam r = new IbCmReqParam();
        synchronized (id) {
            Cma.check(id.paths.length > 0, Errno.EINVAL, () -> "rdma_connect: " + id + " has no path");
            r.primaryPath = id.paths[0];
            r.alternatePath = id.paths.length > 1 ? id.paths[1] : null;
            r.serviceId = serviceId(id, id.dst);
        }
        r.ppathSgidAttr = id.sgidAttr;
        synchronized (id.qpLock) {
            r.qpNum = id.qpNum;
            r.startingPsn = id.seqNum;
            r.srq = id.srq ? 1 : 0;
        }
        r.qpType = id.qpType;
        r.responderResources = p.responderResources;
        r.initiatorDepth = p.initiatorDepth;
        r.flowControl = p.flowControl;
        r.retryCount = Math.min(7, p.retryCount);
        r.rnrRetryCount = Math.min(7, p.rnrRetryCount);
        r.remoteCmResponseTimeout = RdmaCm.CM_RESPONSE_TIMEOUT;
        r.localCmResponseTimeout = RdmaCm.CM_RESPONSE_TIMEOUT;
        r.maxCmRetries = RdmaCm.MAX_CM_RETRIES;
        r.privateData = pd;
        IbCmId cm = cma.ibcm.createCmId(id.device, this, id);
        id.cmId = cm;
        try {
            cma.ibcm.sendCmReq(cm, r);
        } catch (RuntimeException e) {
            id.cmId = null;
            cma.destroyCmIdQuietly(cm);
            throw e;
        }
    }

    /** {@code cma_resolve_ib_udp()}: a SIDR_REQ for the destination's service ID. */
    private void resolveIbUdp(CmaId id, RdmaConnParam p) {
        byte[] pd = privateData(id, p.privateData, IbCm.SIDR_REQ_PRIVATE_DATA_SIZE, "rdma_connect");
        IbCmSidrReqParam r = new IbCmSidrReqParam();
        synchronized (id) {
            Cma.check(id.paths.length > 0, Errno.EINVAL, () -> "rdma_connect: " + id + " has no path");
            r.path = id.paths[0];
            r.serviceId = serviceId(id, id.dst);
        }
        r.sgidAttr = id.sgidAttr;
        r.timeoutMs = SIDR_TIMEOUT_MS;
        r.maxCmRetries = RdmaCm.MAX_CM_RETRIES;
        r.privateData = pd;
        IbCmId cm = cma.ibcm.createCmId(id.device, this, id);
        id.cmId = cm;
        try {
            cma.ibcm.sendCmSidrReq(cm, r);
        } catch (RuntimeException e) {
            id.cmId = null;
            cma.destroyCmIdQuietly(cm);
            throw e;
        }
    }

    /**
     * {@code cma_rep_recv()}: the QP to RTR and RTS, then the RTU; on failure the QP to ERR and a
     * REJ. Returns 0 or a negative errno.
     */
    private int repRecv(CmaId id) {
        IbCmId cm = id.cmId;
        try {
            cma.qp.modifyRtr(id, null);
            cma.qp.modifyRts(id, null);
            cma.ibcm.sendCmRtu(cm, null);
            return 0;
        } catch (RdmaException e) {
            LOG.log(Level.DEBUG, "{0}: CONNECT_ERROR: reply not handled: {1}", id, e.getMessage());
            cma.qp.modifyErr(id);
            rejQuietly(cm, IbCmRejReason.CONSUMER_DEFINED, null);
            return e.errno().negative();
        }
    }

    private void rejQuietly(IbCmId cm, IbCmRejReason reason, byte[] pd) {
        try {
            cma.ibcm.sendCmRej(cm, reason, null, pd);
        } catch (RdmaException e) {
            LOG.log(Level.DEBUG, "REJ not sent: {0}", e.getMessage());
        }
    }

    // ================================================================== passive side calls

    /** {@code rdma_accept()}. */
    void accept(CmaId id, RdmaConnParam p) {
        id.handlerLock.lock();
        try {
            Cma.check(id.stateNow() == RdmaCmState.CONNECT && id.cmId != null, Errno.EINVAL,
                    () -> "rdma_accept: " + id + " has no request or reply to accept");
            synchronized (id.qpLock) {
                if (id.qp == null && p != null) {
                    id.qpNum = p.qpNum & 0xFF_FFFF;
                    id.srq = p.srq != 0;
                }
            }
            try {
                if (id.qpType == QpType.UD) {
                    sendSidrRep(id, IbCmSidrStatus.SUCCESS, p == null ? 0 : p.qkey, p == null ? null : p.privateData);
                } else if (p != null) {
                    acceptIb(id, p);
                } else {
                    int r = repRecv(id);
                    if (r != 0) {
                        throw new RdmaException(Errno.of(r), "rdma_accept: " + id + " could not complete the connection");
                    }
                }
            } catch (RdmaException e) {
                cma.qp.modifyErr(id);
                IbCmId cm = id.cmId;
                if (cm != null && id.qpType != QpType.UD) {
                    rejQuietly(cm, IbCmRejReason.CONSUMER_DEFINED, null);
                } else if (cm != null) {
                    try {
                        sendSidrRep(id, IbCmSidrStatus.REJECT, 0, null);
                    } catch (RdmaException ignored) {
                        // the requester times out
                    }
                }
                throw e;
            }
        } finally {
            id.handlerLock.unlock();
        }
    }

    /** {@code cma_accept_ib()}: the QP to RTR and RTS, then the REP. */
    private void acceptIb(CmaId id, RdmaConnParam p) {
        Cma.check(p.privateData == null || p.privateData.length <= IbCm.REP_PRIVATE_DATA_SIZE,
                Errno.EINVAL, () -> "rdma_accept: at most " + IbCm.REP_PRIVATE_DATA_SIZE + " bytes of private data fit a REP");
        cma.qp.modifyRtr(id, p);
        cma.qp.modifyRts(id, p);
        IbCmRepParam r = new IbCmRepParam();
        synchronized (id.qpLock) {
            r.qpNum = id.qpNum;
            r.startingPsn = id.seqNum;
            r.srq = id.srq ? 1 : 0;
        }
        r.privateData = p.privateData;
        r.responderResources = p.responderResources;
        r.initiatorDepth = p.initiatorDepth;
        r.failoverAccepted = 0;
        r.flowControl = p.flowControl;
        r.rnrRetryCount = Math.min(7, p.rnrRetryCount);
        cma.ibcm.sendCmRep(id.cmId, r);
    }

    /** {@code cma_send_sidr_rep()}. */
    private void sendSidrRep(CmaId id, IbCmSidrStatus status, int qkey, byte[] pd) {
        IbCmSidrRepParam r = new IbCmSidrRepParam();
        r.status = status;
        if (status == IbCmSidrStatus.SUCCESS) {
            if (qkey != 0) {
                cma.qp.setQkey(id, qkey);
            } else {
                cma.qp.setDefaultQkey(id);
            }
            synchronized (id.qpLock) {
                r.qpNum = id.qpNum;
                r.qkey = id.qkey;
            }
        }
        r.privateData = pd;
        cma.ibcm.sendCmSidrRep(id.cmId, r);
    }

    /** {@code rdma_reject()}. */
    void reject(CmaId id, byte[] pd, IbCmRejReason reason) {
        IbCmId cm = id.cmId;
        Cma.check(cm != null, Errno.EINVAL, () -> "rdma_reject: " + id + " has nothing to reject");
        if (id.qpType == QpType.UD) {
            sendSidrRep(id, IbCmSidrStatus.REJECT, 0, pd);
        } else {
            cma.ibcm.sendCmRej(cm, reason == null ? IbCmRejReason.CONSUMER_DEFINED : reason, null, pd);
        }
    }

    /** {@code rdma_disconnect()}: the QP to ERR; then a DREQ, or if one came, the DREP. */
    void disconnect(CmaId id) {
        IbCmId cm = id.cmId;
        Cma.check(cm != null, Errno.EINVAL, () -> "rdma_disconnect: " + id + " is not connected");
        if (!cma.qp.modifyErr(id)) {
            throw new RdmaException(Errno.EINVAL, "rdma_disconnect: the QP of " + id + " cannot enter ERR");
        }
        try {
            cma.ibcm.sendCmDreq(cm, null);
        } catch (RdmaException e) {
            try {
                cma.ibcm.sendCmDrep(cm, null);
            } catch (RdmaException e2) {
                LOG.log(Level.DEBUG, "{0}: neither DREQ nor DREP to send: {1}", id, e2.getMessage());
            }
        }
    }

    /** {@code rdma_notify()}. */
    void notify(CmaId id, IbEventType event) {
        IbCmId cm = id.cmId;
        Cma.check(cm != null, Errno.EINVAL, () -> "rdma_notify: " + id + " has no connection");
        cma.ibcm.cmNotify(cm, event);
    }

    // ================================================================== IB CM events

    @Override
    public int handle(IbCmId cm, IbCmEvent ev) {
        switch (ev.event()) {
            case REQ_RECEIVED, SIDR_REQ_RECEIVED -> {
                return reqHandler(cm, ev);
            }
            default -> {
                if (!(cm.context() instanceof CmaId id)) {
                    return 0;
                }
                return id.qpType == QpType.UD ? sidrRepHandler(id, ev) : ibHandler(id, cm, ev);
            }
        }
    }

    /** {@code ib_prepare_cm_mra()}: an MRA goes out only if the peer resends its message meanwhile. */
    private void prepareMra(IbCmId cm) {
        IbCmState s = cm.state();
        if (s != IbCmState.REQ_RCVD && s != IbCmState.REP_RCVD) {
            return;
        }
        try {
            cma.ibcm.sendCmMra(cm, MRA_SETTING, null);
        } catch (RdmaException e) {
            LOG.log(Level.DEBUG, "MRA not prepared: {0}", e.getMessage());
        }
    }

    /** {@code cma_ib_handler()}. */
    private int ibHandler(CmaId id, IbCmId cm, IbCmEvent ev) {
        id.handlerLock.lock();
        RdmaCmState s = id.stateNow();
        boolean timewait = ev.event() == org.rdma.cm.ib.IbCmEventType.TIMEWAIT_EXIT;
        if (!timewait && s != RdmaCmState.CONNECT || timewait && s != RdmaCmState.DISCONNECT) {
            id.handlerLock.unlock();
            return 0;
        }
        RdmaCmEventType type;
        int status = 0;
        RdmaConnParam conn = null;
        switch (ev.event()) {
            case REQ_ERROR, REP_ERROR -> {
                type = RdmaCmEventType.UNREACHABLE;
                status = Errno.ETIMEDOUT.negative();
            }
            case REP_RECEIVED -> {
                prepareMra(cm);
                conn = repEventData(ev.repRcvd(), ev.privateData());
                if (id.qp() != null) {
                    status = repRecv(id);
                    type = status != 0 ? RdmaCmEventType.CONNECT_ERROR : RdmaCmEventType.ESTABLISHED;
                } else {
                    type = RdmaCmEventType.CONNECT_RESPONSE;
                }
            }
            case RTU_RECEIVED, USER_ESTABLISHED -> type = RdmaCmEventType.ESTABLISHED;
            case DREQ_ERROR, DREQ_RECEIVED, DREP_RECEIVED -> {
                if (ev.event() == org.rdma.cm.ib.IbCmEventType.DREQ_ERROR) {
                    status = Errno.ETIMEDOUT.negative();
                }
                if (!id.compExch(RdmaCmState.CONNECT, RdmaCmState.DISCONNECT)) {
                    id.handlerLock.unlock();
                    return 0;
                }
                type = RdmaCmEventType.DISCONNECTED;
            }
            case TIMEWAIT_EXIT -> type = RdmaCmEventType.TIMEWAIT_EXIT;
            case REJ_RECEIVED -> {
                cma.qp.modifyErr(id);
                status = ev.rejRcvd().reason;
                type = RdmaCmEventType.REJECTED;
                conn = new RdmaConnParam();
                conn.privateData = ev.privateData() == null ? new byte[IbCm.REJ_PRIVATE_DATA_SIZE]
                        : ev.privateData().clone();
            }
            default -> {
                id.handlerLock.unlock();
                return 0;
            }
        }
        int ret = cma.callHandler(id, new RdmaCmEvent(type, status, id, null, conn, null));
        if (ret != 0) {
            id.cmId = null;
            cma.destroyHandlerUnlock(id);
            return ret;
        }
        id.handlerLock.unlock();
        return 0;
    }

    /** {@code cma_set_rep_event_data()}. */
    private static RdmaConnParam repEventData(IbCmRepEventParam rep, byte[] pd) {
        RdmaConnParam c = new RdmaConnParam();
        c.privateData = pd == null ? new byte[IbCm.REP_PRIVATE_DATA_SIZE] : pd.clone();
        c.responderResources = rep.responderResources;
        c.initiatorDepth = rep.initiatorDepth;
        c.flowControl = rep.flowControl;
        c.rnrRetryCount = rep.rnrRetryCount;
        c.srq = rep.srq;
        c.qpNum = rep.remoteQpn;
        return c;
    }

    /** {@code cma_sidr_rep_handler()}. */
    private int sidrRepHandler(CmaId id, IbCmEvent ev) {
        id.handlerLock.lock();
        if (id.stateNow() != RdmaCmState.CONNECT) {
            id.handlerLock.unlock();
            return 0;
        }
        RdmaCmEventType type;
        int status = 0;
        RdmaUdParam ud = new RdmaUdParam();
        switch (ev.event()) {
            case SIDR_REQ_ERROR -> {
                type = RdmaCmEventType.UNREACHABLE;
                status = Errno.ETIMEDOUT.negative();
            }
            case SIDR_REP_RECEIVED -> {
                IbCmSidrRepEventParam rep = ev.sidrRepRcvd();
                ud.privateData = ev.privateData() == null ? new byte[IbCm.SIDR_REP_PRIVATE_DATA_SIZE]
                        : ev.privateData().clone();
                if (rep.status != IbCmSidrStatus.SUCCESS.value()) {
                    type = RdmaCmEventType.UNREACHABLE;
                    status = rep.status;
                } else {
                    type = udEstablished(id, rep, ud);
                    status = type == RdmaCmEventType.ESTABLISHED ? 0 : Errno.EINVAL.negative();
                }
            }
            default -> {
                id.handlerLock.unlock();
                return 0;
            }
        }
        int ret = cma.callHandler(id, new RdmaCmEvent(type, status, id, null, null, ud));
        if (ret != 0) {
            id.cmId = null;
            cma.destroyHandlerUnlock(id);
            return ret;
        }
        id.handlerLock.unlock();
        return 0;
    }

    private RdmaCmEventType udEstablished(CmaId id, IbCmSidrRepEventParam rep, RdmaUdParam ud) {
        try {
            cma.qp.setQkey(id, rep.qkey);
        } catch (RdmaException e) {
            return RdmaCmEventType.ADDR_ERROR;
        }
        PathRecord path;
        synchronized (id) {
            path = id.paths[0];
        }
        cma.sa.initAhAttrFromPath(id.device, id.port, path, ud.ahAttr);
        ud.qpNum = rep.qpn;
        ud.qkey = rep.qkey;
        return RdmaCmEventType.ESTABLISHED;
    }

    // ================================================================== requests on a listen

    /** {@code struct cma_req_info} with the parsed IP CM header. */
    private record ReqInfo(int port, Gid localGid, long serviceId, int pkey, CmaHdr hdr, boolean sidr,
            IbCmReqEventParam req, IbCmSidrReqEventParam sidrReq) {
    }

    /** {@code cma_save_req_info()} and the header part of {@code cma_get_net_dev()}. */
    private static ReqInfo reqInfo(IbCmEvent ev) {
        byte[] pd = ev.privateData();
        CmaHdr hdr = CmaHdr.decode(pd, 0);
        if (ev.event() == org.rdma.cm.ib.IbCmEventType.REQ_RECEIVED) {
            IbCmReqEventParam r = ev.reqRcvd();
            return new ReqInfo(r.port, r.primaryPath.sgid, r.primaryPath.serviceId, r.primaryPath.pkey, hdr, false, r,
                    null);
        }
        IbCmSidrReqEventParam s = ev.sidrReqRcvd();
        return new ReqInfo(s.port, null, s.serviceId, s.pkey, hdr, true, null, s);
    }

    /**
     * {@code cma_ib_req_handler()}: finds the listener of the request's port and address, makes
     * the new id (bound to the device, the IB CM id its own) and reports
     * {@link RdmaCmEventType#CONNECT_REQUEST}. A non-zero return makes the IB CM destroy its id:
     * with {@code -ENOMEM} (backlog full) the request is dropped so the peer retries, otherwise
     * it is rejected.
     */
    private int reqHandler(IbCmId cm, IbCmEvent ev) {
        ReqInfo req = reqInfo(ev);
        CmaDevice cd = cma.cmaDevice(cm.device());
        if (cd == null) {
            return Errno.ENODEV.negative();
        }
        CmaId listener = cma.listen.findListener(cd, req.port(), req.serviceId(), req.hdr());
        if (listener == null) {
            return Errno.EINVAL.negative();
        }
        QpType reqType = req.sidr() ? QpType.UD : req.req().qpType;
        if (listener.qpType != reqType) {
            return Errno.EINVAL.negative();
        }
        CmaId user = listener.isInternal() ? listener.parent : listener;
        listener.handlerLock.lock();
        try {
            if (listener.stateNow() != RdmaCmState.LISTEN) {
                return Errno.ECONNABORTED.negative();
            }
            CmaId conn = newConnId(listener, user, req, cd);
            conn.handlerLock.lock();
            try {
                acquireDev(conn, cd, req);
            } catch (RdmaException e) {
                LOG.log(Level.DEBUG, "{0}: request not taken: {1}", listener, e.getMessage());
                cma.destroyHandlerUnlock(conn);
                return e.errno().negative();
            }
            conn.cmId = cm;
            cm.setContext(conn);
            int offset = user.family() == CmaAddr.AF_IB ? 0 : RdmaCm.CMA_HDR_SIZE;
            RdmaCmEvent out = req.sidr() ? udRequest(conn, user, ev, offset) : connRequest(conn, user, ev, offset);
            int ret = cma.callHandler(conn, out);
            if (ret != 0) {
                conn.cmId = null;
                cma.destroyHandlerUnlock(conn);
                return ret;
            }
            if (conn.stateNow() == RdmaCmState.CONNECT && conn.qpType != QpType.UD) {
                prepareMra(cm);
            }
            conn.handlerLock.unlock();
            return 0;
        } finally {
            listener.handlerLock.unlock();
        }
    }

    /** {@code cma_set_req_event_data()}. */
    private static RdmaCmEvent connRequest(CmaId conn, CmaId user, IbCmEvent ev, int offset) {
        IbCmReqEventParam r = ev.reqRcvd();
        RdmaConnParam c = new RdmaConnParam();
        byte[] pd = ev.privateData() == null ? new byte[IbCm.REQ_PRIVATE_DATA_SIZE] : ev.privateData();
        c.privateData = Arrays.copyOfRange(pd, offset, IbCm.REQ_PRIVATE_DATA_SIZE);
        c.responderResources = r.responderResources;
        c.initiatorDepth = r.initiatorDepth;
        c.flowControl = r.flowControl;
        c.retryCount = r.retryCount;
        c.rnrRetryCount = r.rnrRetryCount;
        c.srq = r.srq;
        c.qpNum = r.remoteQpn;
        return new RdmaCmEvent(RdmaCmEventType.CONNECT_REQUEST, 0, conn, user, c, null);
    }

    private static RdmaCmEvent udRequest(CmaId conn, CmaId user, IbCmEvent ev, int offset) {
        RdmaUdParam u = new RdmaUdParam();
        byte[] pd = ev.privateData() == null ? new byte[IbCm.SIDR_REQ_PRIVATE_DATA_SIZE] : ev.privateData();
        u.privateData = Arrays.copyOfRange(pd, offset, IbCm.SIDR_REQ_PRIVATE_DATA_SIZE);
        return new RdmaCmEvent(RdmaCmEventType.CONNECT_REQUEST, 0, conn, user, null, u);
    }

    /**
     * {@code cma_ib_new_conn_id()} / {@code cma_ib_new_udp_id()}: the id of the request, with the
     * listener's handler or channel and context, its addresses from the IP CM header (or the
     * path for {@code AF_IB}) and, when connected, its path.
     */
    private CmaId newConnId(CmaId listener, CmaId user, ReqInfo req, CmaDevice cd) {
        CmaId conn = cma.createId(user.handler, user.channel, user.context, listener.ps,
                req.sidr() ? QpType.UD : req.req().qpType, user.owner, null);
        SocketAddress src;
        SocketAddress dst;
        int port = (int) (req.serviceId() & 0xFFFF);
        if (user.family() == CmaAddr.AF_IB) {
            IbSocketAddress lib;
            synchronized (user) {
                lib = (IbSocketAddress) user.src;
            }
            if (!req.sidr()) {
                PathRecord p = req.req().primaryPath;
                src = new IbSocketAddress(p.sgid, p.pkey, p.flowLabel, p.serviceId, ~0L, 0);
                dst = new IbSocketAddress(p.dgid, p.pkey, p.flowLabel, 0, 0, 0);
            } else {
                src = lib.withSid(lib.sid(), ~0L);
                dst = new IbSocketAddress(Gid.ZERO, lib.pkey(), 0, 0, 0, 0);
            }
        } else {
            src = new InetSocketAddress(req.hdr().dst(), port);
            dst = new InetSocketAddress(req.hdr().src(), req.hdr().srcPort());
        }
        synchronized (conn) {
            conn.src = src;
            conn.dst = dst;
            if (!req.sidr()) {
                PathRecord pri = req.req().primaryPath;
                PathRecord alt = req.req().alternatePath;
                conn.paths = alt == null ? new PathRecord[] {pri} : new PathRecord[] {pri, alt};
                conn.sgid = pri.sgid;
                conn.dgid = pri.dgid;
                conn.pkey = pri.pkey;
            } else {
                conn.pkey = req.pkey();
            }
            conn.state = RdmaCmState.CONNECT;
        }
        return conn;
    }

    /**
     * {@code cma_ib_acquire_dev()}: the request's port, with the GID entry of the new id's source
     * (its IP address on RoCE, the path's source GID on InfiniBand).
     */
    private void acquireDev(CmaId conn, CmaDevice cd, ReqInfo req) {
        Gid gid;
        synchronized (conn) {
            gid = cd.isRoce(req.port()) ? CmaAddr.ip2gid(conn.src) : conn.sgid;
        }
        if (gid.isZero()) {
            gid = cd.device.queryGid(req.port(), 0);
        }
        GidAttr a = CmaResolver.gidOnPort(cd, req.port(), gid);
        if (a == null) {
            throw new RdmaException(Errno.ENODEV, cd.device.name() + "/" + req.port() + " has no GID " + gid);
        }
        cma.attachDev(conn, cd, req.port(), a);
        synchronized (conn) {
            conn.sgid = gid;
        }
    }
}
