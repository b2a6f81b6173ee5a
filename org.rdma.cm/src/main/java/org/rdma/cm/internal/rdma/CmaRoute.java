package org.rdma.cm.internal.rdma;

import java.net.SocketAddress;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;

/**
 * Route resolution: {@code rdma_resolve_route()} with {@code cma_resolve_ib_route()} (an SA
 * PathRecord query, {@code cma_query_ib_route()}) on InfiniBand and
 * {@code cma_resolve_iboe_route()} (a path built locally) on RoCE.
 */
final class CmaRoute {
    /** {@code IB_SA_EQ}. */
    private static final int SELECTOR_EQ = 2;
    /** {@code IB_GRH_FLOWLABEL_MASK}. */
    private static final int FLOWLABEL_MASK = 0xF_FFFF;

    private final Cma cma;

    CmaRoute(Cma cma) {
        this.cma = cma;
    }

    /** A path query under way ({@code id_priv->query}). */
    private static final class Query {
        volatile int id = -1;
        volatile boolean done;
    }

    /** {@code rdma_resolve_route()}. */
    void resolveRoute(CmaId id, int timeoutMs) {
        RdmaException.check(timeoutMs > 0, Errno.EINVAL, "rdma_resolve_route: the timeout must be positive");
        Cma.check(id.compExch(RdmaCmState.ADDR_RESOLVED, RdmaCmState.ROUTE_QUERY), Errno.EINVAL,
                () -> "rdma_resolve_route: " + id + " has no resolved address");
        try {
            CmaDevice cd = id.cmaDev;
            Cma.check(cd != null, Errno.ENODEV, () -> "rdma_resolve_route: " + id + " lost its device");
            if (cd.isRoce(id.port)) {
                iboeRoute(id, cd);
            } else {
                queryIbRoute(id, timeoutMs);
            }
        } catch (RuntimeException e) {
            id.compExch(RdmaCmState.ROUTE_QUERY, RdmaCmState.ADDR_RESOLVED);
            throw e;
        }
    }

    /** {@code cma_query_ib_route()}: SubnAdmGet(PathRecord) from the source to the destination GID. */
    private void queryIbRoute(CmaId id, int timeoutMs) {
        PathRecord q = new PathRecord();
        long mask = PathRecord.DGID | PathRecord.SGID | PathRecord.PKEY | PathRecord.NUMB_PATH
                | PathRecord.REVERSIBLE | PathRecord.SERVICE_ID;
        SocketAddress src;
        synchronized (id) {
            q.sgid = id.sgid;
            q.dgid = id.dgid;
            q.pkey = id.pkey;
            src = id.src;
            q.serviceId = cma.conn.serviceId(id, id.dst);
        }
        q.numbPath = 1;
        q.reversible = 1;
        int tos;
        synchronized (id.qpLock) {
            tos = id.tos;
        }
        switch (CmaAddr.family(src)) {
            case CmaAddr.AF_INET -> {
                q.qosClass = tos;
                mask |= PathRecord.QOS_CLASS;
            }
            case CmaAddr.AF_INET6 -> {
                q.trafficClass = 0;
                mask |= PathRecord.TRAFFIC_CLASS;
            }
            default -> {
                q.trafficClass = (((IbSocketAddress) src).flowinfo() >>> 20) & 0xFF;
                mask |= PathRecord.TRAFFIC_CLASS;
            }
        }
        Query query = new Query();
        synchronized (id) {
            id.routeQuery = query;
        }
        int qid = cma.sa.pathRecGet(cma.saClient, id.device, id.port, q, mask, timeoutMs,
                (status, rec) -> queryHandler(id, query, status, rec));
        if (qid < 0) {
            throw new RdmaException(Errno.of(qid), "rdma_resolve_route: the SA path query could not be sent");
        }
        query.id = qid;
    }

    /** {@code cma_query_handler()}: the result goes through the work queue. */
    private void queryHandler(CmaId id, Query query, int status, PathRecord rec) {
        query.done = true;
        synchronized (id) {
            if (id.routeQuery == query) {
                id.routeQuery = null;
            }
            if (status == 0) {
                id.paths = new PathRecord[] {rec};
            }
        }
        if (status == 0) {
            cma.queueWork(id, RdmaCmState.ROUTE_QUERY, RdmaCmState.ROUTE_RESOLVED,
                    Cma.event(id, RdmaCmEventType.ROUTE_RESOLVED, 0));
        } else {
            cma.queueWork(id, RdmaCmState.ROUTE_QUERY, RdmaCmState.ADDR_RESOLVED,
                    Cma.event(id, RdmaCmEventType.ROUTE_ERROR, status));
        }
    }

    /**
     * {@code cma_resolve_iboe_route()}: GIDs from the IP addresses, P_Key 0xFFFF, the port's MTU,
     * the type of service as traffic class, {@link RdmaCm#IBOE_PACKET_LIFETIME} (or half the ACK
     * timeout set on the id) and, for RoCE v2, a flow label hashed from the ports.
     */
    private void iboeRoute(CmaId id, CmaDevice cd) {
        IbDevice d = cd.device;
        int tos;
        int timeout;
        boolean timeoutSet;
        synchronized (id.qpLock) {
            tos = id.tos;
            timeout = id.timeout;
            timeoutSet = id.timeoutSet;
        }
        PathRecord p = new PathRecord();
        p.roce = true;
        synchronized (id) {
            p.sgid = CmaAddr.ip2gid(id.src);
            p.dgid = CmaAddr.ip2gid(id.dst);
            p.hopLimit = id.dst instanceof IbSocketAddress ? 1 : id.hopLimit;
            p.flowLabel = flowLabel(id.src, id.dst);
        }
        p.reversible = 1;
        p.numbPath = 1;
        p.pkey = 0xFFFF;
        p.mtuSelector = SELECTOR_EQ;
        p.sl = 0;
        p.trafficClass = tos;
        p.mtu = d.queryPort(id.port).activeMtu.value;
        p.rateSelector = SELECTOR_EQ;
        p.rate = 0;
        p.packetLifeTimeSelector = SELECTOR_EQ;
        p.packetLifeTime = timeoutSet && timeout > 0 ? timeout - 1 : RdmaCm.IBOE_PACKET_LIFETIME;
        Cma.check(p.mtu != 0, Errno.EINVAL, () -> "rdma_resolve_route: " + d.name() + "/" + id.port + " has no MTU");
        synchronized (id) {
            id.paths = new PathRecord[] {p};
        }
        cma.queueWork(id, RdmaCmState.ROUTE_QUERY, RdmaCmState.ROUTE_RESOLVED,
                Cma.event(id, RdmaCmEventType.ROUTE_RESOLVED, 0));
    }

    /** {@code cma_get_roce_udp_flow_label()}: sport * 31 + dport, 20 bits. */
    static int flowLabel(SocketAddress src, SocketAddress dst) {
        int sport = CmaAddr.port(src);
        int dport = CmaAddr.port(dst);
        return (sport * 31 + dport) & FLOWLABEL_MASK;
    }

    /** {@code cma_cancel_route()}: the SA query is cancelled; its callback finds the id destroyed. */
    void cancel(CmaId id) {
        Query q;
        synchronized (id) {
            q = (Query) id.routeQuery;
            id.routeQuery = null;
        }
        if (q != null && !q.done && q.id >= 0) {
            cma.sa.cancelQuery(q.id);
        }
    }
}
