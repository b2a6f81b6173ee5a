package org.rdma.cm.internal.rdma;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The port spaces ({@code cma_pernet}'s xarrays): for each port space and port number the ids
 * bound to it ({@code struct rdma_bind_list}), with the kernel's rules for sharing a port
 * ({@code cma_check_port()}, {@code cma_port_is_unique()}) and for picking a free one
 * ({@code cma_alloc_any_port()} over the local port range). Guarded by the engine lock.
 */
final class CmaPorts {
    /** {@code inet_get_local_port_range()}: Linux's default ephemeral range. */
    static final int LOCAL_PORT_LOW = 32768;
    static final int LOCAL_PORT_HIGH = 60999;

    /** {@code struct rdma_bind_list}. */
    static final class BindList {
        final RdmaPortSpace ps;
        final int port;
        final List<CmaId> owners = new ArrayList<>();

        BindList(RdmaPortSpace ps, int port) {
            this.ps = ps;
            this.port = port;
        }
    }

    private final Map<RdmaPortSpace, Map<Integer, BindList>> spaces = new EnumMap<>(RdmaPortSpace.class);
    private int lastUsedPort;

    CmaPorts() {
        for (RdmaPortSpace ps : RdmaPortSpace.values()) {
            spaces.put(ps, new HashMap<>());
        }
    }

    /** {@code cma_ps_find()}. */
    BindList find(RdmaPortSpace ps, int port) {
        return ps == null ? null : spaces.get(ps).get(port);
    }

    /** Ports in use, for leak checks. */
    int size() {
        int n = 0;
        for (Map<Integer, BindList> m : spaces.values()) {
            n += m.size();
        }
        return n;
    }

    /**
     * {@code cma_get_port()}: the port space of the id's address, then a free port (for port 0)
     * or the requested one. Returns the address with the port filled in.
     */
    SocketAddress getPort(CmaId id, SocketAddress src, SocketAddress dst) {
        RdmaPortSpace ps;
        SocketAddress addr = src;
        if (src instanceof IbSocketAddress ib) {
            Object[] sel = selectIbPs(id, ib);
            if (sel == null) {
                throw new RdmaException(Errno.EINVAL, "rdma_bind_addr: service ID 0x" + Long.toHexString(ib.sid())
                        + " is in no port space an id of " + id.ps + " may use (EPROTONOSUPPORT)");
            }
            ps = (RdmaPortSpace) sel[0];
            addr = (SocketAddress) sel[1];
        } else {
            ps = id.ps;
        }
        int port = CmaAddr.port(addr);
        if (port == 0) {
            return allocAnyPort(ps, id, addr, dst);
        }
        BindList bl = find(ps, port);
        if (bl == null) {
            bl = new BindList(ps, port);
            spaces.get(ps).put(port, bl);
        } else {
            checkPort(bl, id, addr, id.reuseaddr);
        }
        bind(bl, id);
        return addr;
    }

    /**
     * {@code cma_select_ib_ps()}: an {@code AF_IB} address names its port space by the service
     * ID's prefix; returns the port space and the address with the full service ID, or {@code null}.
     */
    private static Object[] selectIbPs(CmaId id, IbSocketAddress ib) {
        long mask = ib.sidMask() & RdmaCm.IB_IP_PS_MASK;
        long sid = ib.sid() & mask;
        RdmaPortSpace ps = null;
        long sidPs = 0;
        if (id.ps == RdmaPortSpace.IB && sid == (RdmaCm.IB_IP_PS_IB & mask)) {
            ps = RdmaPortSpace.IB;
            sidPs = RdmaCm.IB_IP_PS_IB;
        } else if ((id.ps == RdmaPortSpace.IB || id.ps == RdmaPortSpace.TCP) && sid == (RdmaCm.IB_IP_PS_TCP & mask)) {
            ps = RdmaPortSpace.TCP;
            sidPs = RdmaCm.IB_IP_PS_TCP;
        } else if ((id.ps == RdmaPortSpace.IB || id.ps == RdmaPortSpace.UDP) && sid == (RdmaCm.IB_IP_PS_UDP & mask)) {
            ps = RdmaPortSpace.UDP;
            sidPs = RdmaCm.IB_IP_PS_UDP;
        }
        if (ps == null) {
            return null;
        }
        return new Object[] {ps, ib.withSid(sidPs | ib.port(), RdmaCm.IB_IP_PS_MASK | ib.sidMask())};
    }

    private SocketAddress allocAnyPort(RdmaPortSpace ps, CmaId id, SocketAddress addr, SocketAddress dst) {
        int remaining = LOCAL_PORT_HIGH - LOCAL_PORT_LOW + 1;
        int rover = ThreadLocalRandom.current().nextInt(LOCAL_PORT_LOW, LOCAL_PORT_HIGH + 1);
        for (; remaining > 0; remaining--) {
            if (rover != lastUsedPort) {
                BindList bl = find(ps, rover);
                SocketAddress withPort = CmaAddr.withPort(addr, rover);
                if (bl == null) {
                    bl = new BindList(ps, rover);
                    spaces.get(ps).put(rover, bl);
                    bind(bl, id);
                    lastUsedPort = rover;
                    return withPort;
                }
                if (isUnique(bl, id, withPort, dst)) {
                    bind(bl, id);
                    lastUsedPort = rover;
                    return withPort;
                }
            }
            rover = rover >= LOCAL_PORT_HIGH ? LOCAL_PORT_LOW : rover + 1;
        }
        throw new RdmaException(Errno.EADDRNOTAVAIL, "no free port in " + ps + " between " + LOCAL_PORT_LOW
                + " and " + LOCAL_PORT_HIGH);
    }

    /** {@code cma_port_is_unique()}: another id on the port differs in source or destination. */
    private static boolean isUnique(BindList bl, CmaId id, SocketAddress saddr, SocketAddress daddr) {
        for (CmaId cur : bl.owners) {
            if (cur == id) {
                continue;
            }
            SocketAddress cs;
            SocketAddress cd;
            synchronized (cur) {
                cs = cur.src;
                cd = cur.dst;
            }
            if (daddr != null && cd != null && CmaAddr.port(daddr) != 0 && CmaAddr.port(cd) != 0
                    && CmaAddr.port(daddr) != CmaAddr.port(cd)) {
                continue;
            }
            if (cs != null && !CmaAddr.isAny(saddr) && !CmaAddr.isAny(cs) && !CmaAddr.sameAddr(saddr, cs)) {
                continue;
            }
            if (daddr != null && cd != null && !CmaAddr.isAny(daddr) && !CmaAddr.isAny(cd)
                    && !CmaAddr.sameAddr(daddr, cd)) {
                continue;
            }
            return false;
        }
        return true;
    }

    /**
     * {@code cma_check_port()}: a port is shared only by ids that all asked to reuse it, by ids
     * of different families that are each family-only, or by ids on different specific addresses.
     */
    void checkPort(BindList bl, CmaId id, SocketAddress addr, boolean reuse) {
        for (CmaId cur : bl.owners) {
            if (cur == id) {
                continue;
            }
            SocketAddress curAddr;
            boolean curReuse;
            boolean curAfonly;
            synchronized (cur) {
                curAddr = cur.src;
                curReuse = cur.reuseaddr;
                curAfonly = cur.afonly;
            }
            if (reuse && curReuse) {
                continue;
            }
            boolean afonly;
            synchronized (id) {
                afonly = id.afonly;
            }
            if (afonly && curAfonly && CmaAddr.family(addr) != CmaAddr.family(curAddr)) {
                continue;
            }
            if (CmaAddr.isAny(addr) || CmaAddr.isAny(curAddr)) {
                throw new RdmaException(Errno.EADDRNOTAVAIL, "port " + bl.port + " of " + bl.ps
                        + " is bound to " + CmaAddr.format(curAddr) + " already");
            }
            if (CmaAddr.sameAddr(addr, curAddr)) {
                throw new RdmaException(Errno.EADDRINUSE, CmaAddr.format(addr) + " (" + bl.ps + ") is in use");
            }
        }
    }

    private static void bind(BindList bl, CmaId id) {
        id.bindList = bl;
        bl.owners.add(0, id);
    }

    /** {@code cma_release_port()}. */
    void release(CmaId id) {
        BindList bl = id.bindList;
        if (bl == null) {
            return;
        }
        id.bindList = null;
        bl.owners.remove(id);
        if (bl.owners.isEmpty()) {
            spaces.get(bl.ps).remove(bl.port, bl);
        }
    }
}
