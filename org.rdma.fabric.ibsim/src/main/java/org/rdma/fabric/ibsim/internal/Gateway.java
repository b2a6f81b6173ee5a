package org.rdma.fabric.ibsim.internal;

import java.io.IOException;
import java.net.PortUnreachableException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketSink;
import org.rdma.fabric.PortEvent;
import org.rdma.fabric.PortListener;
import org.rdma.fabric.Topology;
import org.rdma.fabric.ibsim.IbsimAttachment;
import org.rdma.fabric.ibsim.IbsimAttachments;
import org.rdma.fabric.ibsim.IbsimClient;
import org.rdma.fabric.ibsim.SimRequest;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;

/**
 * The attachment: a CA slot of the Java fabric cabled to the HCA port, whose packets it carries
 * to and from ibsim.
 *
 * <h2>Towards ibsim</h2>
 * Every UD MAD the HCA port sends arrives at {@link #receive} (on the sender's thread) and leaves
 * as a {@link SimRequest}. Three kinds are not forwarded: the answers of the HCA's SMA to this
 * gateway's own SubnGet/SubnSet (they finish a {@link PortMirror} exchange), and the traps of the
 * HCA's SMA, which describe the mirrored state rather than a link event (ibsim's node model is the
 * node's SMA and sends its own traps). TIDs of requests are remembered ({@link TidMap}); a
 * directed-route SMP gets hop pointer 0, because ibsim walks the whole path itself, the HCA's
 * first hop included.
 *
 * <h2>From ibsim</h2>
 * A receiver thread turns frames into packets on the cable: responses get their TID back, a
 * directed-route SMP gets the hop pointer it would have on the wire at this end of its path, and
 * frames with a non-zero status (a request of ours that ibsim could not deliver) are counted and
 * dropped: the MAD layer's timeout reports them.
 *
 * <h2>Port state</h2>
 * A timer on the fabric's clock reads ibsim's PortInfo of the node ({@code SIM_CTL_GET_PORTINFO})
 * on a small executor (control requests block) and lets the {@link PortMirror} apply it.
 *
 * <h2>Limits that come from ibsim</h2>
 * A frame holds one 256-byte MAD and ibsim routes a response only by the client index in its TID,
 * so multi-MAD RMPP transfers do not cross ibsim (umad2sim truncates them the same way, and an
 * RMPP ACK, a response to the data sender, has no index ibsim could route by). Physical link state
 * is not mirrored: when ibsim's port goes Down the HCA's port is reset to Init, its cable stays up.
 */
public final class Gateway implements IbsimAttachment, PacketSink, PortListener {
    private static final Logger LOG = Logger.getLogger(Gateway.class.getName());
    /** The EUI-64 universal/local bit: flipped in the HCA port's GUID, a locally administered gateway GUID. */
    static final long EUI64_LOCAL_BIT = 0x0200_0000_0000_0000L;
    /** Bits 63..32 of the TIDs of the gateway's own SMPs ("ibsg"). */
    static final long OWN_TID = 0x6962_7367_0000_0000L;
    private static final long OWN_TID_MASK = 0xFFFF_FFFF_0000_0000L;
    private static final int TID_MAP_CAPACITY = 4096;
    private static final int HOP_PTR = 6;
    private static final int HOP_CNT = 7;

    private final FabricPort local;
    private final IbsimClient client;
    private final IbsimAttachments.Options options;
    private final IbClock clock;
    private final FabricNode gwNode;
    private final FabricPort gw;
    private final TidMap tids = new TidMap(TID_MAP_CAPACITY);
    private final PortMirror mirror;
    private final ExecutorService ctlExecutor;
    private final Thread receiver;
    private final AtomicReference<Smp> ownResponse = new AtomicReference<>();
    private final Object smiLock = new Object();
    private volatile FabricLink link;
    private volatile PortInfo ibsimPortInfo;
    private volatile IbClock.Timer timer;
    private volatile boolean closed;
    private long ownTid;
    private volatile long ctlFailures;
    private final AtomicLong toIbsim = new AtomicLong();
    private final AtomicLong fromIbsim = new AtomicLong();
    private final AtomicLong bounced = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong trapsSuppressed = new AtomicLong();
    private final AtomicLong tidsRestored = new AtomicLong();
    private final AtomicLong ctlErrors = new AtomicLong();

    /**
     * Attaches {@code local} to the ibsim node {@code options.nodeId()} (see
     * {@link IbsimAttachments#attach}).
     *
     * @param local   an unconnected InfiniBand port of an HCA
     * @param options where ibsim is and how to attach
     * @return the running attachment
     */
    public static Gateway attach(FabricPort local, IbsimAttachments.Options options) {
        FabricNode node = local.node();
        RdmaException.check(local.linkLayer() == LinkLayer.INFINIBAND, Errno.EINVAL,
                local + " is not an InfiniBand port");
        RdmaException.check(node.nodeType() == NodeType.CA, Errno.EINVAL,
                "only a channel adapter's port can be an ibsim node, not a port of " + node.name());
        RdmaException.check(local.link() == null, Errno.EBUSY, "port " + local.portNum() + " of " + node.name()
                + " is already cabled (to " + (local.peer() == null ? "?" : local.peer().node().name()) + ")");
        IbsimClient client = IbsimClient.connect(options.server(), options.nodeId(), options.receiveRequests(),
                options.ctlTimeoutMs());
        Gateway g = null;
        try {
            NodeInfo ni = client.getNodeInfo();
            PortInfo pi = client.getPortInfo(0);
            RdmaException.check(ni.nodeType == NodeInfo.NODE_TYPE_CA, Errno.EINVAL, "ibsim node \""
                    + client.nodeId() + "\" is not a channel adapter (NodeType " + ni.nodeType + ")");
            g = new Gateway(local, client, options, pi);
            g.plug(pi);
            g.checkIdentity(ni, pi);
            g.start();
            return g;
        } catch (RuntimeException e) {
            if (g != null) {
                g.close();
            } else {
                client.close();
            }
            throw e;
        }
    }

    private Gateway(FabricPort local, IbsimClient client, IbsimAttachments.Options options, PortInfo ibsim) {
        this.local = local;
        this.client = client;
        this.options = options;
        this.ibsimPortInfo = ibsim;
        Fabric fabric = local.node().fabric();
        this.clock = fabric.clock();
        this.gwNode = gatewayNode(fabric, local);
        this.gw = gwNode.port(1);
        this.mirror = new PortMirror(this::exchange);
        String tag = client.nodeId() + "#" + client.clientId();
        this.ctlExecutor = Executors.newSingleThreadExecutor(r -> daemon(r, "ibsim-ctl " + tag));
        this.receiver = daemon(this::receiveLoop, "ibsim-rx " + tag);
    }

    /** Cables the gateway to the HCA port with ibsim's link width and speed; the link trains at once. */
    private void plug(PortInfo ibsim) {
        Fabric fabric = local.node().fabric();
        gw.setSink(this);
        gw.addListener(this);
        fabric.attach(gwNode.name());
        link = fabric.connect(local, gw, width(ibsim), speed(ibsim));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** The gateway's CA slot, created at the first attachment of this port and reused later. */
    private static FabricNode gatewayNode(Fabric fabric, FabricPort local) {
        String name = "ibsim-gw " + local.node().name() + "/" + local.portNum();
        FabricNode n = fabric.findNode(name).orElse(null);
        if (n == null) {
            return fabric.addCa(name, local.portGuid() ^ EUI64_LOCAL_BIT, LinkLayer.INFINIBAND);
        }
        RdmaException.check(n.nodeType() == NodeType.CA && !n.isAttached() && n.port(1).link() == null,
                Errno.EBUSY, "the gateway slot \"" + name + "\" is in use");
        return n;
    }

    /** The HCA, as its SMA describes itself, must be the node ibsim simulates: same node and port GUIDs. */
    private void checkIdentity(NodeInfo ibsim, PortInfo ibsimPort) {
        Smp r = exchange(Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0));
        if (r == null || r.statusCode() != 0) {
            throw new RdmaException(Errno.EIO, "the SMA of " + local.node().name()
                    + " did not answer SubnGet(NodeInfo): is its HCA driver attached?");
        }
        NodeInfo hca = new NodeInfo().unpack(r.data, 0);
        // ibsim keeps the node GUID in NodeInfo:PortGUID and numbers CA port GUIDs from it
        long ibsimPortGuid = ibsim.nodeGuid + ibsimPort.localPortNum;
        if (hca.nodeGuid != ibsim.nodeGuid || hca.portGuid != ibsimPortGuid) {
            throw new RdmaException(Errno.EINVAL, String.format("ibsim node \"%s\" has node GUID %016x and port GUID "
                    + "%016x (ibsim attaches clients to a CA's port %d), but %s port %d has node GUID %016x and port "
                    + "GUID %016x: give the topology caguid=0x%016x or the HCA node GUID %016x", client.nodeId(),
                    ibsim.nodeGuid, ibsimPortGuid, ibsimPort.localPortNum, local.node().name(), local.portNum(),
                    hca.nodeGuid, hca.portGuid, hca.portGuid - ibsimPort.localPortNum, ibsim.nodeGuid));
        }
    }

    private void start() {
        receiver.start();
        poll();
    }

    private static PortWidth width(PortInfo pi) {
        try {
            return PortWidth.of(pi.linkWidthActive);
        } catch (RdmaException e) {
            return Topology.DEFAULT_WIDTH;
        }
    }

    private static PortSpeed speed(PortInfo pi) {
        try {
            return PortSpeed.of(pi.linkSpeedActive);
        } catch (RdmaException e) {
            return Topology.DEFAULT_SPEED;
        }
    }

    // ================================================================== port state

    /** Reads ibsim's PortInfo and mirrors it (on the control executor), then re-arms the timer. */
    private void poll() {
        if (closed) {
            return;
        }
        try {
            ctlExecutor.execute(() -> {
                try {
                    PortInfo pi = client.getPortInfo(0);
                    ibsimPortInfo = pi;
                    ctlFailures = 0;
                    mirror.sync(pi);
                } catch (RdmaException e) {
                    ctlErrors.incrementAndGet();
                    if (ctlFailures++ == 0 && !closed) {
                        LOG.log(Level.WARNING, "ibsim " + client.server() + " does not answer for node \""
                                + client.nodeId() + "\"; the port keeps its state", e);
                    }
                } finally {
                    if (!closed) {
                        timer = clock.schedule(this::poll, options.pollIntervalMs(), TimeUnit.MILLISECONDS);
                    }
                }
            });
        } catch (RejectedExecutionException stopping) {
            // closed meanwhile
        }
    }

    /**
     * One SMP to the HCA's SMA and its answer. The fabric delivers synchronously, so the answer
     * has arrived at {@link #receive} by the time transmit returns, unless a link fault delays or
     * drops it: then there is no answer and the next poll tries again.
     */
    private Smp exchange(Smp req) {
        synchronized (smiLock) {
            req.tid = OWN_TID | (++ownTid & 0xFFFF_FFFFL);
            byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
            req.pack(mad, 0);
            ownResponse.set(null);
            Packet p = gw.allocPacket();
            MadFrame.build(p, Packet.VL15, Packet.LID_PERMISSIVE, Packet.LID_PERMISSIVE, 0, 0, 0, mad);
            gw.transmit(p);
            Smp resp = ownResponse.getAndSet(null);
            return resp != null && resp.tid == req.tid ? resp : null;
        }
    }

    /** The gateway's own port follows its cable: a data packet needs both ends Active. */
    @Override
    public void portChanged(PortEvent e) {
        if (e.port() == gw && e.type() == PortEvent.Type.LINK_UP) {
            try {
                gw.setPortState(PortState.ARMED);
                gw.setPortState(PortState.ACTIVE);
            } catch (RdmaException lost) {
                LOG.log(Level.FINE, "gateway port of " + local + " went down while coming up", lost);
            }
        }
    }

    // ================================================================== HCA -> ibsim

    @Override
    public void receive(Packet p) {
        SimRequest r;
        try {
            r = MadFrame.toFrame(p);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            dropped.incrementAndGet();
            return;
        }
        int cls = r.mgmtClass();
        boolean smp = cls == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED || cls == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
        if (smp && r.isResponse() && (r.tid() & OWN_TID_MASK) == OWN_TID) {
            ownResponse.set(new Smp().unpack(r.mad, 0));
            return;
        }
        if (smp && r.method() == MadHdr.IB_MGMT_METHOD_TRAP) {
            trapsSuppressed.incrementAndGet();
            return;
        }
        if (closed) {
            dropped.incrementAndGet();
            return;
        }
        if (cls == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
            r.mad[HOP_PTR] = 0;
        }
        if (!r.isResponse()) {
            tids.remember(r.tid());
        }
        // Counted before the send: ibsim's answer may reach the HCA before this thread goes on.
        toIbsim.incrementAndGet();
        try {
            client.send(r);
        } catch (RdmaException e) {
            toIbsim.decrementAndGet();
            dropped.incrementAndGet();
            LOG.log(Level.FINE, "MAD to ibsim lost", e);
        }
    }

    // ================================================================== ibsim -> HCA

    private void receiveLoop() {
        while (!closed) {
            SimRequest r;
            try {
                r = client.receive();
            } catch (IllegalArgumentException malformed) {
                dropped.incrementAndGet();
                continue;
            } catch (PortUnreachableException e) {
                // ICMP for an earlier send: ibsim is not (yet, or no longer) there; the polls report it
                continue;
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "ibsim data socket of " + client + " failed; no more MADs from ibsim", e);
                }
                return;
            }
            try {
                deliver(r);
            } catch (RuntimeException e) {
                dropped.incrementAndGet();
                LOG.log(Level.FINE, "frame from ibsim dropped: " + r, e);
            }
        }
    }

    private void deliver(SimRequest r) {
        if (r.status != 0) {
            // our own request, returned because ibsim found no route or nobody to hand it to
            bounced.incrementAndGet();
            return;
        }
        if (r.isResponse() && (int) (r.tid() >>> 48) == client.clientId()) {
            long tid = tids.restore(r.tid());
            if (tid != r.tid()) {
                r.setTid(tid);
                tidsRestored.incrementAndGet();
            }
        }
        if (r.mgmtClass() == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
            int hopCnt = r.mad[HOP_CNT] & 0xFF;
            // on the wire, a request reaches its end with hop pointer = hop count, a response its
            // originator with hop pointer 1 (IBTA 14.2.2, C14-9:3 and C14-13:3)
            r.mad[HOP_PTR] = (byte) (r.isResponse() ? Math.min(hopCnt, 1) : hopCnt);
        }
        Packet p = gw.allocPacket();
        MadFrame.toPacket(r, p);
        fromIbsim.incrementAndGet();
        gw.transmit(p);
    }

    // ================================================================== IbsimAttachment

    @Override
    public int clientId() {
        return client.clientId();
    }

    @Override
    public String nodeId() {
        return client.nodeId();
    }

    @Override
    public FabricPort localPort() {
        return local;
    }

    @Override
    public FabricPort gatewayPort() {
        return gw;
    }

    @Override
    public PortInfo ibsimPortInfo() {
        return ibsimPortInfo.copy();
    }

    @Override
    public Stats stats() {
        return new Stats(toIbsim.get(), fromIbsim.get(), bounced.get(), dropped.get(), trapsSuppressed.get(),
                tidsRestored.get(), mirror.sets(), ctlErrors.get());
    }

    /** @return the TIDs remembered for responses (tests) */
    int rememberedTids() {
        return tids.size();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        IbClock.Timer t = timer;
        if (t != null) {
            t.cancel();
        }
        ctlExecutor.shutdown();
        try {
            if (!ctlExecutor.awaitTermination(options.ctlTimeoutMs() + 1000L, TimeUnit.MILLISECONDS)) {
                ctlExecutor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
        if (receiver.isAlive()) {
            try {
                receiver.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        FabricLink l = link;
        if (l != null) {
            local.node().fabric().disconnect(l);
        }
        gw.setSink(null);
        gw.removeListener(this);
        if (gwNode.isAttached()) {
            gwNode.detach();
        }
    }

    @Override
    public String toString() {
        return local.node().name() + "/" + local.portNum() + " as ibsim node \"" + client.nodeId() + "\" (client "
                + client.clientId() + " of " + client.server() + ")";
    }
}
