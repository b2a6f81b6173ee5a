package org.rdma.fabric;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.time.IbClock;

/**
 * A simulated subnet: InfiniBand switches, CA slots and the cables between them (ibsim's whole
 * {@code Node}/{@code Switch}/{@code Port} net), plus Ethernet segments for RoCE ports. Published
 * as an OSGi service per configuration of the factory PID {@code org.rdma.fabric}, with the
 * service property {@value #FABRIC_NAME}; {@link Fabrics#create} builds one without OSGi.
 *
 * <p>HCA drivers {@linkplain #attach attach} to the CA slots the topology declares (or add their
 * own with {@link #addCa}), plug a {@link PacketSink} into each port and transmit
 * {@link Packet}s. All timing (fault delays, ARP retries) goes through the fabric's
 * {@link IbClock}.
 */
@ProviderType
public interface Fabric {

    /** Service property carrying the fabric's name. */
    String FABRIC_NAME = "fabric.name";

    /** @return the fabric's name ({@value #FABRIC_NAME}; ibsim's net name, the {@code module} prefix) */
    String name();

    /** @return the clock every fault delay and retry timer uses (the injected {@code IbClock} service) */
    IbClock clock();

    /** @return the seed of the fault generators (as {@code netem}'s random source, made repeatable) */
    long seed();

    /** @return every node: switches, CA slots and Ethernet bridges, in creation order (ibsim's {@code nodes[]}) */
    List<FabricNode> nodes();

    /** @return the InfiniBand switches (ibsim's {@code switches[]}) */
    List<FabricSwitch> switches();

    /** @return every cable (ibsim's linked {@code Port} pairs, {@code link_ports()}) */
    List<FabricLink> links();

    /**
     * Looks a node up as ibsim's {@code find_node()} and {@code find_node_by_guid()} do.
     *
     * @param nameOrGuid a node name, or a node GUID as hexadecimal ({@code 0x2c903000c0b9c} or
     *                   {@code 0002:c903:000c:0b9c})
     * @return the node
     */
    Optional<FabricNode> findNode(String nameOrGuid);

    /**
     * Looks a node up by NodeInfo:NodeGUID (ibsim's {@code find_node_by_guid()}).
     *
     * @param nodeGuid NodeInfo:NodeGUID
     * @return the node
     */
    Optional<FabricNode> findNode(long nodeGuid);

    /**
     * Attaches an HCA driver to a CA slot: the slot's cables train (both ends LinkUp, PortState
     * Init) and the switch ends' listeners hear LINK_UP.
     *
     * @param nameOrGuid the slot's name or node GUID
     * @return the CA node, whose ports the driver now drives
     * @throws org.rdma.verbs.RdmaException {@code ENODEV} if there is no such CA, {@code EBUSY} if
     *                                      another driver is attached
     */
    FabricNode attach(String nameOrGuid);

    /**
     * Adds an empty CA slot (not attached) at run time, for HCAs the topology did not declare
     * (ibsim's {@code new_node(HCA_NODE)}).
     *
     * @param name       unique node name
     * @param nodeGuid   NodeInfo:NodeGUID; port GUIDs are nodeGuid + port number
     * @param linkLayers the link layer of each port, port 1 first
     * @return the new slot
     * @throws org.rdma.verbs.RdmaException {@code EEXIST} if the name or GUID is taken
     */
    FabricNode addCa(String name, long nodeGuid, LinkLayer... linkLayers);

    /**
     * Adds a switch at run time (ibsim's {@code new_node(SWITCH_NODE)} and {@code new_switch()}).
     *
     * @param name     unique node name
     * @param nodeGuid NodeInfo:NodeGUID
     * @param numPorts external ports
     * @return the switch
     */
    FabricSwitch addSwitch(String name, long nodeGuid, int numPorts);

    /**
     * Cables two InfiniBand ports (ibsim's {@code connect_ports()}/{@code link_ports()}).
     *
     * @param a     one port
     * @param b     the other
     * @param width link width
     * @param speed link speed
     * @return the link (up at once if both ends are there)
     * @throws org.rdma.verbs.RdmaException {@code EBUSY} if a port is already cabled,
     *                                      {@code EINVAL} for a port 0 or an Ethernet port
     */
    FabricLink connect(FabricPort a, FabricPort b, PortWidth width, PortSpeed speed);

    /**
     * Removes a cable for good, unlike {@link FabricLink#cablePull()} (ibsim's {@code unlink_ports()}).
     *
     * @param link the link
     */
    void disconnect(FabricLink link);

    /**
     * The Ethernet broadcast domain of that name, created if needed ({@code ip link add NAME type bridge}).
     *
     * @param name the segment's name
     * @return the Ethernet segment
     */
    EthernetSegment ethernetSegment(String name);

    /** @return the Ethernet segments (the bridges, {@code bridge link show}) */
    List<EthernetSegment> ethernetSegments();

    /** @return the current topology, as ibnetdiscover would report it (see {@link Topology#format()}) */
    Topology topology();

    /**
     * Shuts the fabric down: captures stop, links go down, pending deliveries are dropped. Only
     * the fabric's owner (the component, or whoever called {@link Fabrics#create}) calls this.
     */
    void close();
}
