package org.rdma.cm.internal.rdma;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.rdma.RdmaCmHandler;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaCmIdDTO;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.cm.rdma.RdmaEventChannel;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.cm.rdma.RdmaRoute;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RestrackEntry;

/**
 * A communication identifier: {@code struct rdma_id_private}.
 *
 * <p>Locks, as cma.c has them: {@link #handlerLock} ({@code handler_mutex}) serialises the
 * consumer's handler with the calls that change what the handler sees; the monitor of this
 * object ({@code id_priv->lock}) guards {@link #state} and the fields below it, and is held only
 * briefly, never while calling out. {@link #qpLock} ({@code qp_mutex}) guards the QP and the
 * options copied into it. The engine's lock ({@link Cma#lock}) comes after none of these.
 */
final class CmaId implements RdmaCmId {
    final Cma cma;
    /** {@code res.id}: the number listings show. */
    final long idn;
    final RdmaPortSpace ps;
    final QpType qpType;
    /** The bundle that created the id ({@code res.kern_name}). */
    final String owner;
    /** The wildcard listener of a per-device listener ({@code internal_id}), else {@code null}. */
    final CmaId parent;
    final ReentrantLock handlerLock = new ReentrantLock();
    final Object qpLock = new Object();

    volatile RdmaCmHandler handler;
    volatile Object context;
    /** The channel of a librdmacm-style id, else {@code null}; guarded by the channel's lock for moves. */
    volatile EventChannelImpl channel;

    // ----------------------------------------------------------------- guarded by this
    RdmaCmState state = RdmaCmState.IDLE;
    SocketAddress src;
    SocketAddress dst;
    /** {@code dev_addr}: GIDs, P_Key, hop limit of the resolved address. */
    Gid sgid = Gid.ZERO;
    Gid dgid = Gid.ZERO;
    int pkey = 0xFFFF;
    int hopLimit = 64;
    /** {@code route.path_rec}: primary then alternate. */
    PathRecord[] paths = new PathRecord[0];
    /** Whether an address request ran for this id (a new one cancels it first). */
    CmaResolver.AddrReq addrReq;
    /** The SA path query under way ({@code id_priv->query}), or {@code null}. */
    Object routeQuery;
    int backlog;
    /** Connect requests queued unread on the channel (the ucma backlog in use). */
    int backlogUsed;
    /** Events read from the channel and not acknowledged. */
    int unacked;
    boolean reuseaddr;
    boolean afonly;
    boolean afonlySet;

    // ----------------------------------------------------------------- guarded by the engine lock
    CmaDevice cmaDev;
    CmaPorts.BindList bindList;
    /** The per-device listeners of a wildcard listen ({@code listen_list}). */
    final List<CmaId> listenList = new ArrayList<>();
    boolean onListenAny;

    // ----------------------------------------------------------------- written under the handler lock
    volatile IbDevice device;
    volatile int port;
    /** {@code dev_addr.sgid_attr}: held while the id is bound to the device. */
    volatile GidAttr sgidAttr;
    volatile IbCmId cmId;
    /** {@code id_priv->res} while bound to a device. */
    volatile RestrackEntry res;
    final List<CmaMulticast.Mc> mcList = new ArrayList<>();

    // ----------------------------------------------------------------- guarded by qpLock
    IbQp qp;
    int qpNum;
    boolean srq;
    int seqNum;
    int qkey;
    int tos;
    boolean tosSet;
    int timeout;
    boolean timeoutSet;

    CmaId(Cma cma, long idn, RdmaPortSpace ps, QpType qpType, String owner, CmaId parent, RdmaCmHandler handler,
            EventChannelImpl channel, Object context, int seqNum) {
        this.cma = cma;
        this.idn = idn;
        this.ps = ps;
        this.qpType = qpType;
        this.owner = owner;
        this.parent = parent;
        this.handler = handler;
        this.channel = channel;
        this.context = context;
        this.seqNum = seqNum;
    }

    /** {@code cma_comp_exch()}: {@code from} to {@code to} if the id is in {@code from}. */
    synchronized boolean compExch(RdmaCmState from, RdmaCmState to) {
        if (state != from) {
            return false;
        }
        state = to;
        return true;
    }

    synchronized RdmaCmState stateNow() {
        return state;
    }

    /** The family of the source address ({@code cma_family()}), 0 while unbound. */
    synchronized int family() {
        return src == null ? 0 : CmaAddr.family(src);
    }

    boolean isInternal() {
        return parent != null;
    }

    @Override
    public IbDevice device() {
        return device;
    }

    @Override
    public int portNum() {
        return port;
    }

    @Override
    public IbQp qp() {
        synchronized (qpLock) {
            return qp;
        }
    }

    @Override
    public RdmaPortSpace ps() {
        return ps;
    }

    @Override
    public QpType qpType() {
        return qpType;
    }

    @Override
    public synchronized RdmaRoute route() {
        RdmaRoute r = new RdmaRoute();
        r.srcAddr = src;
        r.dstAddr = dst;
        r.sgid = sgid;
        r.dgid = dgid;
        r.pkey = pkey;
        r.pathRec = new PathRecord[paths.length];
        for (int i = 0; i < paths.length; i++) {
            r.pathRec[i] = copy(paths[i]);
        }
        return r;
    }

    static PathRecord copy(PathRecord p) {
        byte[] b = new byte[PathRecord.BYTES];
        p.pack(b, 0);
        PathRecord c = new PathRecord().unpack(b, 0);
        c.roce = p.roce;
        return c;
    }

    @Override
    public synchronized SocketAddress srcAddr() {
        return src;
    }

    @Override
    public synchronized SocketAddress dstAddr() {
        return dst;
    }

    @Override
    public RdmaCmState state() {
        return stateNow();
    }

    @Override
    public Object context() {
        return context;
    }

    @Override
    public void setContext(Object context) {
        this.context = context;
    }

    @Override
    public RdmaCmHandler handler() {
        return handler;
    }

    @Override
    public RdmaEventChannel channel() {
        return channel;
    }

    /**
     * The attributes {@code rdma res show cm_id} prints ({@code fill_res_cm_id_entry()}):
     * link, cm-idn, lqpn, qp-type, state, ps, src-addr, dst-addr.
     */
    java.util.Map<String, String> resAttrs() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        IbDevice dev = device;
        RestrackEntry r = res;
        m.put("link", (dev == null ? "-" : dev.name()) + "/" + port);
        m.put("cm-idn", Long.toString(r == null ? idn : r.id()));
        int lqpn;
        synchronized (qpLock) {
            lqpn = qp != null ? qp.qpNum() : qpNum;
        }
        if (lqpn != 0) {
            m.put("lqpn", Integer.toString(lqpn));
        }
        m.put("qp-type", qpType.name());
        synchronized (this) {
            m.put("state", state.name());
            m.put("ps", ps.name());
            if (src != null) {
                m.put("src-addr", CmaAddr.format(src));
            }
            if (dst != null) {
                m.put("dst-addr", CmaAddr.format(dst));
            }
        }
        return m;
    }

    RdmaCmIdDTO dto() {
        RdmaCmIdDTO d = new RdmaCmIdDTO();
        d.cmIdn = idn;
        IbDevice dev = device;
        d.device = dev == null ? null : dev.name();
        d.port = port;
        d.ps = ps;
        d.qpType = qpType.name();
        d.owner = owner;
        d.internal = parent != null;
        synchronized (qpLock) {
            d.lqpn = qp != null ? qp.qpNum() : qpNum;
        }
        synchronized (this) {
            d.state = state;
            d.srcAddr = src == null ? null : CmaAddr.format(src);
            d.dstAddr = dst == null ? null : CmaAddr.format(dst);
        }
        return d;
    }

    @Override
    public String toString() {
        IbDevice dev = device;
        return "rdma_cm_id[" + idn + " " + ps + " " + (dev == null ? "unbound" : dev.name() + "/" + port) + " "
                + stateNow() + "]";
    }
}
