package org.rdma.cm.internal.rdma;

import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.cm.rdma.RdmaUdParam;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.McastMember;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * Multicast: {@code rdma_join_multicast()} / {@code rdma_leave_multicast()}. On InfiniBand an
 * MCMemberRecord join through the SA ({@code cma_join_ib_multicast()}) for the group's MGID
 * ({@code cma_set_mgid()}: the IPoIB mapping of the IP address, marked as the RDMA CM's for the
 * UDP port space); on RoCE the MGID is the IP group address itself ({@code cma_iboe_set_mgid()})
 * and the join completes locally. When the join completes the id's CM QP, if it has one, is
 * attached to the group, as librdmacm does.
 */
final class CmaMulticast {
    private static final System.Logger LOG = System.getLogger(CmaMulticast.class.getName());
    /** The IPoIB broadcast scope the MGID mapping uses (link-local, as an IPoIB interface's broadcast address). */
    private static final int IPOIB_SCOPE = 2;

    private final Cma cma;

    CmaMulticast(Cma cma) {
        this.cma = cma;
    }

    /** {@code struct cma_multicast}. */
    static final class Mc {
        final CmaId id;
        final SocketAddress addr;
        final Object context;
        final int joinState;
        volatile McastMember saMc;
        volatile Gid mgid = Gid.ZERO;
        volatile int mlid;
        volatile boolean attached;
        volatile boolean left;

        Mc(CmaId id, SocketAddress addr, Object context, int joinState) {
            this.id = id;
            this.addr = addr;
            this.context = context;
            this.joinState = joinState;
        }
    }

    /** {@code rdma_join_multicast()}. */
    void join(CmaId id, SocketAddress addr, int joinState, Object context) {
        CmaAddr.family(addr);
        RdmaCmState s = id.stateNow();
        Cma.check(id.device != null && (s == RdmaCmState.ADDR_BOUND || s == RdmaCmState.ADDR_RESOLVED),
                Errno.EINVAL, () -> "rdma_join_multicast: " + id + " must be bound to a device");
        Cma.check(id.qpType == QpType.UD, Errno.EINVAL, () -> "rdma_join_multicast: " + id + " is not a UD id");
        RdmaException.check(joinState != 0, Errno.EINVAL, "rdma_join_multicast: no JoinState");
        Mc mc = new Mc(id, addr, context, joinState);
        synchronized (id) {
            for (Mc m : id.mcList) {
                Cma.check(!m.addr.equals(addr), Errno.EADDRINUSE, () -> "rdma_join_multicast: " + id
                        + " joined " + CmaAddr.format(addr) + " already");
            }
            id.mcList.add(mc);
        }
        try {
            if (id.cmaDev != null && id.cmaDev.isRoce(id.port)) {
                iboeJoin(id, mc);
            } else {
                ibJoin(id, mc);
            }
        } catch (RuntimeException e) {
            synchronized (id) {
                id.mcList.remove(mc);
            }
            throw e;
        }
    }

    /** {@code cma_join_ib_multicast()}. */
    private void ibJoin(CmaId id, Mc mc) {
        int qkey = cma.qp.setDefaultQkey(id);
        McMemberRecord rec = new McMemberRecord();
        synchronized (id) {
            rec.mgid = ibMgid(id.ps, mc.addr, id.pkey);
            rec.portGid = id.sgid;
            rec.pkey = id.pkey;
        }
        rec.qkey = qkey;
        rec.joinState = mc.joinState;
        long mask = McMemberRecord.MGID | McMemberRecord.PORT_GID | McMemberRecord.PKEY | McMemberRecord.JOIN_STATE
                | McMemberRecord.QKEY | McMemberRecord.SL | McMemberRecord.FLOW_LABEL | McMemberRecord.TRAFFIC_CLASS;
        mc.mgid = rec.mgid;
        mc.saMc = cma.sa.joinMulticast(cma.saClient, id.device, id.port, rec, mask,
                (status, r) -> ibMcHandler(mc, status, r), mc);
    }

    /**
     * {@code cma_set_mgid()}: a wildcard address asks the SA for a new group; an IPv6 address that
     * is an SA-assigned MGID ({@code ff1x:a01b::}) and an {@code AF_IB} GID are taken as they are;
     * other IP addresses map as IPoIB maps them ({@code ip_ib_mc_map()}, {@code ipv6_ib_mc_map()}:
     * {@code ff1<scope>:401b:<pkey>::<IPv4>} and {@code ff1<scope>:601b:<pkey>:<IPv6 low 80 bits>}),
     * with {@code 0x01} in the fourth byte for the UDP port space.
     */
    static Gid ibMgid(RdmaPortSpace ps, SocketAddress addr, int pkey) {
        if (CmaAddr.isAny(addr)) {
            return Gid.ZERO;
        }
        if (addr instanceof IbSocketAddress ib) {
            return ib.gid();
        }
        InetAddress ip = CmaAddr.ip(addr);
        byte[] a = ip.getAddress();
        if (ip instanceof Inet6Address && (a[0] & 0xFF) == 0xFF && (a[1] & 0xF0) == 0x10 && (a[2] & 0xFF) == 0xA0
                && (a[3] & 0xFF) == 0x1B) {
            return Gid.of(a, 0);
        }
        byte[] m = new byte[16];
        m[0] = (byte) 0xFF;
        m[1] = (byte) (0x10 | IPOIB_SCOPE);
        m[2] = (byte) (ip instanceof Inet4Address ? 0x40 : 0x60);
        m[3] = (byte) (ps == RdmaPortSpace.UDP ? 0x01 : 0x1B);
        m[4] = (byte) (pkey >>> 8 | 0x80);
        m[5] = (byte) pkey;
        if (ip instanceof Inet4Address) {
            System.arraycopy(a, 0, m, 12, 4);
        } else {
            System.arraycopy(a, 6, m, 6, 10);
        }
        return Gid.of(m, 0);
    }

    /** {@code cma_ib_mc_handler()}. */
    private void ibMcHandler(Mc mc, int status, McMemberRecord rec) {
        CmaId id = mc.id;
        id.handlerLock.lock();
        try {
            RdmaCmState s = id.stateNow();
            if (s == RdmaCmState.DEVICE_REMOVAL || s == RdmaCmState.DESTROYING || mc.left) {
                return;
            }
            if (status == 0) {
                try {
                    cma.qp.setQkey(id, rec.qkey);
                } catch (RdmaException e) {
                    status = e.errno().negative();
                }
            }
            RdmaCmEvent ev = makeEvent(id, mc, status, rec, false);
            cma.callHandler(id, ev);
        } finally {
            id.handlerLock.unlock();
        }
    }

    /**
     * {@code cma_make_mc_event()}: {@code MULTICAST_JOIN} with the group's address vector
     * ({@code ib_init_ah_from_mcmember()}), QPN 0xFFFFFF and the Q_Key; the CM QP is attached.
     */
    private RdmaCmEvent makeEvent(CmaId id, Mc mc, int status, McMemberRecord rec, boolean roce) {
        RdmaUdParam ud = new RdmaUdParam();
        ud.context = mc.context;
        if (status != 0) {
            LOG.log(Level.DEBUG, "{0}: MULTICAST_ERROR: join of {1} failed: {2}", id, CmaAddr.format(mc.addr), status);
            return new RdmaCmEvent(RdmaCmEventType.MULTICAST_ERROR, status, id, null, null, ud);
        }
        try {
            ahFromMcmember(id, rec, roce, ud.ahAttr);
        } catch (RdmaException e) {
            return new RdmaCmEvent(RdmaCmEventType.MULTICAST_ERROR, e.errno().negative(), id, null, null, ud);
        }
        mc.mgid = rec.mgid;
        mc.mlid = rec.mlid;
        ud.qpNum = RdmaCm.MULTICAST_QPN;
        synchronized (id.qpLock) {
            ud.qkey = id.qkey;
            IbQp qp = id.qp;
            if (qp != null && !mc.attached && mc.joinState != McMemberRecord.SENDONLY_FULLMEMBER_JOIN) {
                try {
                    qp.attachMcast(rec.mgid, rec.mlid);
                    mc.attached = true;
                } catch (RdmaException e) {
                            return new RdmaCmEvent(RdmaCmEventType.MULTICAST_ERROR, e.errno().negative(), id, null, null, ud);
                }
            }
        }
        return new RdmaCmEvent(RdmaCmEventType.MULTICAST_JOIN, 0, id, null, null, ud);
    }

    /** {@code ib_init_ah_from_mcmember()}: the group's LID, SL and a GRH from our GID to the MGID. */
    private static void ahFromMcmember(CmaId id, McMemberRecord rec, boolean roce, AhAttr ah) {
        GidAttr s = id.sgidAttr;
        Cma.check(s != null, Errno.ENODEV, () -> id + " has no source GID");
        ah.portNum = id.port;
        ah.sl = rec.sl;
        ah.staticRate = rec.rate;
        if (!roce) {
            ah.dlid = rec.mlid;
        }
        ah.setGrh(rec.mgid, rec.flowLabel, s.index(), rec.hopLimit, rec.trafficClass, null);
    }

    /**
     * {@code cma_iboe_join_multicast()}: the MGID of the IP group (IPv4-mapped for RoCE v2; an
     * IPv6 group on a RoCE v2 port is {@code EOPNOTSUPP}, as in the kernel), the port's MTU, hop
     * limit 64 for routable v2 groups; the join event comes from the work queue.
     */
    private void iboeJoin(CmaId id, Mc mc) {
        RdmaException.check(!CmaAddr.isZero(mc.addr), Errno.EINVAL, "rdma_join_multicast: no group address");
        RdmaException.check(mc.addr instanceof java.net.InetSocketAddress s && s.getAddress() instanceof Inet4Address,
                Errno.EOPNOTSUPP, "rdma_join_multicast: IPv6 groups are not supported on RoCE v2 ports");
        McMemberRecord rec = new McMemberRecord();
        rec.mgid = Gid.fromIp(CmaAddr.ip(mc.addr));
        rec.pkey = 0xFFFF;
        rec.rate = 0;
        rec.hopLimit = CmaResolver.DEFAULT_HOPLIMIT;
        rec.mtu = id.device.queryPort(id.port).activeMtu.value;
        rec.qkey = cma.qp.setDefaultQkey(id);
        synchronized (id) {
            rec.portGid = CmaAddr.ip2gid(id.src);
        }
        rec.joinState = mc.joinState;
        mc.mgid = rec.mgid;
        cma.wq.execute(() -> iboeJoinWork(mc, rec));
    }

    /** {@code cma_iboe_join_work_handler()}. */
    private void iboeJoinWork(Mc mc, McMemberRecord rec) {
        CmaId id = mc.id;
        id.handlerLock.lock();
        try {
            RdmaCmState s = id.stateNow();
            if (s == RdmaCmState.DESTROYING || s == RdmaCmState.DEVICE_REMOVAL || mc.left) {
                return;
            }
            cma.callHandler(id, makeEvent(id, mc, 0, rec, true));
        } finally {
            id.handlerLock.unlock();
        }
    }

    /** {@code rdma_leave_multicast()}. */
    void leave(CmaId id, SocketAddress addr) {
        Mc found = null;
        synchronized (id) {
            for (Mc m : id.mcList) {
                if (m.addr.equals(addr)) {
                    found = m;
                    break;
                }
            }
            if (found != null) {
                id.mcList.remove(found);
            }
        }
        Cma.check(found != null, Errno.EADDRNOTAVAIL, () -> "rdma_leave_multicast: " + id + " did not join "
                + CmaAddr.format(addr));
        destroyMc(found);
    }

    /** {@code cma_leave_mc_groups()}. */
    void leaveAll(CmaId id) {
        List<Mc> all;
        synchronized (id) {
            all = new ArrayList<>(id.mcList);
            id.mcList.clear();
        }
        for (Mc m : all) {
            destroyMc(m);
        }
    }

    /** {@code destroy_mc()}: detached from the QP, and the SA membership released. */
    private void destroyMc(Mc mc) {
        mc.left = true;
        CmaId id = mc.id;
        synchronized (id.qpLock) {
            detach(id, mc);
        }
        McastMember m = mc.saMc;
        mc.saMc = null;
        if (m != null) {
            cma.sa.freeMulticast(m);
        }
    }

    /** The id's QP leaves every group the CM attached it to; the caller holds the id's {@code qpLock}. */
    void detachAll(CmaId id) {
        List<Mc> all;
        synchronized (id) {
            all = new ArrayList<>(id.mcList);
        }
        for (Mc m : all) {
            detach(id, m);
        }
    }

    private static void detach(CmaId id, Mc mc) {
        if (mc.attached && id.qp != null) {
            try {
                id.qp.detachMcast(mc.mgid, mc.mlid);
            } catch (RdmaException e) {
                LOG.log(Level.DEBUG, "{0}: detach from {1}: {2}", id, mc.mgid, e.getMessage());
            }
        }
        mc.attached = false;
    }

    /** Groups joined by ids (for leak checks). */
    int joined() {
        int n = 0;
        for (CmaId id : cma.ids.values()) {
            synchronized (id) {
                n += id.mcList.size();
            }
        }
        return n;
    }
}
