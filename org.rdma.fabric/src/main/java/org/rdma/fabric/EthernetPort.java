package org.rdma.fabric;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.osgi.annotation.versioning.ProviderType;

/**
 * An Ethernet port of a RoCE NIC on an {@link EthernetSegment}: the netdev side of an RDMAoE
 * port. It has a MAC address and the IP addresses of its host interface, answers ARP
 * (RFC 826) and IPv6 neighbour solicitations (RFC 4861) for them, and resolves neighbours with
 * real ARP and NS/NA frames through a neighbour cache — what the kernel's {@code rdma_addr}
 * module gets from {@code neigh_lookup()}/{@code neigh_event_send()}. Every other frame
 * addressed to the port (RoCE) goes to its {@link PacketSink}.
 */
@ProviderType
public interface EthernetPort extends FabricPort {

    /** @return the port's MAC address ({@code dev->dev_addr}) */
    MacAddress macAddress();

    /**
     * Changes the MAC address (the neighbour caches of other hosts keep the old one until they
     * learn the new one, as on a real segment).
     *
     * @param mac a unicast address
     */
    void setMacAddress(MacAddress mac);

    /** @return the IPv4 and IPv6 addresses of the host interface, in the order added ({@code in_device}/{@code inet6_dev} lists) */
    List<InetAddress> ipAddresses();

    /**
     * Adds an address to the interface ({@code ip addr add}). IPv6 link-local addresses are
     * derived by the caller (for example {@link MacAddress#linkLocalIpv6()}).
     *
     * @param address the address
     */
    void addIpAddress(InetAddress address);

    /**
     * @param address an address added before
     * @return whether it was present
     */
    boolean removeIpAddress(InetAddress address);

    /**
     * Resolves an IP address to a MAC address as the host stack does for {@code rdma_resolve_addr}:
     * the port's own addresses, broadcast and multicast addresses (RFC 1112 / RFC 2464 mapping)
     * and EUI-64 link-local IPv6 addresses ({@code rdma_get_ll_mac()}) resolve without an
     * exchange; a cached neighbour resolves at once; otherwise an ARP request or a neighbour
     * solicitation is sent and retried through the fabric's clock. Because delivery on the
     * segment is synchronous, the answer usually arrives before this method returns.
     *
     * @param address the neighbour's IP address
     * @return completes with the MAC address, or exceptionally with an
     *         {@link org.rdma.verbs.RdmaException} carrying {@code EHOSTUNREACH} after the retries
     *         ({@code ENETUNREACH} if the port has no address of that family)
     */
    CompletionStage<MacAddress> resolve(InetAddress address);

    /** @return the neighbour cache ({@code arp_tbl}/{@code nd_tbl}): reachable entries learned from replies and requests */
    Map<InetAddress, MacAddress> neighbours();

    /** Empties the neighbour cache ({@code ip neigh flush}). */
    void flushNeighbours();
}
