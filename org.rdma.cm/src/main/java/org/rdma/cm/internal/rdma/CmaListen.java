package org.rdma.cm.internal.rdma;

import java.net.InetAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;

/**
 * Listening: {@code rdma_listen()} on a device ({@code cma_ib_listen()}: a shared IB CM listen on
 * the port's service ID) or on every device for a wildcard address ({@code cma_listen_on_all()}:
 * one internal listener per device, and per device added later), and the search for the listener
 * of an incoming request ({@code cma_find_listener()} with {@code cma_match_private_data()}).
 */
final class CmaListen {
    /** ucma's {@code max_backlog}: the backlog of {@code rdma_listen(id, 0)}. */
    static final int MAX_BACKLOG = 1024;

    private final Cma cma;

    CmaListen(Cma cma) {
        this.cma = cma;
    }

    /** {@code rdma_listen()}. */
    void listen(CmaId id, int backlog) {
        if (!id.compExch(RdmaCmState.ADDR_BOUND, RdmaCmState.LISTEN)) {
            cma.resolver.bind(id, CmaAddr.anyOf(CmaAddr.AF_INET, null), null);
            Cma.check(id.compExch(RdmaCmState.ADDR_BOUND, RdmaCmState.LISTEN), Errno.EINVAL,
                    () -> "rdma_listen: " + id + " changed state while binding");
        }
        try {
            boolean reuse;
            synchronized (id) {
                reuse = id.reuseaddr;
            }
            if (reuse) {
                synchronized (cma.lock) {
                    cma.ports.checkPort(id.bindList, id, id.srcAddr(), false);
                }
                synchronized (id) {
                    id.reuseaddr = false;
                }
            }
            synchronized (id) {
                id.backlog = backlog > 0 && backlog < MAX_BACKLOG ? backlog : MAX_BACKLOG;
            }
            if (id.device != null) {
                ibListen(id);
            } else {
                listenOnAll(id);
            }
        } catch (RuntimeException e) {
            synchronized (id) {
                id.backlog = 0;
            }
            id.compExch(RdmaCmState.LISTEN, RdmaCmState.ADDR_BOUND);
            throw e;
        }
    }

    /** {@code cma_ib_listen()}: {@code ib_cm_insert_listen()} for the id's service ID. */
    private void ibListen(CmaId id) {
        long sid = cma.conn.serviceId(id, id.srcAddr());
        IbCmId cm = cma.ibcm.cmInsertListen(id.device, cma.conn, sid);
        id.cmId = cm;
    }

    /** {@code cma_listen_on_all()}. */
    private void listenOnAll(CmaId id) {
        List<CmaDevice> devs;
        synchronized (cma.lock) {
            cma.listenAny.add(id);
            id.onListenAny = true;
            devs = new ArrayList<>(cma.devices.values());
        }
        try {
            for (CmaDevice cd : devs) {
                listenOnDev(id, cd);
            }
        } catch (RuntimeException e) {
            cancelListens(id);
            throw e;
        }
    }

    /**
     * {@code cma_listen_on_dev()}: an internal listener on {@code cd} for the wildcard listener
     * {@code parent}; {@code AF_IB} listens only on devices with InfiniBand ports.
     */
    void listenOnDev(CmaId parent, CmaDevice cd) {
        if (parent.family() == CmaAddr.AF_IB && !hasIbPort(cd)) {
            return;
        }
        CmaId d = cma.createId(null, null, parent, parent.ps, parent.qpType, parent.owner, parent);
        synchronized (parent) {
            synchronized (d) {
                d.state = RdmaCmState.ADDR_BOUND;
                d.src = parent.src;
                d.afonly = parent.afonly;
                d.backlog = parent.backlog;
            }
        }
        synchronized (parent.qpLock) {
            d.tos = parent.tos;
            d.tosSet = parent.tosSet;
        }
        synchronized (cma.lock) {
            if (!parent.onListenAny || cma.devices.get(cd.device) != cd) {
                cma.ids.remove(d.idn);
                return;
            }
            cd.ids.add(d);
            d.cmaDev = cd;
            parent.listenList.add(d);
        }
        d.device = cd.device;
        d.port = 0;
        try {
            d.res = cd.device.restrackAdd("cm_id", d.owner, d::resAttrs);
            Cma.check(d.compExch(RdmaCmState.ADDR_BOUND, RdmaCmState.LISTEN), Errno.EINVAL,
                    () -> "listen on " + cd.device.name());
            ibListen(d);
        } catch (RuntimeException e) {
            synchronized (cma.lock) {
                parent.listenList.remove(d);
            }
            d.handlerLock.lock();
            cma.destroyHandlerUnlock(d);
            throw e;
        }
    }

    private static boolean hasIbPort(CmaDevice cd) {
        for (int p = cd.device.startPort(); p <= cd.device.endPort(); p++) {
            if (cd.device.getLinkLayer(p) == LinkLayer.INFINIBAND) {
                return true;
            }
        }
        return false;
    }

    /** {@code cma_cancel_listens()}: the wildcard listener's per-device listeners go. */
    void cancelListens(CmaId id) {
        List<CmaId> children;
        synchronized (cma.lock) {
            cma.listenAny.remove(id);
            id.onListenAny = false;
            children = new ArrayList<>(id.listenList);
            id.listenList.clear();
            for (CmaId c : children) {
                if (c.cmaDev != null) {
                    c.cmaDev.ids.remove(c);
                    c.cmaDev = null;
                }
            }
        }
        for (CmaId c : children) {
            c.handlerLock.lock();
            cma.destroyHandlerUnlock(c);
        }
    }

    /**
     * {@code cma_find_listener()}: among the ids bound to the request's port-space port, the first
     * whose address takes the request ({@code cma_match_private_data()}) and that listens on the
     * request's device (itself or one of its per-device listeners). An {@code AF_IB} request (no
     * IP CM header) is only for {@code AF_IB} listeners on the request's port.
     */
    CmaId findListener(CmaDevice cd, int port, long serviceId, CmaHdr hdr) {
        RdmaPortSpace ps = RdmaPortSpace.of((int) (serviceId >>> 16) & 0xFFFF);
        int num = (int) (serviceId & 0xFFFF);
        synchronized (cma.lock) {
            CmaPorts.BindList bl = cma.ports.find(ps, num);
            if (bl == null) {
                return null;
            }
            for (CmaId id : bl.owners) {
                if (!matchPrivateData(id, hdr)) {
                    continue;
                }
                if (id.cmaDev == cd && matchDev(id, hdr, port)) {
                    return id;
                }
                for (CmaId d : id.listenList) {
                    if (d.cmaDev == cd && matchDev(d, hdr, port)) {
                        return d;
                    }
                }
            }
        }
        return null;
    }

    /** {@code cma_match_net_dev()}: an {@code AF_IB} request needs an {@code AF_IB} listener on its port. */
    private static boolean matchDev(CmaId id, CmaHdr hdr, int port) {
        if (hdr != null) {
            return true;
        }
        return (id.port == 0 || id.port == port) && id.family() == CmaAddr.AF_IB;
    }

    /** {@code cma_match_private_data()}: the header's family and destination against the listener's address. */
    private static boolean matchPrivateData(CmaId id, CmaHdr hdr) {
        SocketAddress addr;
        boolean afonly;
        synchronized (id) {
            addr = id.src;
            afonly = id.afonly;
        }
        if (addr == null) {
            return false;
        }
        if (CmaAddr.isAny(addr) && !afonly) {
            return true;
        }
        if (addr instanceof IbSocketAddress) {
            return true;
        }
        if (hdr == null) {
            return false;
        }
        int fam = CmaAddr.family(addr);
        if (fam == CmaAddr.AF_INET && hdr.ipVersion() != 4 || fam == CmaAddr.AF_INET6 && hdr.ipVersion() != 6) {
            return false;
        }
        InetAddress mine = CmaAddr.ip(addr);
        return CmaAddr.isAny(addr) || java.util.Arrays.equals(hdr.dst().getAddress(), mine.getAddress());
    }
}
