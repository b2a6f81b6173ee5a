package org.rdma.hca.mlx4sim.internal;

import java.util.ArrayList;
import java.util.List;
import org.rdma.fabric.Fabric;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.time.IbClock;

/**
 * The parameters of one simulated ConnectX-3, as the module parameters and the firmware's
 * {@code QUERY_PORT}/{@code INIT_PORT} settings give them to {@code mlx4_ib_add()}: identity, ports
 * and where they are cabled. Filled from the Config Admin configuration by {@link Mlx4Component},
 * or directly by tests.
 */
public final class Mlx4Params {
    /** One port's settings. */
    public static final class PortParams {
        /** The link layer ({@code mlx4_port_type}: IB or ETH). */
        public LinkLayer linkLayer = LinkLayer.INFINIBAND;
        /** The netdev of an Ethernet port ({@code mlx4_en}'s interface, e.g. "eth2"). */
        public String netdev = "";
        /** IPv4/IPv6 addresses of the netdev (RoCE GIDs). */
        public List<String> ipAddresses = new ArrayList<>();
        /** 802.1Q VLAN id of the port's RoCE traffic, or -1 for untagged. */
        public int vlan = -1;
        /** The switch port an IB port is cabled to (when the CA is created here), 0 for none. */
        public int switchPort;
    }

    /** Name template ({@code "mlx4_%d"}). */
    public String nameTemplate = "mlx4_%d";
    /** The host name that starts the NodeDescription ({@code init_node_data()}: "hostname mlx4_0"). */
    public String hostname = "localhost";
    /** NodeInfo:NodeGUID, 0 to take the slot's or derive it from {@link #baseGuid}. */
    public long nodeGuid;
    /** Base GUID new CAs derive their node GUID from. */
    public long baseGuid = 0x0002_c903_0000_0000L;
    /** The topology CA slot (name or GUID) to attach to; empty to create a new CA. */
    public String caSlot = "";
    /** Name of a CA created here. */
    public String caName = "";
    /** The switch new IB ports are cabled to (name or GUID). */
    public String switchName = "";
    /** The Ethernet segment RoCE ports are cabled to. */
    public String ethernetSegment = "eth";
    /** The ports, port 1 first (1 or 2). */
    public List<PortParams> ports = new ArrayList<>(List.of(new PortParams()));
    /** The fabric. */
    public Fabric fabric;
    /** The clock rvt's timers use. */
    public IbClock clock;

    /** @return a copy of these parameters with one port per link layer given */
    public static Mlx4Params of(Fabric fabric, IbClock clock, LinkLayer... linkLayers) {
        Mlx4Params p = new Mlx4Params();
        p.fabric = fabric;
        p.clock = clock;
        p.ports.clear();
        for (LinkLayer ll : linkLayers) {
            PortParams pp = new PortParams();
            pp.linkLayer = ll;
            p.ports.add(pp);
        }
        return p;
    }
}
