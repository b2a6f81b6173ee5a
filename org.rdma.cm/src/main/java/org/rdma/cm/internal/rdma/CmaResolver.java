package org.rdma.cm.internal.rdma;

import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * Binding and address resolution: {@code rdma_bind_addr()} with {@code cma_acquire_dev_by_src_ip()},
 * and {@code rdma_resolve_addr()} with the loopback ({@code cma_resolve_loopback()}),
 * {@code AF_IB} ({@code cma_resolve_ib_dev()}) and IP ({@code rdma_resolve_ip()} of addr.c) paths.
 *
 * <p>IP addresses live in the GID tables of RoCE ports (IPv4-mapped and IPv6 GIDs); the route to
 * a destination is the port that owns it (loopback on the device) or the first active RoCE port
 * with an address of its family whose segment knows it. The neighbour is resolved as the kernel
 * does it for RoCE, by the driver: an address handle to the destination GID is created on the
 * port, which makes the driver ARP or solicit the neighbour; while that fails the request is
 * retried until its timeout ({@code -ETIMEDOUT}); a neighbour that answered is not asked again
 * for 30 s, as the kernel's neighbour table keeps it reachable. InfiniBand ports carry no IPoIB addresses
 * here: IP destinations only they could reach fail with {@code EADDRNOTAVAIL}, and InfiniBand
 * peers are addressed by GID ({@link IbSocketAddress}).
 */
final class CmaResolver {
    private static final System.Logger LOG = System.getLogger(CmaResolver.class.getName());
    /** First re-probe of an unresolved neighbour; doubles up to the request's deadline. */
    private static final long FIRST_RETRY_MS = 10;
    /** How long a neighbour that answered counts as reachable ({@code base_reachable_time}, 30 s). */
    private static final long REACHABLE_NS = TimeUnit.SECONDS.toNanos(30);
    /** {@code IPV6_DEFAULT_HOPLIMIT}, the hop limit of routed destinations. */
    static final int DEFAULT_HOPLIMIT = 64;

    private final Cma cma;

    CmaResolver(Cma cma) {
        this.cma = cma;
    }

    // ================================================================== bind

    /** {@code rdma_bind_addr_dst()}. */
    void bind(CmaId id, SocketAddress addr, SocketAddress daddr) {
        int family = CmaAddr.family(addr);
        Cma.check(id.compExch(RdmaCmState.IDLE, RdmaCmState.ADDR_BOUND), Errno.EINVAL,
                () -> "rdma_bind_addr: " + id + " is not idle");
        try {
            synchronized (id) {
                id.src = addr;
            }
            if (!CmaAddr.isAny(addr)) {
                acquireDevBySrc(id, addr);
            }
            synchronized (id) {
                if (!id.afonlySet) {
                    id.afonly = family == CmaAddr.AF_INET;
                }
                id.dst = daddr;
            }
            SocketAddress bound;
            synchronized (cma.lock) {
                bound = cma.ports.getPort(id, addr, daddr);
            }
            synchronized (id) {
                id.src = bound;
                if (bound instanceof IbSocketAddress ib) {
                    id.pkey = ib.pkey();
                }
            }
        } catch (RuntimeException e) {
            if (id.device != null) {
                cma.releaseDev(id);
            }
            synchronized (id) {
                id.src = null;
                id.dst = null;
            }
            id.compExch(RdmaCmState.ADDR_BOUND, RdmaCmState.IDLE);
            throw e;
        }
    }

    /**
     * {@code cma_translate_addr()} and {@code cma_acquire_dev_by_src_ip()}: the device and port
     * whose GID table holds the address (RoCE GIDs for IP, IB GIDs for {@code AF_IB}).
     */
    private void acquireDevBySrc(CmaId id, SocketAddress addr) {
        Gid gid = CmaAddr.ip2gid(addr);
        boolean ib = addr instanceof IbSocketAddress;
        for (CmaDevice cd : cma.deviceList()) {
            GidAttr a = findGid(cd, gid, ib ? LinkLayer.INFINIBAND : LinkLayer.ETHERNET);
            if (a != null) {
                cma.attachDev(id, cd, a.portNum(), a);
                synchronized (id) {
                    id.sgid = gid;
                    id.pkey = ib ? ((IbSocketAddress) addr).pkey() : 0xFFFF;
                }
                return;
            }
        }
        throw new RdmaException(Errno.EADDRNOTAVAIL, "rdma_bind_addr: no local port has "
                + (ib ? "GID " + gid : "address " + CmaAddr.ip(addr).getHostAddress())
                + (ib ? "" : " (IP addresses live on RoCE ports; InfiniBand ports carry no IPoIB addresses here:"
                        + " bind an IbSocketAddress with the port's GID)"));
    }

    /** The held GID entry of {@code gid} on a port of link layer {@code ll} of the device, or {@code null}. */
    static GidAttr findGid(CmaDevice cd, Gid gid, LinkLayer ll) {
        IbDevice d = cd.device;
        for (int p = d.startPort(); p <= d.endPort(); p++) {
            if (d.getLinkLayer(p) != ll) {
                continue;
            }
            GidAttr a = gidOnPort(cd, p, gid);
            if (a != null) {
                return a;
            }
        }
        return null;
    }

    /**
     * {@code rdma_find_gid_by_port()} with the port's default GID type: held, or {@code null}. The
     * cache's lookup finds the entry; a GID on two ports (one IP address on two RoCE ports) falls
     * back to scanning the port's table.
     */
    static GidAttr gidOnPort(CmaDevice cd, int port, Gid gid) {
        IbDevice d = cd.device;
        GidType want = cd.defaultGidType(port);
        GidAttr a;
        try {
            a = d.findGidAttr(gid, want, null);
        } catch (RdmaException e) {
            return null;
        }
        if (a.portNum() == port) {
            return a;
        }
        a.put();
        int len;
        try {
            len = d.queryPort(port).gidTblLen;
        } catch (RdmaException e) {
            return null;
        }
        for (int i = 0; i < len; i++) {
            try {
                GidAttr c = d.getGidAttr(port, i);
                if (c.gid().equals(gid) && c.gidType() == want) {
                    return c;
                }
                c.put();
            } catch (RdmaException e) {
                // empty slot
            }
        }
        return null;
    }

    // ================================================================== resolve

    /** {@code rdma_resolve_addr()}. */
    void resolveAddr(CmaId id, SocketAddress src, SocketAddress dst, int timeoutMs) {
        RdmaException.check(dst != null, Errno.EINVAL, "rdma_resolve_addr: no destination");
        int dfam = CmaAddr.family(dst);
        prepareSrc(id, src, dst, dfam);
        try {
            if (CmaAddr.isAny(dst)) {
                resolveLoopback(id);
            } else if (dfam == CmaAddr.AF_IB) {
                resolveIb(id);
            } else {
                resolveIp(id, timeoutMs);
            }
        } catch (RuntimeException e) {
            id.compExch(RdmaCmState.ADDR_QUERY, RdmaCmState.ADDR_BOUND);
            throw e;
        }
    }

    /** {@code resolve_prepare_src()}: bind if unbound, then {@link RdmaCmState#ADDR_QUERY}. */
    private void prepareSrc(CmaId id, SocketAddress src, SocketAddress dst, int dfam) {
        if (!id.compExch(RdmaCmState.ADDR_BOUND, RdmaCmState.ADDR_QUERY)) {
            SocketAddress s = src != null ? src : CmaAddr.anyOf(dfam, dst);
            bind(id, s, dst);
            Cma.check(id.compExch(RdmaCmState.ADDR_BOUND, RdmaCmState.ADDR_QUERY), Errno.EINVAL,
                    () -> "rdma_resolve_addr: " + id + " changed state while binding");
        } else {
            synchronized (id) {
                id.dst = dst;
            }
        }
        if (id.family() != dfam) {
            id.compExch(RdmaCmState.ADDR_QUERY, RdmaCmState.ADDR_BOUND);
            throw new RdmaException(Errno.EINVAL, "rdma_resolve_addr: source " + CmaAddr.format(id.srcAddr())
                    + " and destination " + CmaAddr.format(dst) + " are of different families");
        }
    }

    private void queueResolved(CmaId id) {
        cma.queueWork(id, RdmaCmState.ADDR_QUERY, RdmaCmState.ADDR_RESOLVED,
                Cma.event(id, RdmaCmEventType.ADDR_RESOLVED, 0));
    }

    /**
     * {@code cma_resolve_loopback()} with {@code cma_bind_loopback()}: an unbound id goes to the
     * first active port; the destination is the source. On a RoCE port the loopback address
     * stands for the port's own address of that family, which is what the GIDs hold.
     */
    private void resolveLoopback(CmaId id) {
        if (id.device == null) {
            bindLoopback(id);
        }
        synchronized (id) {
            if (id.dst instanceof InetSocketAddress d && id.src instanceof InetSocketAddress s
                    && id.cmaDev != null && id.cmaDev.isRoce(id.port)) {
                id.dst = new InetSocketAddress(s.getAddress(), d.getPort());
            }
            id.dgid = id.sgid;
            id.hopLimit = 1;
        }
        queueResolved(id);
    }

    private void bindLoopback(CmaId id) {
        int fam = id.family();
        CmaDevice first = null;
        for (CmaDevice cd : cma.deviceList()) {
            IbDevice d = cd.device;
            if (first == null) {
                first = cd;
            }
            for (int p = d.startPort(); p <= d.endPort(); p++) {
                if (!active(d, p) || fam == CmaAddr.AF_IB && cd.isRoce(p)) {
                    continue;
                }
                if (bindLoopbackPort(id, cd, p, fam)) {
                    return;
                }
            }
        }
        RdmaException.check(first != null, Errno.ENODEV, "rdma_resolve_addr: no RDMA device for a loopback address");
        if (!bindLoopbackPort(id, first, 1, fam)) {
            throw new RdmaException(Errno.ENODEV, "rdma_resolve_addr: " + first.device.name()
                    + "/1 has no address for a loopback connection");
        }
    }

    private boolean bindLoopbackPort(CmaId id, CmaDevice cd, int p, int fam) {
        IbDevice d = cd.device;
        if (cd.isRoce(p)) {
            InetAddress own = portAddress(cd, p, fam, false);
            if (own == null) {
                return false;
            }
            GidAttr a = gidOnPort(cd, p, Gid.fromIp(own));
            if (a == null) {
                return false;
            }
            cma.attachDev(id, cd, p, a);
            synchronized (id) {
                id.src = new InetSocketAddress(own, CmaAddr.port(id.src));
                id.sgid = a.gid();
                id.pkey = 0xFFFF;
            }
            return true;
        }
        GidAttr a;
        int pkey;
        try {
            a = d.getGidAttr(p, 0);
            pkey = d.queryPkey(p, 0);
        } catch (RdmaException e) {
            return false;
        }
        cma.attachDev(id, cd, p, a);
        synchronized (id) {
            id.sgid = a.gid();
            id.pkey = pkey;
            id.src = CmaAddr.loopbackOf(id.src);
        }
        return true;
    }

    /**
     * {@code cma_resolve_ib_addr()} with {@code cma_resolve_ib_dev()}: the port that has the
     * destination GID (loopback), else the first active InfiniBand port on its subnet with its
     * P_Key.
     */
    private void resolveIb(CmaId id) {
        IbSocketAddress dst;
        synchronized (id) {
            dst = (IbSocketAddress) id.dst;
        }
        if (id.device == null) {
            resolveIbDev(id, dst);
        }
        synchronized (id) {
            id.dgid = dst.gid();
            id.hopLimit = 1;
        }
        queueResolved(id);
    }

    private void resolveIbDev(CmaId id, IbSocketAddress dst) {
        Gid dgid = dst.gid();
        CmaDevice found = null;
        int foundPort = 0;
        int foundIndex = 0;
        search:
        for (CmaDevice cd : cma.deviceList()) {
            IbDevice d = cd.device;
            for (int p = d.startPort(); p <= d.endPort(); p++) {
                if (d.getLinkLayer(p) != LinkLayer.INFINIBAND || !hasPkey(d, p, dst.pkey())) {
                    continue;
                }
                int len = d.queryPort(p).gidTblLen;
                for (int i = 0; i < len; i++) {
                    Gid g;
                    try {
                        g = d.queryGid(p, i);
                    } catch (RdmaException e) {
                        continue;
                    }
                    if (g.equals(dgid)) {
                        found = cd;
                        foundPort = p;
                        foundIndex = i;
                        break search;
                    }
                    if (found == null && g.subnetPrefix() == dgid.subnetPrefix() && active(d, p)) {
                        found = cd;
                        foundPort = p;
                        foundIndex = i;
                    }
                }
            }
        }
        if (found == null) {
            throw new RdmaException(Errno.ENODEV, "rdma_resolve_addr: no active InfiniBand port on the subnet of "
                    + dgid + " with P_Key 0x" + Integer.toHexString(dst.pkey()));
        }
        GidAttr a = found.device.getGidAttr(foundPort, foundIndex);
        cma.attachDev(id, found, foundPort, a);
        synchronized (id) {
            id.sgid = a.gid();
            id.pkey = dst.pkey();
            id.src = ((IbSocketAddress) id.src).withGid(a.gid()).withPkey(dst.pkey());
        }
    }

    private static boolean hasPkey(IbDevice d, int port, int pkey) {
        try {
            d.findPkey(port, pkey);
            return true;
        } catch (RdmaException e) {
            return false;
        }
    }

    static boolean active(IbDevice d, int port) {
        try {
            return d.queryPort(port).state == PortState.ACTIVE;
        } catch (RdmaException e) {
            return false;
        }
    }

    // ================================================================== IP: rdma_resolve_ip()

    /** A source for an IP destination: a RoCE port and its address. */
    record Candidate(CmaDevice cd, int port, InetAddress srcIp, boolean local) {
    }

    /** An address request ({@code struct addr_req}) under way. */
    static final class AddrReq {
        final CmaId id;
        final List<Candidate> candidates;
        final Gid dgid;
        final long deadlineNs;
        long retryMs = FIRST_RETRY_MS;
        volatile boolean canceled;
        volatile IbClock.Timer timer;

        AddrReq(CmaId id, List<Candidate> candidates, Gid dgid, long deadlineNs) {
            this.id = id;
            this.candidates = candidates;
            this.dgid = dgid;
            this.deadlineNs = deadlineNs;
        }
    }

    /**
     * The route lookup of {@code addr_resolve()} runs here in the caller (its failures are the
     * call's errors, as the kernel returns them); the neighbour is resolved on the work queue.
     */
    private void resolveIp(CmaId id, int timeoutMs) {
        InetSocketAddress dst;
        SocketAddress src;
        synchronized (id) {
            dst = (InetSocketAddress) id.dst;
            src = id.src;
        }
        List<Candidate> cands = route(id, dst.getAddress(), src);
        AddrReq req = new AddrReq(id, cands, Gid.fromIp(dst.getAddress()),
                cma.clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMs)));
        AddrReq old;
        synchronized (id) {
            old = id.addrReq;
            id.addrReq = req;
        }
        if (old != null) {
            stop(old);
        }
        cma.wq.execute(() -> process(req));
    }

    private List<Candidate> route(CmaId id, InetAddress dst, SocketAddress src) {
        int fam = dst instanceof Inet4Address ? CmaAddr.AF_INET : CmaAddr.AF_INET6;
        Gid dgid = Gid.fromIp(dst);
        List<Candidate> out = new ArrayList<>();
        if (id.device != null) {
            CmaDevice cd = id.cmaDev;
            int p = id.port;
            Cma.check(cd != null && cd.isRoce(p), Errno.EADDRNOTAVAIL, () -> "rdma_resolve_addr: "
                    + id + " is bound to an InfiniBand port, which carries no IPoIB address to reach "
                    + dst.getHostAddress());
            GidAttr own = gidOnPort(cd, p, dgid);
            if (own != null) {
                own.put();
            }
            out.add(new Candidate(cd, p, CmaAddr.ip(src), own != null));
            return out;
        }
        boolean anyIb = false;
        boolean anyRoce = false;
        for (CmaDevice cd : cma.deviceList()) {
            IbDevice d = cd.device;
            for (int p = d.startPort(); p <= d.endPort(); p++) {
                if (!cd.isRoce(p)) {
                    anyIb = true;
                    continue;
                }
                anyRoce = true;
                GidAttr own = gidOnPort(cd, p, dgid);
                if (own != null) {
                    own.put();
                    return List.of(new Candidate(cd, p, dst, true));
                }
                InetAddress s = portAddress(cd, p, fam, dst.isLinkLocalAddress());
                if (s != null && active(d, p)) {
                    out.add(new Candidate(cd, p, s, false));
                }
            }
        }
        if (!out.isEmpty()) {
            return out;
        }
        if (!anyRoce && anyIb) {
            throw new RdmaException(Errno.EADDRNOTAVAIL, "rdma_resolve_addr: " + dst.getHostAddress()
                    + " is an IP address and only InfiniBand ports are here; they carry no IPoIB addresses:"
                    + " address the peer by GID (IbSocketAddress)");
        }
        RdmaException.check(anyRoce, Errno.ENODEV, "rdma_resolve_addr: no RDMA device");
        throw new RdmaException(Errno.ENETUNREACH, "rdma_resolve_addr: no active RoCE port has an "
                + (fam == CmaAddr.AF_INET ? "IPv4" : "IPv6") + " address to reach " + dst.getHostAddress());
    }

    /**
     * The port's first address of {@code family} from its GID table: an IPv4-mapped GID for IPv4;
     * for IPv6 a link-local one when {@code linkLocal}, else a global one.
     */
    static InetAddress portAddress(CmaDevice cd, int port, int family, boolean linkLocal) {
        IbDevice d = cd.device;
        int len;
        try {
            len = d.queryPort(port).gidTblLen;
        } catch (RdmaException e) {
            return null;
        }
        for (int i = 0; i < len; i++) {
            Gid g;
            try {
                g = d.queryGid(port, i);
            } catch (RdmaException e) {
                continue;
            }
            if (g.isZero()) {
                continue;
            }
            if (family == CmaAddr.AF_INET ? g.isV4Mapped()
                    : !g.isV4Mapped() && g.isLinkLocal() == linkLocal && !g.isMulticast()) {
                return g.toInetAddress();
            }
        }
        return null;
    }

    /** One pass of {@code process_one_req()}: the first candidate whose neighbour resolves wins. */
    private void process(AddrReq req) {
        if (req.canceled) {
            return;
        }
        long now = cma.clock.nanoTime();
        for (Candidate c : req.candidates) {
            if (c.local || c.cd.neighbourKnown(c.port, req.dgid, now)) {
                complete(req, c, 0);
                return;
            }
        }
        for (Candidate c : req.candidates) {
            if (probe(c, req.dgid)) {
                c.cd.neighbourSeen(c.port, req.dgid, now + REACHABLE_NS);
                complete(req, c, 0);
                return;
            }
        }
        if (now >= req.deadlineNs) {
            complete(req, null, Errno.ETIMEDOUT.negative());
            return;
        }
        long delayNs = Math.min(TimeUnit.MILLISECONDS.toNanos(req.retryMs), req.deadlineNs - now);
        req.retryMs *= 2;
        req.timer = cma.clock.schedule(() -> cma.wq.execute(() -> process(req)), delayNs, TimeUnit.NANOSECONDS);
        if (req.canceled) {
            req.timer.cancel();
        }
    }

    /**
     * The driver's neighbour resolution for RoCE ({@code create_iboe_ah()}): an address handle to
     * {@code dgid} from the candidate's GID, created and destroyed at once.
     */
    private static boolean probe(Candidate c, Gid dgid) {
        IbDevice d = c.cd.device;
        GidAttr s = gidOnPort(c.cd, c.port, Gid.fromIp(c.srcIp));
        if (s == null) {
            return false;
        }
        IbPd pd = null;
        IbAh ah = null;
        try {
            pd = d.allocPd(0, Cma.MODNAME);
            AhAttr a = new AhAttr();
            a.portNum = c.port;
            a.setGrh(dgid, 0, s.index(), dgid.isLinkLocal() ? 1 : DEFAULT_HOPLIMIT, 0, null);
            ah = pd.createAh(a, 0);
            return true;
        } catch (RdmaException e) {
            LOG.log(Level.DEBUG, "{0}/{1}: neighbour {2} not resolved: {3}", d.name(), c.port, dgid, e.getMessage());
            return false;
        } finally {
            s.put();
            if (ah != null) {
                ah.destroy();
            }
            if (pd != null) {
                pd.dealloc();
            }
        }
    }

    /** {@code addr_handler()}: binds the id to the route's port and reports the result. */
    private void complete(AddrReq req, Candidate c, int status) {
        CmaId id = req.id;
        id.handlerLock.lock();
        synchronized (id) {
            if (id.addrReq == req) {
                id.addrReq = null;
            }
        }
        if (req.canceled || !id.compExch(RdmaCmState.ADDR_QUERY, RdmaCmState.ADDR_RESOLVED)) {
            id.handlerLock.unlock();
            return;
        }
        if (status == 0) {
            status = bindRoute(id, c, req.dgid);
        }
        RdmaCmEventType type = RdmaCmEventType.ADDR_RESOLVED;
        if (status != 0) {
            if (!id.compExch(RdmaCmState.ADDR_RESOLVED, RdmaCmState.ADDR_BOUND)) {
                id.handlerLock.unlock();
                return;
            }
            type = RdmaCmEventType.ADDR_ERROR;
        }
        if (cma.callHandler(id, Cma.event(id, type, status)) != 0) {
            cma.destroyHandlerUnlock(id);
            return;
        }
        id.handlerLock.unlock();
    }

    private int bindRoute(CmaId id, Candidate c, Gid dgid) {
        try {
            if (id.device == null) {
                GidAttr a = gidOnPort(c.cd, c.port, Gid.fromIp(c.srcIp));
                Cma.check(a != null, Errno.EADDRNOTAVAIL, () -> c.cd.device.name() + "/" + c.port
                        + " lost address " + c.srcIp.getHostAddress());
                cma.attachDev(id, c.cd, c.port, a);
                synchronized (id) {
                    id.src = new InetSocketAddress(c.srcIp, CmaAddr.port(id.src));
                }
            }
            synchronized (id) {
                id.sgid = CmaAddr.ip2gid(id.src);
                id.dgid = dgid;
                id.pkey = 0xFFFF;
                id.hopLimit = c.local || dgid.isLinkLocal() ? 1 : DEFAULT_HOPLIMIT;
            }
            return 0;
        } catch (RdmaException e) {
            return e.errno().negative();
        }
    }

    /** {@code rdma_addr_cancel()}. */
    void cancel(CmaId id) {
        AddrReq r;
        synchronized (id) {
            r = id.addrReq;
            id.addrReq = null;
        }
        if (r != null) {
            stop(r);
        }
    }

    private static void stop(AddrReq r) {
        r.canceled = true;
        IbClock.Timer t = r.timer;
        if (t != null) {
            t.cancel();
        }
    }
}
