package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntBiFunction;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmRepParam;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.mad.sa.PathRecord;
import org.rdma.sm.testkit.Verbs;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;

/**
 * A consumer of the CM on one host, the way the RDMA CM drives it: it records every event, and
 * (unless told otherwise) accepts REQs with a new RC QP brought to RTS by {@code ib_cm_init_qp_attr()},
 * completes REPs with the RTU, and answers DREQs.
 */
final class Peer implements IbCmHandler {
    /** One event as the handler saw it. */
    record Rec(IbCmId id, IbCmEvent ev) {
    }

    static final long SID = 0x0000_0000_0106_1234L;

    final CmNet cn;
    final String host;
    final IbDevice dev;
    final List<Rec> log = new ArrayList<>();
    final Map<IbCmId, Verbs> qps = new HashMap<>();
    boolean accept = true;
    boolean answerDreq = true;
    byte[] repData;
    /** Return value for each event; non-zero destroys the id. */
    ToIntBiFunction<IbCmId, IbCmEvent> ret = (i, e) -> 0;

    Peer(CmNet cn, String host) {
        this.cn = cn;
        this.host = host;
        this.dev = cn.dev(host);
    }

    @Override
    public int handle(IbCmId id, IbCmEvent ev) {
        log.add(new Rec(id, ev));
        switch (ev.event()) {
            case REQ_RECEIVED -> {
                if (accept) {
                    accept(id);
                }
            }
            case REP_RECEIVED -> {
                if (accept) {
                    toRts(id, qps.get(id));
                    cn.cm.sendCmRtu(id, "rtu".getBytes());
                }
            }
            case DREQ_RECEIVED -> {
                if (answerDreq) {
                    cn.cm.sendCmDrep(id, "drep".getBytes());
                }
            }
            default -> {
            }
        }
        return ret.applyAsInt(id, ev);
    }

    /** Accepts a received REQ: a new RC QP to INIT, the REP, then RTR and RTS. */
    void accept(IbCmId id) {
        Verbs v = new Verbs(dev, QpType.RC);
        qps.put(id, v);
        modify(id, v, QpState.INIT);
        IbCmRepParam p = new IbCmRepParam();
        p.qpNum = v.qp.qpNum();
        p.startingPsn = 0x222;
        p.responderResources = 1;
        p.initiatorDepth = 1;
        p.rnrRetryCount = 7;
        p.privateData = repData;
        cn.cm.sendCmRep(id, p);
        modify(id, v, QpState.RTR);
        modify(id, v, QpState.RTS);
    }

    /** RESET to RTS with the attributes the CM gives. */
    void toRts(IbCmId id, Verbs v) {
        for (QpState s : new QpState[] {QpState.INIT, QpState.RTR, QpState.RTS}) {
            modify(id, v, s);
        }
    }

    /** One transition with the attributes {@code ib_cm_init_qp_attr()} gives. */
    void modify(IbCmId id, Verbs v, QpState s) {
        QpAttr a = new QpAttr();
        a.qpState = s;
        int mask = cn.cm.cmInitQpAttr(id, a);
        v.qp.modify(a, mask);
    }

    /** Listens on {@link #SID}. */
    IbCmId listen() {
        IbCmId l = cn.cm.createCmId(dev, this, "listen@" + host);
        cn.cm.cmListen(l, SID, 0);
        return l;
    }

    /** A REQ to {@code to} for {@code sid} with a new RC QP. */
    IbCmId connect(String to, long sid, byte[] privateData) {
        return connect(reqParam(cn.path(host, to), sid, privateData));
    }

    IbCmReqParam reqParam(PathRecord path, long sid, byte[] privateData) {
        IbCmReqParam p = new IbCmReqParam();
        p.primaryPath = path;
        p.serviceId = sid;
        p.qpType = QpType.RC;
        p.startingPsn = 0x111;
        p.responderResources = 1;
        p.initiatorDepth = 1;
        p.remoteCmResponseTimeout = 20;
        p.localCmResponseTimeout = 20;
        p.retryCount = 7;
        p.rnrRetryCount = 7;
        p.maxCmRetries = 15;
        p.privateData = privateData;
        return p;
    }

    IbCmId connect(IbCmReqParam p) {
        IbCmId id = cn.cm.createCmId(dev, this, "conn@" + host);
        Verbs v = new Verbs(dev, QpType.RC);
        qps.put(id, v);
        p.qpNum = v.qp.qpNum();
        cn.cm.sendCmReq(id, p);
        return id;
    }

    List<Rec> events(IbCmEventType t) {
        return log.stream().filter(r -> r.ev.event() == t).toList();
    }

    Rec only(IbCmEventType t) {
        List<Rec> l = events(t);
        assertEquals(1, l.size(), host + ": one " + t + " in " + types());
        return l.get(0);
    }

    Rec last() {
        assertNotNull(log.isEmpty() ? null : log, host + ": no event yet");
        return log.get(log.size() - 1);
    }

    List<IbCmEventType> types() {
        return log.stream().map(r -> r.ev.event()).toList();
    }

    /** Destroys every QP made (after their ids are gone). */
    void closeQps() {
        for (Verbs v : qps.values()) {
            v.close();
        }
        qps.clear();
    }
}
