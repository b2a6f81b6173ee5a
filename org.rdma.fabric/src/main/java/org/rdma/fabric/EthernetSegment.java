package org.rdma.fabric;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * An Ethernet broadcast domain for RoCE ports: one transparent bridge (IEEE 802.1D, the Linux
 * {@code bridge} module) with MAC learning: a frame to a learned unicast address goes out of the
 * port that address was seen on; unknown unicast, broadcast and multicast frames are flooded to
 * every other port. Each host {@link EthernetPort} is cabled to its own bridge port by a
 * {@link FabricLink}, which carries faults and captures like an InfiniBand link.
 *
 * <p>As a {@link FabricNode} the bridge has node type {@code UNSPECIFIED}; its ports are the
 * bridge ports.
 */
@ProviderType
public interface EthernetSegment extends FabricNode {

    /**
     * Cables a host port to a new bridge port ({@code ip link set dev X master br0}).
     *
     * @param hostPort an Ethernet port of a CA that is not cabled yet
     * @return the new link
     * @throws org.rdma.verbs.RdmaException {@code EINVAL} if the port is not Ethernet or already cabled
     */
    FabricLink connect(EthernetPort hostPort);

    /** @return the host ports cabled to this segment (the bridge's member netdevs) */
    List<EthernetPort> hostPorts();

    /** @return the bridge's forwarding database: learned MAC address to bridge port ({@code bridge fdb show}) */
    Map<MacAddress, FabricPort> macTable();

    /** Forgets every learned address ({@code bridge fdb flush}). */
    void flushMacTable();

    /**
     * Captures every frame the bridge receives to a LINKTYPE_ETHERNET pcap file (a mirror port).
     *
     * @param file the file to create
     * @return the running capture
     * @throws IOException if the file cannot be created
     */
    Capture capture(Path file) throws IOException;
}
