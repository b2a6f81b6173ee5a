package org.rdma.fabric.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.rdma.fabric.EthernetSegment;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FabricSwitch;
import org.rdma.fabric.PortEvent;
import org.rdma.fabric.Topology;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * The simulated subnet: nodes, cables and the port/link state machines (ibsim's
 * {@code sim_net.c}: {@code build_net()}, {@code connect_ports()}, {@code link_ports()},
 * {@code unlink_ports()}).
 *
 * <h2>Locking</h2>
 * <ul>
 *   <li>{@link #lock} guards every structural change: adding nodes and cables, attaching and
 *       detaching CA slots, bringing links up and down, and port state, LID and physical state
 *       changes. The node and link lists are copy-on-write and the port and link state fields
 *       volatile, so the datapath reads all of it without locks.</li>
 *   <li>No client code runs under {@link #lock}: state changes collect {@link PortEvent}s and fire
 *       them to the ports' listeners after the lock is released, on the calling thread.</li>
 *   <li>Packets never travel under {@link #lock}; per-link fault state has its own monitor
 *       ({@link LinkImpl}), switch tables are read lock-free ({@link SwitchNode}).</li>
 * </ul>
 *
 * <h2>Link state</h2>
 * A link is up when its cable is present, both ends are present (a CA slot is attached) and
 * neither port is disabled. Going up sets both ports LinkUp and PortState Init (Ethernet: Active);
 * going down sets Polling (Disabled for a disabled port) and PortState Down, counts
 * LinkDownedCounter and loses the packets a fault was holding.
 */
public final class FabricImpl implements Fabric {
    /** NodeInfo:VendorID of switches a topology leaves at 0 (Mellanox). */
    static final int DEFAULT_VENDOR_ID = 0x0002C9;
    /** NodeInfo:DeviceID of switches a topology leaves at 0 (InfiniScale IV, MT48436). */
    static final int DEFAULT_SWITCH_DEVICE_ID = 0xBD36;

    private final Object lock = new Object();
    private final String name;
    private final IbClock clock;
    private final long seed;
    private final List<NodeImpl> nodes = new CopyOnWriteArrayList<>();
    private final List<LinkImpl> links = new CopyOnWriteArrayList<>();
    private final Map<String, NodeImpl> byName = new ConcurrentHashMap<>();
    private final Map<Long, NodeImpl> byGuid = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private long linkSeeds;

    /**
     * Builds the fabric a topology describes. Switch-to-switch cables train at once; cables of
     * CA slots wait for the slot to be attached.
     *
     * @param name     the fabric's name
     * @param topology nodes and cables
     * @param clock    the clock for delays and retries
     * @param seed     seed of the fault generators
     */
    public FabricImpl(String name, Topology topology, IbClock clock, long seed) {
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.seed = seed;
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            for (Topology.Node n : topology.nodes()) {
                build(topology, n);
            }
            for (Topology.Link l : topology.links()) {
                NodeImpl a = byName.get(l.nodeA());
                NodeImpl b = byName.get(l.nodeB());
                if (a instanceof BridgeNode || b instanceof BridgeNode) {
                    BridgeNode br = (BridgeNode) (a instanceof BridgeNode ? a : b);
                    PortImpl host = a instanceof BridgeNode ? b.portImpl(l.portB()) : a.portImpl(l.portA());
                    int brPort = a instanceof BridgeNode ? l.portA() : l.portB();
                    connectLocked(host, br.freePort(brPort), l.width(), l.speed(), events);
                    br.hostAdded((EthHostPort) host);
                } else {
                    connectLocked(a.portImpl(l.portA()), b.portImpl(l.portB()), l.width(), l.speed(), events);
                }
            }
        }
        // Nobody listens yet: the events of the initial training are not fired.
    }

    private void build(Topology t, Topology.Node n) {
        NodeImpl node;
        switch (n.type()) {
            case SWITCH: {
                SwitchNode sw = new SwitchNode(this, n.name(), n.nodeGuid(), n.systemImageGuid(),
                        n.vendorId() == 0 ? DEFAULT_VENDOR_ID : n.vendorId(),
                        n.deviceId() == 0 ? DEFAULT_SWITCH_DEVICE_ID : n.deviceId(), n.description(), n.numPorts(),
                        n.enhancedPort0());
                PortImpl[] ps = new PortImpl[n.numPorts() + 1];
                for (int i = 0; i <= n.numPorts(); i++) {
                    ps[i] = new PortImpl(this, sw, i, n.nodeGuid(), LinkLayer.INFINIBAND);
                }
                sw.ports = ps;
                ps[0].lid = n.lid();
                ps[0].lmc = n.lmc();
                sw.lidChanged(ps[0]);
                node = sw;
                break;
            }
            case UNSPECIFIED:
                node = new BridgeNode(this, n.name(), n.numPorts());
                break;
            default: {
                CaNode ca = new CaNode(this, n.name(), n.type(), n.nodeGuid(), n.systemImageGuid(), n.vendorId(),
                        n.deviceId(), n.description());
                PortImpl[] ps = new PortImpl[n.numPorts() + 1];
                for (int i = 1; i <= n.numPorts(); i++) {
                    boolean eth = ethernetPort(t, n.name(), i);
                    long guid = n.portGuid(i);
                    ps[i] = eth ? new EthHostPort(this, ca, i, guid) : new PortImpl(this, ca, i, guid, LinkLayer.INFINIBAND);
                    int port = i;
                    n.port(port).ifPresent(tp -> {
                        ps[port].lid = tp.lid();
                        ps[port].lmc = tp.lmc();
                    });
                }
                ca.ports = ps;
                node = ca;
                break;
            }
        }
        register(node);
    }

    private static boolean ethernetPort(Topology t, String node, int port) {
        for (Topology.Link l : t.links()) {
            String other;
            if (l.nodeA().equals(node) && l.portA() == port) {
                other = l.nodeB();
            } else if (l.nodeB().equals(node) && l.portB() == port) {
                other = l.nodeA();
            } else {
                continue;
            }
            return t.node(other).map(Topology.Node::isEthernet).orElse(false);
        }
        return false;
    }

    private void register(NodeImpl node) {
        if (byName.containsKey(node.name)) {
            throw new RdmaException(Errno.EEXIST, "node \"" + node.name + "\" exists in fabric " + name);
        }
        if (node.type != NodeType.UNSPECIFIED && byGuid.containsKey(node.nodeGuid)) {
            throw new RdmaException(Errno.EEXIST, String.format("node GUID 0x%016x exists in fabric %s", node.nodeGuid, name));
        }
        byName.put(node.name, node);
        if (node.type != NodeType.UNSPECIFIED) {
            byGuid.put(node.nodeGuid, node);
        }
        nodes.add(node);
    }

    // ------------------------------------------------------------------ Fabric

    @Override
    public String name() {
        return name;
    }

    @Override
    public IbClock clock() {
        return clock;
    }

    @Override
    public long seed() {
        return seed;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public List<FabricNode> nodes() {
        return Collections.unmodifiableList(new ArrayList<>(nodes));
    }

    @Override
    public List<FabricSwitch> switches() {
        List<FabricSwitch> out = new ArrayList<>();
        for (NodeImpl n : nodes) {
            if (n instanceof SwitchNode) {
                out.add((SwitchNode) n);
            }
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public List<FabricLink> links() {
        return Collections.unmodifiableList(new ArrayList<>(links));
    }

    @Override
    public Optional<FabricNode> findNode(String nameOrGuid) {
        NodeImpl n = byName.get(nameOrGuid);
        if (n != null) {
            return Optional.of(n);
        }
        Long guid = parseGuid(nameOrGuid);
        return guid == null ? Optional.empty() : findNode(guid);
    }

    @Override
    public Optional<FabricNode> findNode(long nodeGuid) {
        return Optional.ofNullable(byGuid.get(nodeGuid));
    }

    /** Accepts {@code 0x2c903000c0b9c}, {@code 0002:c903:000c:0b9c} and 16 bare hex digits. */
    static Long parseGuid(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.startsWith("0x")) {
            s = s.substring(2);
        } else if (s.contains(":")) {
            s = s.replace(":", "");
        } else if (s.length() != 16) {
            return null;
        }
        if (s.isEmpty() || s.length() > 16) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(s, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public FabricNode attach(String nameOrGuid) {
        NodeImpl n = findNode(nameOrGuid).map(x -> (NodeImpl) x).orElseThrow(
                () -> new RdmaException(Errno.ENODEV, "no CA slot \"" + nameOrGuid + "\" in fabric " + name));
        if (!(n instanceof CaNode)) {
            throw new RdmaException(Errno.ENODEV, "\"" + nameOrGuid + "\" is a " + n.type + ", not a CA slot");
        }
        CaNode ca = (CaNode) n;
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            checkOpen();
            if (ca.attached) {
                throw new RdmaException(Errno.EBUSY, "CA slot \"" + ca.name + "\" is already attached");
            }
            ca.attached = true;
            for (PortImpl p : ca.ports) {
                if (p != null && p.link != null) {
                    updateLink(p.link, events);
                }
            }
        }
        PortImpl.fireAll(events);
        return ca;
    }

    void detach(CaNode ca) {
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            if (!ca.attached) {
                return;
            }
            ca.attached = false;
            for (PortImpl p : ca.ports) {
                if (p == null) {
                    continue;
                }
                p.sink = null;
                p.listeners.clear();
                if (p.link != null) {
                    updateLink(p.link, events);
                }
                p.lid = 0;
                p.lmc = 0;
                p.operationalVls = 8;
                p.disabled = false;
                p.refreshDownState();
                if (p instanceof EthHostPort) {
                    ((EthHostPort) p).reset();
                }
            }
        }
        PortImpl.fireAll(events);
    }

    @Override
    public FabricNode addCa(String name, long nodeGuid, LinkLayer... linkLayers) {
        if (linkLayers.length < 1 || linkLayers.length > 254) {
            throw new RdmaException(Errno.EINVAL, "a CA has 1..254 ports, got " + linkLayers.length);
        }
        synchronized (lock) {
            checkOpen();
            CaNode ca = new CaNode(this, name, NodeType.CA, nodeGuid, nodeGuid, 0, 0, name);
            PortImpl[] ps = new PortImpl[linkLayers.length + 1];
            for (int i = 1; i <= linkLayers.length; i++) {
                LinkLayer ll = linkLayers[i - 1];
                if (ll == LinkLayer.ETHERNET) {
                    ps[i] = new EthHostPort(this, ca, i, nodeGuid + i);
                } else if (ll == LinkLayer.INFINIBAND) {
                    ps[i] = new PortImpl(this, ca, i, nodeGuid + i, ll);
                } else {
                    throw new RdmaException(Errno.EINVAL, "port " + i + " link layer must be InfiniBand or Ethernet");
                }
            }
            ca.ports = ps;
            register(ca);
            return ca;
        }
    }

    @Override
    public FabricSwitch addSwitch(String name, long nodeGuid, int numPorts) {
        if (numPorts < 1 || numPorts > 254) {
            throw new RdmaException(Errno.EINVAL, "a switch has 1..254 ports, got " + numPorts);
        }
        synchronized (lock) {
            checkOpen();
            SwitchNode sw = new SwitchNode(this, name, nodeGuid, nodeGuid, DEFAULT_VENDOR_ID, DEFAULT_SWITCH_DEVICE_ID,
                    name, numPorts, false);
            PortImpl[] ps = new PortImpl[numPorts + 1];
            for (int i = 0; i <= numPorts; i++) {
                ps[i] = new PortImpl(this, sw, i, nodeGuid, LinkLayer.INFINIBAND);
            }
            sw.ports = ps;
            register(sw);
            return sw;
        }
    }

    @Override
    public FabricLink connect(FabricPort a, FabricPort b, PortWidth width, PortSpeed speed) {
        PortImpl pa = own(a);
        PortImpl pb = own(b);
        if (pa.linkLayer != LinkLayer.INFINIBAND || pb.linkLayer != LinkLayer.INFINIBAND) {
            throw new RdmaException(Errno.EINVAL, "connect() cables InfiniBand ports; use EthernetSegment.connect() for "
                    + (pa.linkLayer != LinkLayer.INFINIBAND ? pa : pb));
        }
        List<PortEvent> events = new ArrayList<>();
        LinkImpl l;
        synchronized (lock) {
            checkOpen();
            l = connectLocked(pa, pb, width == null ? Topology.DEFAULT_WIDTH : width,
                    speed == null ? Topology.DEFAULT_SPEED : speed, events);
        }
        PortImpl.fireAll(events);
        return l;
    }

    FabricLink connectEthernet(BridgeNode bridge, EthHostPort host, int bridgePort) {
        if (host.fabric != this) {
            throw new RdmaException(Errno.EINVAL, host + " belongs to another fabric");
        }
        List<PortEvent> events = new ArrayList<>();
        LinkImpl l;
        synchronized (lock) {
            checkOpen();
            l = connectLocked(host, bridge.freePort(bridgePort), Topology.DEFAULT_WIDTH, Topology.DEFAULT_SPEED, events);
            bridge.hostAdded(host);
        }
        PortImpl.fireAll(events);
        return l;
    }

    private LinkImpl connectLocked(PortImpl a, PortImpl b, PortWidth width, PortSpeed speed, List<PortEvent> events) {
        if (a == b) {
            throw new RdmaException(Errno.EINVAL, "cannot cable " + a + " to itself");
        }
        for (PortImpl p : new PortImpl[] {a, b}) {
            if (p.isManagementPort() && p.node instanceof SwitchNode) {
                throw new RdmaException(Errno.EINVAL, "switch port 0 has no cable: " + p);
            }
            if (p.link != null) {
                throw new RdmaException(Errno.EBUSY, p + " is already cabled to " + p.link.other(p));
            }
        }
        LinkImpl l = new LinkImpl(this, a, b, width, speed, seed ^ (++linkSeeds * 0xC2B2AE3D27D4EB4FL));
        a.link = l;
        b.link = l;
        links.add(l);
        updateLink(l, events);
        return l;
    }

    @Override
    public void disconnect(FabricLink link) {
        LinkImpl l = (LinkImpl) link;
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            if (!links.remove(l)) {
                return;
            }
            l.cablePresent = false;
            updateLink(l, events);
            l.a.link = null;
            l.b.link = null;
            l.disconnected();
            for (NodeImpl n : nodes) {
                if (n instanceof BridgeNode && (l.a.node == n || l.b.node == n)) {
                    ((BridgeNode) n).hostRemoved((EthHostPort) (l.a.node == n ? l.b : l.a));
                }
            }
        }
        l.closeCapture();
        PortImpl.fireAll(events);
    }

    @Override
    public EthernetSegment ethernetSegment(String segmentName) {
        synchronized (lock) {
            NodeImpl n = byName.get(segmentName);
            if (n instanceof BridgeNode) {
                return (BridgeNode) n;
            }
            if (n != null) {
                throw new RdmaException(Errno.EEXIST, "\"" + segmentName + "\" is a " + n.type + ", not an Ethernet segment");
            }
            checkOpen();
            BridgeNode b = new BridgeNode(this, segmentName, 0);
            register(b);
            return b;
        }
    }

    @Override
    public List<EthernetSegment> ethernetSegments() {
        List<EthernetSegment> out = new ArrayList<>();
        for (NodeImpl n : nodes) {
            if (n instanceof BridgeNode) {
                out.add((BridgeNode) n);
            }
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public Topology topology() {
        List<Topology.Node> ns = new ArrayList<>();
        List<Topology.Link> ls = new ArrayList<>();
        synchronized (lock) {
            for (NodeImpl n : nodes) {
                List<Topology.Port> ports = new ArrayList<>();
                int lid = 0;
                int lmc = 0;
                boolean esp0 = false;
                if (n instanceof SwitchNode) {
                    lid = n.port0().lid;
                    lmc = n.port0().lmc;
                    esp0 = ((SwitchNode) n).enhancedPort0();
                } else if (n instanceof CaNode) {
                    for (PortImpl p : n.ports) {
                        if (p != null) {
                            long guid = p.portGuid == n.nodeGuid + p.portNum ? 0 : p.portGuid;
                            if (guid != 0 || p.lid != 0 || p.lmc != 0) {
                                ports.add(new Topology.Port(p.portNum, guid, p.lid, p.lmc));
                            }
                        }
                    }
                }
                ns.add(new Topology.Node(n.type, n.name, n.numPorts(), n.nodeGuid, n.systemImageGuid, n.vendorId,
                        n.deviceId, n.description, lid, lmc, esp0, ports));
            }
            for (LinkImpl l : links) {
                ls.add(new Topology.Link(l.a.node.name, l.a.portNum, l.b.node.name, l.b.portNum, l.width, l.speed));
            }
        }
        return Topology.of(ns, ls);
    }

    @Override
    public void close() {
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (LinkImpl l : links) {
                l.cablePresent = false;
                updateLink(l, events);
            }
        }
        for (LinkImpl l : links) {
            l.closeCapture();
        }
        for (NodeImpl n : nodes) {
            if (n instanceof BridgeNode) {
                ((BridgeNode) n).closeCapture();
            }
        }
        PortImpl.fireAll(events);
    }

    private void checkOpen() {
        if (closed) {
            throw new RdmaException(Errno.ENODEV, "fabric " + name + " is closed");
        }
    }

    private PortImpl own(FabricPort p) {
        if (!(p instanceof PortImpl) || ((PortImpl) p).fabric != this) {
            throw new RdmaException(Errno.EINVAL, p + " is not a port of fabric " + name);
        }
        return (PortImpl) p;
    }

    // ------------------------------------------------------------------ link and port state machines

    private static boolean present(PortImpl p) {
        return p.node.isAttached() && !p.disabled;
    }

    /** Brings a link up or down to match its cable and ends (lock held). */
    private void updateLink(LinkImpl l, List<PortEvent> events) {
        boolean shouldBeUp = !closed && l.cablePresent && present(l.a) && present(l.b);
        if (shouldBeUp && !l.up) {
            l.up = true;
            l.a.linkUp(l.width, l.speed, events);
            l.b.linkUp(l.width, l.speed, events);
        } else if (!shouldBeUp && l.up) {
            l.up = false;
            l.a.linkDown(events);
            l.b.linkDown(events);
            l.dropHeld();
        } else if (!l.up) {
            l.a.refreshDownState();
            l.b.refreshDownState();
        }
    }

    void setCable(LinkImpl l, boolean present) {
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            if (l.cablePresent == present) {
                return;
            }
            l.cablePresent = present;
            updateLink(l, events);
        }
        PortImpl.fireAll(events);
    }

    /** The port state machine for SubnSet(PortInfo:PortState) (IBTA 7.2, 14.2.5.6). */
    void setPortState(PortImpl port, PortState state) {
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            if (port.linkLayer == LinkLayer.ETHERNET) {
                if (state == PortState.NOP) {
                    return;
                }
                throw new RdmaException(Errno.EINVAL, "the state of Ethernet port " + port + " follows its link");
            }
            PortState cur = port.portState;
            switch (state) {
                case NOP:
                    return;
                case DOWN:
                    if (port.isManagementPort()) {
                        changeState(port, PortState.INIT, events);
                    } else if (port.link != null && port.link.up) {
                        // The link goes down and retrains (unless disabled): Down, then Init.
                        LinkImpl l = port.link;
                        l.up = false;
                        l.a.linkDown(events);
                        l.b.linkDown(events);
                        l.dropHeld();
                        updateLink(l, events);
                    }
                    break;
                case ARMED:
                    if (cur != PortState.INIT && cur != PortState.ARMED) {
                        throw new RdmaException(Errno.EINVAL, "PortState " + cur + " of " + port + " cannot go to ARMED");
                    }
                    changeState(port, PortState.ARMED, events);
                    break;
                case ACTIVE:
                    if (cur != PortState.ARMED && cur != PortState.ACTIVE) {
                        throw new RdmaException(Errno.EINVAL, "PortState " + cur + " of " + port + " cannot go to ACTIVE");
                    }
                    changeState(port, PortState.ACTIVE, events);
                    break;
                default:
                    throw new RdmaException(Errno.EINVAL, "PortState " + state + " cannot be set");
            }
        }
        PortImpl.fireAll(events);
    }

    private static void changeState(PortImpl port, PortState state, List<PortEvent> events) {
        PortState old = port.portState;
        if (old == state) {
            return;
        }
        port.portState = state;
        events.add(new PortEvent(port, PortEvent.Type.PORT_STATE_CHANGE, port.physState, old, state));
    }

    /** SubnSet(PortInfo:PortPhysicalState): Disabled takes the link down and keeps it down; Polling re-enables. */
    void setPhysState(PortImpl port, PhysPortState state) {
        if (state == PhysPortState.NOP) {
            return;
        }
        if (state != PhysPortState.DISABLED && state != PhysPortState.POLLING || port.isManagementPort()) {
            throw new RdmaException(Errno.EINVAL, "PortPhysicalState " + state + " cannot be set on " + port);
        }
        List<PortEvent> events = new ArrayList<>();
        synchronized (lock) {
            port.disabled = state == PhysPortState.DISABLED;
            if (port.link != null) {
                updateLink(port.link, events);
            } else {
                port.refreshDownState();
            }
        }
        PortImpl.fireAll(events);
    }

    /** SubnSet(PortInfo:LID/LMC) by the port's SMA. */
    void setLid(PortImpl port, int lid, int lmc) {
        if (lid < 0 || lid >= 0xC000) {
            throw new RdmaException(Errno.EINVAL, String.format("LID 0x%x is not a unicast LID", lid));
        }
        if (lmc < 0 || lmc > 7) {
            throw new RdmaException(Errno.EINVAL, "LMC " + lmc + " is above 7");
        }
        if (port.linkLayer != LinkLayer.INFINIBAND || port.node instanceof SwitchNode && port.portNum != 0) {
            throw new RdmaException(Errno.EINVAL, port + " has no LID (only CA ports and switch port 0 do)");
        }
        PortEvent event = null;
        synchronized (lock) {
            if (port.lid != lid || port.lmc != lmc) {
                port.lid = lid;
                port.lmc = lmc;
                port.node.lidChanged(port);
                event = new PortEvent(port, PortEvent.Type.LID_CHANGE, port.physState, port.portState, port.portState);
            }
        }
        if (event != null) {
            port.fire(event);
        }
    }

    @Override
    public String toString() {
        return "Fabric{" + name + ", " + nodes.size() + " nodes, " + links.size() + " links}";
    }
}
