package org.rdma.hca.mlx4sim.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PortCounterSnapshot;
import org.rdma.fabric.Topology;
import org.rdma.rvt.RvtDevice;
import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.IbClock;

/**
 * One simulated ConnectX-3: what {@code mlx4_ib_add()} (drivers/infiniband/hw/mlx4/main.c) sets
 * up for a device — identity (vendor 0x02c9, part 0x1003, firmware 2.42.5000, node and system
 * image GUIDs, NodeDescription "host mlx4_N"), the ports on the fabric (an attached CA slot or a
 * new CA cabled to a switch / Ethernet segment), the embedded SMA and PMA per IB port and the
 * RoCE addressing per Ethernet port — and the {@link RvtDriver} the transport calls (query port,
 * GID, P_Key; resolve AH; transmit). {@link #provider()} is the {@code IbDeviceProvider}.
 *
 * <p>{@link #close()} is {@code mlx4_ib_remove()}: the ports leave the fabric (a CA created here
 * is detached and its cables removed).
 */
public final class Mlx4Device implements RvtDriver {

    private final Mlx4Params params;
    private final Fabric fabric;
    private final FabricNode node;
    private final boolean created;
    private final List<FabricLink> cabled = new ArrayList<>();
    private final Mlx4Port[] ports;
    final Mlx4Rvt rvt;
    private final long nodeGuid;
    private final long sysImageGuid;
    private volatile String nodeDesc;
    private volatile DeviceContext ctx;
    /** Received packets dropped by the link checks (address, malformed). */
    final AtomicLong rxDropped = new AtomicLong();
    /** Received packets dropped for a CRC error. */
    final AtomicLong rxCrcErrors = new AtomicLong();
    /** Packets the transmit path could not build (no source GID, header too long). */
    final AtomicLong txDropped = new AtomicLong();

    /** The transport device, capturing the core's context for events ({@code ib_register_device()}). */
    final class Mlx4Rvt extends RvtDevice {
        Mlx4Rvt(DeviceInfo info) {
            super(info, Mlx4Identity.deviceAttr(sysImageGuid), Mlx4Device.this, params.clock);
        }

        /** The core registered the device: remember the context, publish the netdevs of RoCE ports. */
        @Override
        public void attach(DeviceContext context) {
            ctx = context;
            super.attach(context);
            IbDevice d = context.device();
            if (d != null && d.name() != null) {
                nodeDesc = params.hostname + " " + d.name();
                node.setNodeDescription(nodeDesc);
            }
            for (Mlx4Port p : ports) {
                if (!p.isIb()) {
                    context.setNetdev(p.num, p.roce.netdev());
                }
            }
        }

        @Override
        public void detach() {
            super.detach();
            ctx = null;
        }
    }

    /**
     * {@code mlx4_ib_add()}: builds the device on the fabric.
     *
     * @throws RdmaException ENODEV/EBUSY from the fabric, EINVAL for a bad configuration
     */
    public Mlx4Device(Mlx4Params params) {
        this.params = params;
        this.fabric = params.fabric;
        if (fabric == null || params.clock == null) {
            throw new RdmaException(Errno.EINVAL, "mlx4sim needs a fabric and a clock");
        }
        int n = params.ports.size();
        if (n < 1 || n > 2) {
            throw new RdmaException(Errno.EINVAL, "a ConnectX-3 has 1 or 2 ports, not " + n);
        }
        String slot = params.caSlot == null ? "" : params.caSlot.trim();
        if (!slot.isEmpty()) {
            node = fabric.findNode(slot).orElseThrow(() -> new RdmaException(Errno.ENODEV, "no CA slot " + slot));
            if (node.nodeType() != NodeType.CA || node.numPorts() < n) {
                throw new RdmaException(Errno.EINVAL, "\"" + slot + "\" is not a CA slot with " + n + " ports");
            }
            created = false;
            nodeGuid = params.nodeGuid != 0 ? params.nodeGuid : node.nodeGuid();
        } else {
            LinkLayer[] lls = new LinkLayer[n];
            for (int i = 0; i < n; i++) {
                lls[i] = params.ports.get(i).linkLayer;
            }
            // GUIDs are stable (an SM keeps LIDs per GUID): the configured GUID, or the base GUID,
            // stepping by 0x100 only past CAs that another HCA is attached to.
            long guid = params.nodeGuid != 0 ? params.nodeGuid : params.baseGuid;
            Optional<FabricNode> existing = fabric.findNode(guid);
            while (params.nodeGuid == 0 && existing.isPresent() && !reusable(existing.get(), lls)) {
                guid += 0x100;
                existing = fabric.findNode(guid);
            }
            nodeGuid = guid;
            if (existing.isPresent()) {
                // A CA an earlier instance of this HCA created and left detached and uncabled.
                RdmaException.check(reusable(existing.get(), lls), Errno.EEXIST,
                        String.format("node GUID %016x is in use in fabric %s", guid, fabric.name()));
                node = existing.get();
            } else {
                String name = params.caName == null || params.caName.isBlank()
                        ? String.format("H-%016x", nodeGuid) : params.caName;
                node = fabric.addCa(name, nodeGuid, lls);
            }
            created = true;
        }
        this.sysImageGuid = nodeGuid;
        this.nodeDesc = params.hostname + " mlx4_0";
        this.ports = new Mlx4Port[n];
        for (int i = 0; i < n; i++) {
            FabricPort fp = node.port(i + 1);
            ports[i] = new Mlx4Port(this, i + 1, fp, params.ports.get(i));
        }
        DeviceInfo info = new DeviceInfo();
        info.nameTemplate = params.nameTemplate;
        info.driverId = "mlx4";
        info.nodeType = NodeType.CA;
        info.nodeGuid = nodeGuid;
        info.nodeDesc = nodeDesc;
        info.physPortCnt = n;
        info.localDmaLkey = Mlx4Identity.RESERVED_LKEY;
        this.rvt = new Mlx4Rvt(info);
        try {
            if (created) {
                cable();
            }
            for (Mlx4Port p : ports) {
                p.open();
            }
            fabric.attach(node.name());
            node.setNodeDescription(nodeDesc);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Whether {@code n} is a detached CA with the ports this HCA needs, which it may take over. */
    private static boolean reusable(FabricNode n, LinkLayer[] lls) {
        if (n.nodeType() != NodeType.CA || n.isAttached() || n.numPorts() != lls.length) {
            return false;
        }
        for (int i = 0; i < lls.length; i++) {
            if (n.port(i + 1).linkLayer() != lls[i] || n.port(i + 1).link() != null) {
                return false;
            }
        }
        return true;
    }

    /** Cables the ports of a CA created here: IB ports to the switch, Ethernet ports to the segment. */
    private void cable() {
        for (Mlx4Port p : ports) {
            if (p.isIb()) {
                int sp = p.params.switchPort;
                if (sp > 0 && params.switchName != null && !params.switchName.isBlank()) {
                    FabricNode sw = fabric.findNode(params.switchName.trim())
                            .orElseThrow(() -> new RdmaException(Errno.ENODEV, "no switch " + params.switchName));
                    cabled.add(fabric.connect(p.fport, sw.port(sp), Topology.DEFAULT_WIDTH, Topology.DEFAULT_SPEED));
                }
            } else {
                cabled.add(fabric.ethernetSegment(params.ethernetSegment).connect((EthernetPort) p.fport));
            }
        }
    }

    /** {@code mlx4_ib_remove()}: unplugs the ports and releases the CA slot. Idempotent. */
    public void close() {
        for (Mlx4Port p : ports) {
            if (p != null) {
                p.close();
            }
        }
        if (node.isAttached()) {
            node.detach();
        }
        if (created) {
            for (FabricLink l : cabled) {
                try {
                    fabric.disconnect(l);
                } catch (RuntimeException ignored) {
                    // the fabric is closing
                }
            }
            cabled.clear();
        }
    }

    // ================================================================== accessors

    /** @return the {@code IbDeviceProvider} (the rvt device) */
    public RvtDevice provider() {
        return rvt;
    }

    /** @return the fabric node of this HCA */
    public FabricNode node() {
        return node;
    }

    /** @return NodeInfo:NodeGUID */
    public long nodeGuid() {
        return nodeGuid;
    }

    /** @return NodeInfo:SystemImageGUID */
    public long sysImageGuid() {
        return sysImageGuid;
    }

    /** @return NodeDescription */
    public String nodeDesc() {
        return nodeDesc;
    }

    /** @return the number of ports */
    public int numPorts() {
        return ports.length;
    }

    /** @return the port, or {@code null} */
    Mlx4Port port(int num) {
        return num >= 1 && num <= ports.length ? ports[num - 1] : null;
    }

    /** @return the fabric port behind {@code num} */
    public FabricPort fabricPort(int num) {
        return ports[num - 1].fport;
    }

    /** @return the clock */
    IbClock clock() {
        return params.clock;
    }

    /** @return a name for logs */
    String name() {
        return node.name();
    }

    /** Received packets dropped by the link checks, CRC errors included. */
    public long rxDropped() {
        return rxDropped.get() + rxCrcErrors.get();
    }

    /** Received packets dropped for a bad ICRC/VCRC. */
    public long rxCrcErrors() {
        return rxCrcErrors.get();
    }

    /** Trap 128 SMPs the SMA of {@code port} sent. */
    public long trapsSent(int port) {
        Mlx4Port p = port(port);
        return p == null || p.sma == null ? 0 : p.sma.trapsSent;
    }

    /** {@code ip addr add} on a RoCE port's netdev (the GID table follows, GID_CHANGE). */
    public void addIpAddress(int port, String address) {
        Mlx4Port p = ports[port - 1];
        if (p.roce == null) {
            throw new RdmaException(Errno.EINVAL, "port " + port + " is not an Ethernet port");
        }
        p.roce.addAddress(RoceGids.parse(address));
    }

    /** {@code ip addr del} on a RoCE port's netdev. */
    public void removeIpAddress(int port, String address) {
        Mlx4Port p = ports[port - 1];
        if (p.roce == null) {
            throw new RdmaException(Errno.EINVAL, "port " + port + " is not an Ethernet port");
        }
        p.roce.removeAddress(RoceGids.parse(address));
    }

    /**
     * A locally synthesised path record between two GIDs of a RoCE port (see {@link LocalPathRecord}).
     */
    public AhAttr localPath(int port, int sgidIndex, org.rdma.verbs.Gid dgid) {
        return LocalPathRecord.build(ports[port - 1], sgidIndex, dgid);
    }

    // ================================================================== events

    /** Re-reads a port into rvt's cache (when attached). */
    void refreshPort(int port) {
        if (ctx != null) {
            rvt.refreshPort(port);
        }
    }

    /** {@code mlx4_ib_dispatch_event()}: a port event to the core. */
    void dispatch(IbEventType type, int port) {
        DeviceContext c = ctx;
        if (c != null) {
            c.dispatchEvent(IbEvent.port(c.device(), type, port));
        }
    }

    // ================================================================== RvtDriver

    @Override
    public PortAttr queryPort(int port) {
        return check(port).queryPort();
    }

    @Override
    public GidEntry queryGid(int port, int index) {
        return check(port).queryGid(index);
    }

    @Override
    public int queryPkey(int port, int index) {
        return check(port).queryPkey(index);
    }

    /**
     * {@code mlx4_ib_modify_port()}: sets and clears PortInfo:CapabilityMask bits (the SM's IsSM,
     * the CM's IsCM), the firmware telling the SM with Trap 144, and resets the Q_Key violation
     * counter. A no-op on RoCE ports, whose capabilities are not the SM's business (the CM calls
     * it on every port).
     */
    @Override
    public void modifyPort(int port, int mask, PortModify modify) {
        Mlx4Port p = check(port);
        if (!p.isIb()) {
            return;
        }
        int before;
        int after;
        synchronized (p) {
            before = p.capMask;
            after = (before | modify.setPortCapMask) & ~modify.clrPortCapMask;
            p.capMask = after;
            if ((mask & PortModify.RESET_QKEY_CNTR) != 0) {
                p.qkeyViolations = 0;
            }
        }
        if (after != before) {
            p.sma.capabilityMaskTrap(after);
        }
    }

    /**
     * Completes an address vector: on RoCE ports the destination MAC ({@code create_iboe_ah()},
     * {@code mlx4_ib_modify_qp()} to RTR via {@code ib_resolve_eth_dmac()}); IB needs nothing.
     */
    @Override
    public void resolveAh(int port, AhAttr attr) {
        Mlx4Port p = check(port);
        if (p.isIb()) {
            if (attr.type == AhAttrType.UNDEFINED) {
                attr.type = AhAttrType.IB;
            }
            return;
        }
        p.roce.resolve(attr);
    }

    @Override
    public int transmit(int port, RvtPacket pkt) {
        return check(port).io.transmit(pkt);
    }

    /**
     * The port's PMA counters (PortCounters with PortCountersExtended's 64-bit values) under the
     * names of Linux's {@code /sys/class/infiniband/DEV/ports/N/counters}, after the transport's
     * counters; {@code link_downed} is the transport's, so the PMA's LinkDownedCounter is left out.
     */
    static final String[] PORT_STATS = {
        "symbol_error", "link_error_recovery", "port_rcv_errors", "port_rcv_remote_physical_errors",
        "port_rcv_switch_relay_errors", "port_xmit_discards", "port_xmit_constraint_errors",
        "port_rcv_constraint_errors", "VL15_dropped", "port_xmit_data", "port_rcv_data",
        "port_xmit_packets", "port_rcv_packets", "unicast_xmit_packets", "unicast_rcv_packets",
        "multicast_xmit_packets", "multicast_rcv_packets",
    };

    @Override
    public String[] hwStatNames(int port) {
        check(port);
        return PORT_STATS.clone();
    }

    @Override
    public void getHwStats(int port, long[] value, int offset) {
        PortCounterSnapshot c = check(port).fport.counters();
        long[] v = {c.symbolErrorCounter(), c.linkErrorRecoveryCounter(), c.portRcvErrors(),
            c.portRcvRemotePhysicalErrors(), c.portRcvSwitchRelayErrors(), c.portXmitDiscards(),
            c.portXmitConstraintErrors(), c.portRcvConstraintErrors(), c.vl15Dropped(), c.portXmitData(),
            c.portRcvData(), c.portXmitPkts(), c.portRcvPkts(), c.portUnicastXmitPkts(), c.portUnicastRcvPkts(),
            c.portMulticastXmitPkts(), c.portMulticastRcvPkts()};
        System.arraycopy(v, 0, value, offset, v.length);
    }

    /** InfiniBand ports take trains whole (the fabric splits them where it must); RoCE ports do not. */
    @Override
    public int maxSegments(int port) {
        return check(port).io instanceof IbLink ? Packet.MAX_SEGMENTS : 1;
    }

    private Mlx4Port check(int port) {
        if (port < 1 || port > ports.length) {
            throw new RdmaException(Errno.EINVAL, "port " + port + " of " + ports.length);
        }
        return ports[port - 1];
    }
}
