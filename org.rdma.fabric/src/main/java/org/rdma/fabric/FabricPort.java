package org.rdma.fabric;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;

/**
 * A port of a fabric node: an InfiniBand CA or switch port (IBTA vol. 1, 5.2 and 14.2.5.6
 * PortInfo), or an Ethernet port of a RoCE NIC or of an L2 switch. The fabric holds the state
 * PortInfo describes for the link: PortPhysicalState, PortState, LID/LMC, width, speed and the
 * operational VLs, plus the PortCounters.
 *
 * <p>For a CA port the PortState and LID are set by the CA's SMA, which lives in the HCA driver
 * ({@link #setPortState}, {@link #setLid}); for a switch port by the switch SMA inside the fabric
 * (or by these methods, for tests and SM-less setups). The link sets PortState Init when it
 * trains and Down when it goes down, as the port's link state machine does.
 */
@ProviderType
public interface FabricPort {

    /** @return the node this port belongs to */
    FabricNode node();

    /** @return the port number (PortInfo:LocalPortNum): 1..N, 0 for a switch's management port */
    int portNum();

    /** @return the port GUID (NodeInfo:PortGUID / GUIDInfo entry 0); a switch's ports share the node GUID */
    long portGuid();

    /** @return the link layer ({@code rdma_port_get_link_layer()}) */
    LinkLayer linkLayer();

    /** @return the cable this port is plugged into, or {@code null} (switch port 0, unconnected ports) */
    FabricLink link();

    /** @return the port at the other end of the cable, or {@code null} */
    FabricPort peer();

    /** @return PortInfo:PortPhysicalState: LinkUp when the link trained, Polling without a peer, Disabled when disabled */
    PhysPortState physState();

    /** @return PortInfo:PortState (Down until the link trains, then Init/Armed/Active) */
    PortState portState();

    /**
     * Sets PortInfo:PortState as the port's SMA does for a SubnSet(PortInfo) (IBTA 14.2.5.6 and
     * the port state machine of 7.2): {@code NOP} changes nothing; {@code DOWN} takes the link
     * down (it retrains to Init unless disabled); {@code ARMED} is valid from Init or Armed;
     * {@code ACTIVE} from Armed or Active.
     *
     * @param state the requested state
     * @throws org.rdma.verbs.RdmaException {@code EINVAL} for a transition the state machine refuses
     */
    void setPortState(PortState state);

    /**
     * Sets PortPhysicalState as SubnSet(PortInfo) does: {@code DISABLED} takes the link down and
     * keeps it down, {@code POLLING} re-enables the port (the link trains if the peer is there),
     * {@code NOP} changes nothing.
     *
     * @param state NOP, POLLING or DISABLED
     * @throws org.rdma.verbs.RdmaException {@code EINVAL} for any other value
     */
    void setPhysState(PhysPortState state);

    /** @return PortInfo:LID (the base LID; for a switch, the LID of port 0) */
    int lid();

    /** @return PortInfo:LMC (for a switch, port 0's) */
    int lmc();

    /**
     * Sets PortInfo:LID and LMC, as the SMA does. On a switch only port 0 has a LID.
     *
     * @param lid unicast LID 0..0xBFFF (0: unassigned)
     * @param lmc 0..7
     * @throws org.rdma.verbs.RdmaException {@code EINVAL} for a multicast or permissive LID, an LMC
     *                                      above 7, or a switch port other than 0
     */
    void setLid(int lid, int lmc);

    /** @return PortInfo:LinkWidthActive of the trained link ({@code null} while down) */
    PortWidth linkWidthActive();

    /** @return PortInfo:LinkSpeedActive of the trained link ({@code null} while down) */
    PortSpeed linkSpeedActive();

    /** @return PortInfo:OperationalVLs as a count of data VLs (1, 2, 4, 8 or 15); VL15 always exists */
    int operationalVls();

    /**
     * Sets PortInfo:OperationalVLs.
     *
     * @param dataVls 1, 2, 4, 8 or 15
     * @throws org.rdma.verbs.RdmaException {@code EINVAL} for another count
     */
    void setOperationalVls(int dataVls);

    /**
     * Takes a packet from this port's pool ({@code alloc_skb()}): one reference, owned by the
     * caller, every field cleared. Cheap and thread-safe; allocates only while the pool grows.
     *
     * @return the packet
     */
    Packet allocPacket();

    /**
     * Puts a packet on the wire ({@code ndo_start_xmit()}), passing the caller's reference to the
     * fabric. Delivery is synchronous: through the link and any switches to the receiving port's
     * {@link PacketSink} before this returns, unless a fault delays it. A packet the port may not
     * send (link down; a data packet while the port is not Active; VL15 while Down) is discarded
     * and counted in PortXmitDiscards.
     *
     * <p>The fabric does not loop packets back: a packet for the sending port's own LID (or a
     * multicast group the port belongs to) must be looped back inside the HCA, as ConnectX does;
     * a switch never sends a unicast packet back out of the port it arrived on.
     *
     * @param packet a packet from {@link #allocPacket()} (or any packet of this link layer)
     * @throws IllegalArgumentException if the packet's link layer is not this port's
     */
    void transmit(Packet packet);

    /**
     * Plugs in the receive handler, the driver's counterpart of {@code rxe_rcv()} or of an mlx4
     * receive completion. Packets arriving without a sink are dropped.
     *
     * @param sink the handler, or {@code null} to unplug
     */
    void setSink(PacketSink sink);

    /**
     * Subscribes to the port's link and state changes, as a driver subscribes to its hardware's
     * port change events (mlx4's {@code MLX4_EVENT_TYPE_PORT_CHANGE}).
     *
     * @param listener told about link and state changes of this port
     */
    void addListener(PortListener listener);

    /**
     * Unsubscribes from the port change events.
     *
     * @param listener a listener added before
     */
    void removeListener(PortListener listener);

    /** @return the PortCounters (and PortCountersExtended) of this port, as of now */
    PortCounterSnapshot counters();

    /** Clears the counters, as a SubnSet/PerfMgt Set(PortCounters) with all select bits does. */
    void clearCounters();

    /**
     * Clears the counters whose bits are set in {@code components}, bit {@code i} standing for
     * component {@code i} of {@link PortCounterSnapshot} ({@link PortCounterSnapshot#toArray()}),
     * as a PerfMgt Set with some CounterSelect bits does ({@link PerfAgent}; qib's
     * {@code pma_set_portcounters()} clears the same way).
     */
    void clearCounters(long components);
}
