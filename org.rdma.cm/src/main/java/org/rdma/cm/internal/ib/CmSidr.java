package org.rdma.cm.internal.ib;

import java.util.Arrays;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmSidrRepEventParam;
import org.rdma.cm.ib.IbCmSidrRepParam;
import org.rdma.cm.ib.IbCmSidrReqEventParam;
import org.rdma.cm.ib.IbCmSidrReqParam;
import org.rdma.cm.ib.IbCmSidrStatus;
import org.rdma.cm.ib.IbCmState;
import org.rdma.cm.internal.ib.msg.CmMsg;
import org.rdma.cm.internal.ib.msg.CmSidrRepMsg;
import org.rdma.cm.internal.ib.msg.CmSidrReqMsg;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.RdmaException;

/**
 * Service ID resolution (IBTA 12.11): {@code ib_send_cm_sidr_req/rep()} and their handlers. A
 * SIDR id serves one request and goes back to idle; it never enters timewait.
 */
final class CmSidr {
    private final CmCore core;

    CmSidr(CmCore core) {
        this.core = core;
    }

    /** {@code ib_send_cm_sidr_req()}. */
    void sendReq(CmIdImpl id, IbCmSidrReqParam p) {
        CmConnection.check(p != null && p.path != null, "ib_send_cm_sidr_req: a path is required");
        CmConnection.checkLen(p.privateData, IbCm.SIDR_REQ_PRIVATE_DATA_SIZE, "SIDR_REQ private data");
        CmDevice dev = core.requireDevice(id.device);
        synchronized (id) {
            CmConnection.check(!id.destroyed && id.state == IbCmState.IDLE, () -> "ib_send_cm_sidr_req: " + id + " is not idle");
            CmPaths.initAvByPath(dev, core.sa, p.path, p.sgidAttr, id.av);
            id.serviceId = p.serviceId;
            id.serviceMask = ~0L;
            id.timeoutMs = p.timeoutMs;
            id.maxCmRetries = p.maxCmRetries;
            MadSendBuf m = core.sender.alloc(id);
            CmSidrReqMsg r = new CmSidrReqMsg();
            r.requestId = id.localId;
            r.partitionKey = p.path.pkey;
            r.serviceId = p.serviceId;
            r.privateData = CmMsg.area(p.privateData, CmSidrReqMsg.PRIVATE_DATA_SIZE);
            r.toMad(m.mad(), m.agent().tid(id.localId));
            core.sender.postRequest(m, id.timeoutMs, IbCmState.SIDR_REQ_SENT, null);
            id.state = IbCmState.SIDR_REQ_SENT;
            id.msg = m;
        }
    }

    /** {@code cm_sidr_req_handler()}: duplicates of a request being served are dropped. */
    void reqHandler(CmPort port, MadRecvWc wc) {
        CmSidrReqMsg req = new CmSidrReqMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.create(port.device(), null, null);
        Gid requester;
        try {
            synchronized (id) {
                id.remoteId = req.requestId;
                id.serviceId = req.serviceId;
                id.serviceMask = ~0L;
                id.tid = wc.hdr().tid;
                CmPaths.initAvForResponse(port, wc, id.av);
                requester = id.av.ahAttr.hasGrh() ? id.av.ahAttr.grh.dgid : Gid.of(wc.wc().slid, 0);
                id.av.dgid = requester;
            }
        } catch (RuntimeException e) {
            port.dropped.incrementAndGet();
            core.destroy(id, 0);
            return;
        }
        if (core.tables.insertRemoteSidr(id, new CmTables.SidrKey(requester, req.requestId)) != null) {
            port.count(IbCmCounterGroup.RECV_DUPLICATES, IbCm.SIDR_REQ_ATTR_ID, 1);
            core.destroy(id, 0);
            return;
        }
        synchronized (id) {
            id.state = IbCmState.SIDR_REQ_RCVD;
        }
        CmIdImpl listen = core.tables.findListen(id.device, req.serviceId);
        if (listen == null) {
            reply(id, IbCmSidrStatus.UNSUPPORTED);
            core.destroy(id, 0);
            return;
        }
        id.handler = listen.handler;
        id.context = listen.context;
        IbCmSidrReqEventParam e = new IbCmSidrReqEventParam();
        e.listenId = listen;
        e.serviceId = req.serviceId;
        e.bthPkey = CmConnection.bthPkey(port, wc);
        e.port = port.portNum;
        e.pkey = req.partitionKey;
        GidAttr sgid;
        synchronized (id) {
            sgid = CmCore.sgidAttr(id.av);
        }
        e.sgidAttr = sgid;
        core.deliverLending(id, new IbCmEvent(IbCmEventType.SIDR_REQ_RECEIVED, e, req.privateData.clone()), sgid);
    }

    /** {@code cm_reject_sidr_req()} from a destroyed id: SIDR_REP with {@link IbCmSidrStatus#REJECT}. */
    void reject(CmIdImpl id) {
        reply(id, IbCmSidrStatus.REJECT);
    }

    private void reply(CmIdImpl id, IbCmSidrStatus status) {
        IbCmSidrRepParam p = new IbCmSidrRepParam();
        p.status = status;
        try {
            sendRep(id, p);
        } catch (RdmaException e) {
            // the requester retries or times out
        }
    }

    /** {@code ib_send_cm_sidr_rep()}. */
    void sendRep(CmIdImpl id, IbCmSidrRepParam p) {
        CmConnection.check(p != null && p.status != null, "ib_send_cm_sidr_rep: no status");
        CmConnection.checkLen(p.info, IbCm.SIDR_REP_INFO_LENGTH, "SIDR_REP additional information");
        CmConnection.checkLen(p.privateData, IbCm.SIDR_REP_PRIVATE_DATA_SIZE, "SIDR_REP private data");
        synchronized (id) {
            if (id.state != IbCmState.SIDR_REQ_RCVD) {
                throw new RdmaException(Errno.EINVAL, "ib_send_cm_sidr_rep: " + id + " is " + id.state
                        + ", no SIDR_REQ to answer");
            }
            MadSendBuf m = core.sender.alloc(id);
            CmSidrRepMsg r = new CmSidrRepMsg();
            r.requestId = id.remoteId;
            r.status = p.status.value();
            r.qpn = p.qpNum;
            r.serviceId = id.serviceId;
            r.qkey = p.qkey;
            if (p.info != null && p.info.length > 0) {
                r.additionalInfoLength = p.info.length;
                r.additionalInfo = CmMsg.area(p.info, CmSidrRepMsg.INFO_SIZE);
            }
            r.privateData = CmMsg.area(p.privateData, CmSidrRepMsg.PRIVATE_DATA_SIZE);
            r.toMad(m.mad(), id.tid);
            core.sender.post(m);
            id.state = IbCmState.IDLE;
        }
        core.tables.removeRemoteSidr(id);
    }

    /** {@code cm_sidr_rep_handler()}. */
    void repHandler(CmPort port, MadRecvWc wc) {
        CmSidrRepMsg rep = new CmSidrRepMsg().fromMad(wc.mad());
        CmIdImpl id = core.tables.acquire(rep.requestId, 0);
        if (id == null) {
            return;
        }
        GidAttr sgid;
        synchronized (id) {
            if (id.state != IbCmState.SIDR_REQ_SENT) {
                return;
            }
            id.state = IbCmState.IDLE;
            core.sender.cancel(id);
            id.msg = null;
            sgid = CmCore.sgidAttr(id.av);
        }
        IbCmSidrRepEventParam e = new IbCmSidrRepEventParam();
        e.sgidAttr = sgid;
        e.status = rep.status;
        e.qkey = rep.qkey;
        e.qpn = rep.qpn;
        e.info = Arrays.copyOf(rep.additionalInfo, Math.min(rep.additionalInfoLength, CmSidrRepMsg.INFO_SIZE));
        core.deliverLending(id, new IbCmEvent(IbCmEventType.SIDR_REP_RECEIVED, e, rep.privateData.clone()), sgid);
    }
}
