package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntBiFunction;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.verbs.RdmaException;

/**
 * A consumer of the RDMA CM with callbacks, the way a kernel ULP drives it: it records every
 * event and, unless told otherwise, resolves the route after the address, creates its QP and
 * connects after the route, creates its QP and accepts a request, and answers a disconnect.
 */
final class Ep implements RdmaCmHandler {
    /** One event as the handler saw it. */
    record Rec(RdmaCmId id, RdmaCmEvent ev) {
    }

    final CmaNet cn;
    final RdmaCmService cm;
    final List<Rec> log = new ArrayList<>();
    final Map<RdmaCmId, Res> res = new LinkedHashMap<>();
    boolean autoRoute = true;
    boolean autoConnect = true;
    boolean autoAccept = true;
    boolean autoDisconnect = true;
    /** Posted receives per new QP. */
    int recvs = 2;
    byte[] connectData;
    byte[] acceptData;
    /** When set, requests are rejected with this private data. */
    byte[] rejectData;
    /** Return value per event; non-zero destroys the id. */
    ToIntBiFunction<RdmaCmId, RdmaCmEvent> ret = (i, e) -> 0;

    Ep(CmaNet cn) {
        this.cn = cn;
        this.cm = cn.cm;
    }

    RdmaCmId create(RdmaPortSpace ps, org.rdma.verbs.QpType type) {
        return cm.createId(this, "ctx", ps, type);
    }

    @Override
    public int handle(RdmaCmId id, RdmaCmEvent ev) {
        log.add(new Rec(id, ev));
        switch (ev.event()) {
            case ADDR_RESOLVED -> {
                if (autoRoute) {
                    cm.resolveRoute(id, 2000);
                }
            }
            case ROUTE_RESOLVED -> {
                if (autoConnect) {
                    Res r = newRes(id);
                    RdmaConnParam p = new RdmaConnParam();
                    p.responderResources = 1;
                    p.initiatorDepth = 1;
                    p.retryCount = 7;
                    p.rnrRetryCount = 7;
                    p.privateData = connectData;
                    cm.connect(id, p);
                    assertEquals(r.qp, id.qp());
                }
            }
            case CONNECT_REQUEST -> {
                if (rejectData != null) {
                    cm.reject(id, rejectData, IbCmRejReason.CONSUMER_DEFINED);
                } else if (autoAccept) {
                    newRes(id);
                    RdmaConnParam p = new RdmaConnParam();
                    p.responderResources = 1;
                    p.initiatorDepth = 1;
                    p.rnrRetryCount = 7;
                    p.privateData = acceptData;
                    cm.accept(id, p);
                }
            }
            case DISCONNECTED -> {
                if (autoDisconnect) {
                    try {
                        cm.disconnect(id);
                    } catch (RdmaException e) {
                        // the DREP went out already
                    }
                }
            }
            default -> {
            }
        }
        return ret.applyAsInt(id, ev);
    }

    private Res newRes(RdmaCmId id) {
        Res r = new Res(cm, id);
        for (int i = 0; i < recvs; i++) {
            r.postRecv(i * 2048, 2048);
        }
        res.put(id, r);
        return r;
    }

    List<Rec> events(RdmaCmEventType t) {
        return log.stream().filter(r -> r.ev.event() == t).toList();
    }

    Rec only(RdmaCmEventType t) {
        List<Rec> l = events(t);
        assertEquals(1, l.size(), "one " + t + " in " + types());
        return l.get(0);
    }

    List<RdmaCmEventType> types() {
        return log.stream().map(r -> r.ev.event()).toList();
    }

    List<RdmaCmEventType> types(RdmaCmId id) {
        return log.stream().filter(r -> r.id == id).map(r -> r.ev.event()).toList();
    }

    /** Destroys every QP and verbs resource made, then the ids. */
    void destroyAll() {
        for (Map.Entry<RdmaCmId, Res> e : res.entrySet()) {
            e.getValue().close();
        }
        for (RdmaCmId id : res.keySet()) {
            cm.destroyId(id);
        }
        res.clear();
    }
}
