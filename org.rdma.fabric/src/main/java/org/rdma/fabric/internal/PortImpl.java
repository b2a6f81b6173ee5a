package org.rdma.fabric.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketSink;
import org.rdma.fabric.PortCounterSnapshot;
import org.rdma.fabric.PortEvent;
import org.rdma.fabric.PortListener;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.Icrc;

/**
 * A port: the state PortInfo describes for the link (PortPhysicalState, PortState, LID/LMC,
 * OperationalVLs), the PortCounters, the packet pool, the receive sink and the listeners; and the
 * link-level checks a port's transmitter and receiver apply (IBTA vol. 1, 7.9 packet checks).
 *
 * <p>State fields are volatile: written under the fabric lock, read lock-free on the datapath.
 */
class PortImpl implements FabricPort {
    private static final Logger LOG = Logger.getLogger(PortImpl.class.getName());

    final FabricImpl fabric;
    final NodeImpl node;
    final int portNum;
    final long portGuid;
    final LinkLayer linkLayer;
    final PacketPool pool;
    final Counters counters = new Counters();
    final List<PortListener> listeners = new CopyOnWriteArrayList<>();

    volatile LinkImpl link;
    volatile PhysPortState physState;
    volatile PortState portState;
    volatile boolean disabled;
    volatile int lid;
    volatile int lmc;
    volatile int operationalVls = 8;
    /** PortInfo:NeighborMTU in bytes: the largest payload a switch sends out of this port. */
    volatile int neighborMtu = 4096;
    volatile PacketSink sink;
    volatile PortWidth widthActive;
    volatile PortSpeed speedActive;

    PortImpl(FabricImpl fabric, NodeImpl node, int portNum, long portGuid, LinkLayer linkLayer) {
        this.fabric = fabric;
        this.node = node;
        this.portNum = portNum;
        this.portGuid = portGuid;
        this.linkLayer = linkLayer;
        this.pool = new PacketPool(linkLayer);
        boolean management = isManagementPort();
        this.physState = management ? PhysPortState.LINK_UP : PhysPortState.POLLING;
        this.portState = management ? PortState.INIT : PortState.DOWN;
    }

    /** @return whether this is a switch's port 0, which has no cable and is always LinkUp */
    final boolean isManagementPort() {
        return portNum == 0;
    }

    // ------------------------------------------------------------------ FabricPort

    @Override
    public FabricNode node() {
        return node;
    }

    @Override
    public int portNum() {
        return portNum;
    }

    @Override
    public long portGuid() {
        return portGuid;
    }

    @Override
    public LinkLayer linkLayer() {
        return linkLayer;
    }

    @Override
    public FabricLink link() {
        return link;
    }

    @Override
    public FabricPort peer() {
        LinkImpl l = link;
        return l == null ? null : l.other(this);
    }

    @Override
    public PhysPortState physState() {
        return physState;
    }

    @Override
    public PortState portState() {
        return portState;
    }

    @Override
    public void setPortState(PortState state) {
        fabric.setPortState(this, state);
    }

    @Override
    public void setPhysState(PhysPortState state) {
        fabric.setPhysState(this, state);
    }

    @Override
    public int lid() {
        if (node.nodeType() == NodeType.SWITCH && portNum != 0) {
            return node.port0().lid;
        }
        return lid;
    }

    @Override
    public int lmc() {
        if (node.nodeType() == NodeType.SWITCH && portNum != 0) {
            return node.port0().lmc;
        }
        return lmc;
    }

    @Override
    public void setLid(int lid, int lmc) {
        fabric.setLid(this, lid, lmc);
    }

    @Override
    public PortWidth linkWidthActive() {
        return widthActive;
    }

    @Override
    public PortSpeed linkSpeedActive() {
        return speedActive;
    }

    @Override
    public int operationalVls() {
        return operationalVls;
    }

    @Override
    public void setOperationalVls(int dataVls) {
        if (dataVls != 1 && dataVls != 2 && dataVls != 4 && dataVls != 8 && dataVls != 15) {
            throw new RdmaException(Errno.EINVAL, "OperationalVLs must be 1, 2, 4, 8 or 15 data VLs, got " + dataVls);
        }
        operationalVls = dataVls;
    }

    @Override
    public Packet allocPacket() {
        return pool.alloc();
    }

    @Override
    public void transmit(Packet packet) {
        if (packet.linkLayer() != linkLayer) {
            throw new IllegalArgumentException("a " + packet.linkLayer() + " packet cannot leave " + this + " ("
                    + linkLayer + ")");
        }
        if (packet.segments() > 1 && (linkLayer != LinkLayer.INFINIBAND || isMulticast(packet))) {
            // Trains cross InfiniBand unicast routes only; anything else leaves packet by packet.
            while (packet.segments() > 1) {
                send(packet.splitFirst(pool.alloc()));
            }
        }
        send(packet);
    }

    @Override
    public void setSink(PacketSink sink) {
        this.sink = sink;
    }

    @Override
    public void addListener(PortListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(PortListener listener) {
        listeners.remove(listener);
    }

    @Override
    public PortCounterSnapshot counters() {
        return counters.snapshot();
    }

    @Override
    public void clearCounters() {
        counters.clear();
    }

    @Override
    public void clearCounters(long components) {
        for (int i = 0; i < PortCounterSnapshot.COMPONENTS; i++) {
            if ((components & 1L << i) != 0) {
                counters.clear(i);
            }
        }
    }

    // ------------------------------------------------------------------ datapath

    /**
     * The transmitter: puts {@code p} on this port's link, or discards it (PortXmitDiscards) if
     * the link is down or the port state forbids it. Consumes the caller's reference.
     */
    final void send(Packet p) {
        send(p, dataBytes(p), isMulticast(p));
    }

    /**
     * {@link #send(Packet)} of a packet whose {@linkplain #dataBytes data bytes} and multicast
     * kind are known. The ports on its way count the same packet: they are decoded once, when it
     * enters the fabric or a node that changes it, and travel with it.
     */
    final void send(Packet p, int bytes, boolean mc) {
        LinkImpl l = link;
        if (l == null || !l.up || !mayTransmit(p)) {
            counters.add(Counters.XMIT_DISCARDS, p.segments());
            p.release();
            return;
        }
        countTraffic(p, bytes, mc, Counters.XMIT_PKTS, Counters.XMIT_DATA, Counters.MULTICAST_XMIT_PKTS);
        l.carry(this, p, bytes, mc);
    }

    /** IBTA 7.2: only SMPs (VL15) leave a port in Init or Armed; data packets need Active. */
    private boolean mayTransmit(Packet p) {
        if (linkLayer == LinkLayer.ETHERNET) {
            return true;
        }
        PortState s = portState;
        if (p.headerLength < 8) {
            return false;
        }
        return p.vl() == Packet.VL15 ? s != PortState.DOWN : s == PortState.ACTIVE;
    }

    /** Header, payload, pad and ICRC: what PortXmitData/PortRcvData and LRH:PktLen measure. */
    private static int dataBytes(Packet p) {
        return p.headerLength + p.payloadLength + p.padCount + (p.hasIcrc() ? Icrc.ICRC_BYTES : 0);
    }

    /**
     * Packets, data words and multicast packets of {@code p}, whose (first) packet has {@code bytes}
     * {@linkplain #dataBytes data bytes}: each packet of a train counts, the FIRST's extension
     * headers once (unicast is derived: {@link Counters#get}; trains are never multicast).
     */
    private void countTraffic(Packet p, int bytes, boolean mc, int pkts, int data, int multicast) {
        int n = p.segments();
        if (n == 1) {
            counters.packet(pkts, data, bytes >>> 2, multicast, mc);
        } else {
            counters.add(pkts, n, data, (long) n * (bytes >>> 2) - (long) (n - 1) * (p.firstExtra() >>> 2));
        }
    }

    /** Whether the packet counts in PortMulticastXmitPkts/RcvPkts. */
    private boolean isMulticast(Packet p) {
        if (linkLayer == LinkLayer.INFINIBAND) {
            int dlid = p.dlid();
            return dlid >= Packet.MULTICAST_LID_BASE && dlid != Packet.LID_PERMISSIVE;
        }
        return (p.header[0] & 1) != 0;
    }

    /**
     * The receiver: checks a packet arriving from the link (CRCs of a materialized packet, link
     * version, length, VL, port state) and hands it to the node. Consumes the reference.
     */
    final void ingress(Packet p) {
        ingress(p, dataBytes(p), isMulticast(p));
    }

    /** {@link #ingress(Packet)} of a packet whose {@linkplain #dataBytes data bytes} and multicast kind are known. */
    final void ingress(Packet p, int bytes, boolean mc) {
        if (p.isMaterialized()) {
            if (!p.verifyCrcs()) {
                counters.inc(Counters.RCV_ERRORS);
                p.release();
                return;
            }
            p.clearMaterialized();
        }
        countTraffic(p, bytes, mc, Counters.RCV_PKTS, Counters.RCV_DATA, Counters.MULTICAST_RCV_PKTS);
        int n = p.segments();
        if (linkLayer == LinkLayer.INFINIBAND) {
            // The port's state first: reading a volatile field after a header byte would make
            // the compiler read that byte again for each later check.
            PortState s = portState;
            if (!wellFormed(p, bytes, operationalVls)) {
                counters.add(Counters.RCV_ERRORS, n);
                p.release();
                return;
            }
            if (p.vl() == Packet.VL15) {
                if (s == PortState.DOWN) {
                    counters.add(Counters.VL15_DROPPED, n);
                    p.release();
                    return;
                }
            } else if (s != PortState.ARMED && s != PortState.ACTIVE) {
                counters.add(Counters.RCV_STATE_DISCARDS, n);
                p.release();
                return;
            }
        } else if (p.headerLength < 14) {
            counters.add(Counters.RCV_ERRORS, n);
            p.release();
            return;
        }
        node.receive(this, p, bytes, mc);
    }

    /**
     * IBTA 7.9 link-level checks: LVer 0, LRH:PktLen matches the {@linkplain #dataBytes data
     * bytes}, VL within OperationalVLs ({@code vls} data VLs, or VL15).
     */
    private static boolean wellFormed(Packet p, int len, int vls) {
        if (p.headerLength < 8 || p.lver() != 0) {
            return false;
        }
        if ((len & 3) != 0 || p.lrhPacketLength() != len >>> 2) {
            return false;
        }
        int vl = p.vl();
        return vl == Packet.VL15 || vl < vls;
    }

    /** Hands a packet that reached its destination port to the sink; releases it afterwards. */
    void deliverToSink(Packet p) {
        PacketSink s = sink;
        if (s == null || !node.isAttached()) {
            counters.add(p.vl() == Packet.VL15 && linkLayer == LinkLayer.INFINIBAND
                    ? Counters.VL15_DROPPED : Counters.RCV_STATE_DISCARDS, p.segments());
            p.release();
            return;
        }
        if (p.segments() > 1 && !s.receivesTrains()) {
            while (p.segments() > 1) {
                deliver(s, p.splitFirst(pool.alloc()));
            }
        }
        deliver(s, p);
    }

    private void deliver(PacketSink s, Packet p) {
        try {
            s.receive(p);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "packet sink of " + this + " failed", e);
        } finally {
            p.release();
        }
    }

    // ------------------------------------------------------------------ state changes (fabric lock held)

    /** The link trained: LinkUp, PortState Init (Ethernet: Active). */
    void linkUp(PortWidth width, PortSpeed speed, List<PortEvent> events) {
        PortState old = portState;
        physState = PhysPortState.LINK_UP;
        widthActive = width;
        speedActive = speed;
        portState = linkLayer == LinkLayer.ETHERNET ? PortState.ACTIVE : PortState.INIT;
        events.add(new PortEvent(this, PortEvent.Type.LINK_UP, physState, old, portState));
        node.portStateChanged(this);
    }

    /** The link went down: Polling (or Disabled), PortState Down, LinkDownedCounter. */
    void linkDown(List<PortEvent> events) {
        PortState old = portState;
        physState = disabled ? PhysPortState.DISABLED : PhysPortState.POLLING;
        widthActive = null;
        speedActive = null;
        portState = PortState.DOWN;
        counters.inc(Counters.LINK_DOWNED);
        events.add(new PortEvent(this, PortEvent.Type.LINK_DOWN, physState, old, portState));
        node.portStateChanged(this);
    }

    /** Recomputes the physical state of a port whose link stays down. */
    void refreshDownState() {
        if (!isManagementPort()) {
            physState = disabled ? PhysPortState.DISABLED : PhysPortState.POLLING;
        }
    }

    void fire(PortEvent event) {
        for (PortListener l : listeners) {
            try {
                l.portChanged(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "port listener of " + this + " failed on " + event, e);
            }
        }
    }

    /**
     * Delivers the events a state change collected (no lock held), then lets the switches whose
     * links changed send their Trap 128.
     */
    static void fireAll(List<PortEvent> events) {
        List<SwitchNode> switches = new ArrayList<>();
        for (PortEvent e : new ArrayList<>(events)) {
            PortImpl p = (PortImpl) e.port();
            p.fire(e);
            if (p.node instanceof SwitchNode && !switches.contains(p.node)
                    && (e.type() == PortEvent.Type.LINK_UP || e.type() == PortEvent.Type.LINK_DOWN)) {
                switches.add((SwitchNode) p.node);
            }
        }
        for (SwitchNode sw : switches) {
            sw.sma.sendPendingTrap();
        }
    }

    @Override
    public String toString() {
        return "\"" + node.name() + "\"[" + portNum + "]";
    }
}
