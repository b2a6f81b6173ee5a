package org.rdma.hca.mlx4sim.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.MacAddress;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.VirtualClock;

/**
 * RDMA over Ethernet addressing of one port (RDMAoE, the mlx4 RoCE patches): the GID table made
 * of the netdev's addresses — the link-local {@code fe80::/64} GID from the MAC (EUI-64, as
 * {@code mlx4_make_default_gid()}), each IPv4 address as {@code ::ffff:a.b.c.d} and each IPv6
 * address, all of type RoCE v2 ({@code IB_GID_TYPE_ROCE_UDP_ENCAP}) — kept up to date like
 * {@code mlx4_ib_netdev_event()}/the inet address notifiers, and the L2 resolution of a
 * destination GID done at create-AH and modify-QP-to-RTR ({@code create_iboe_ah()} in ah.c,
 * {@code ib_resolve_eth_dmac()}) through the segment's ARP / neighbour discovery.
 */
final class RoceGids {
    /** Real-time bound on a neighbour resolution that did not complete at once. */
    private static final long RESOLVE_WAIT_MS = 3500;
    private final Mlx4Port port;
    private final EthernetPort eth;
    private volatile GidEntry[] table = new GidEntry[0];

    RoceGids(Mlx4Port port, EthernetPort eth) {
        this.port = port;
        this.eth = eth;
    }

    /** Gives the netdev its configured addresses and builds the table. */
    void open() {
        InetAddress ll = eth.macAddress().linkLocalIpv6();
        if (!eth.ipAddresses().contains(ll)) {
            eth.addIpAddress(ll);
        }
        for (String a : port.params.ipAddresses) {
            InetAddress ip = parse(a);
            if (!eth.ipAddresses().contains(ip)) {
                eth.addIpAddress(ip);
            }
        }
        rebuild(false);
    }

    /** Forgets the table. */
    void close() {
        table = new GidEntry[0];
    }

    /** The netdev name of the port ({@code ib_device_set_netdev()}). */
    String netdev() {
        String n = port.params.netdev;
        return n == null || n.isEmpty() ? "eth" + port.num : n;
    }

    /** {@code ip addr add} on the netdev: the GID table follows (GID_CHANGE). */
    void addAddress(InetAddress ip) {
        if (!eth.ipAddresses().contains(ip)) {
            eth.addIpAddress(ip);
        }
        rebuild(true);
    }

    /** {@code ip addr del} on the netdev: the GID table follows (GID_CHANGE). */
    void removeAddress(InetAddress ip) {
        eth.removeIpAddress(ip);
        rebuild(true);
    }

    /** Recomputes the table from the netdev ({@code mlx4_ib_update_gids()}). */
    void rebuild(boolean notify) {
        List<GidEntry> t = new ArrayList<>();
        String nd = netdev();
        Gid ll = Gid.linkLocal(eth.macAddress().toEui64());
        t.add(new GidEntry(ll, GidType.ROCE_UDP_ENCAP, nd));
        for (InetAddress ip : eth.ipAddresses()) {
            Gid g = Gid.fromIp(ip);
            if (!g.equals(ll)) {
                t.add(new GidEntry(g, GidType.ROCE_UDP_ENCAP, nd));
            }
        }
        GidEntry[] n = t.toArray(new GidEntry[0]);
        GidEntry[] old = table;
        table = n;
        if (notify && !sameGids(old, n)) {
            port.dev.refreshPort(port.num);
            port.dev.dispatch(IbEventType.GID_CHANGE, port.num);
        }
    }

    private static boolean sameGids(GidEntry[] a, GidEntry[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!a[i].gid.equals(b[i].gid)) {
                return false;
            }
        }
        return true;
    }

    /** @return the table slot, or {@code null} */
    GidEntry entry(int index) {
        GidEntry[] t = table;
        return index >= 0 && index < t.length ? t[index] : null;
    }

    /** @return whether {@code gid} is one of this port's GIDs */
    boolean isOwn(long hi, long lo) {
        for (GidEntry e : table) {
            if (e.gid.subnetPrefix() == hi && e.gid.interfaceId() == lo) {
                return true;
            }
        }
        return false;
    }

    /** @return the port's MAC address */
    MacAddress mac() {
        return eth.macAddress();
    }

    /**
     * Resolves the destination MAC of a RoCE address vector ({@code create_iboe_ah()},
     * {@code ib_resolve_eth_dmac()}): multicast GIDs map directly, our own GIDs to our MAC, the
     * rest through ARP / neighbour solicitation on the segment.
     *
     * @throws RdmaException EINVAL without a GRH, EHOSTUNREACH when the neighbour does not answer
     */
    void resolve(AhAttr attr) {
        if (!attr.hasGrh()) {
            throw new RdmaException(Errno.EINVAL, "a RoCE address needs a GRH");
        }
        attr.type = AhAttrType.ROCE;
        Gid dgid = attr.grh.dgid;
        MacAddress mac;
        if (isOwn(dgid.subnetPrefix(), dgid.interfaceId())) {
            mac = eth.macAddress();
        } else {
            InetAddress ip = dgid.toInetAddress();
            CompletableFuture<MacAddress> f = eth.resolve(ip).toCompletableFuture();
            try {
                if (f.isDone() || port.dev.clock() instanceof VirtualClock) {
                    mac = f.getNow(null);
                } else {
                    mac = f.get(RESOLVE_WAIT_MS, TimeUnit.MILLISECONDS);
                }
            } catch (ExecutionException | java.util.concurrent.CompletionException e) {
                Throwable c = e.getCause();
                throw c instanceof RdmaException ? (RdmaException) c
                        : new RdmaException(Errno.EHOSTUNREACH, "cannot resolve " + ip.getHostAddress());
            } catch (TimeoutException e) {
                mac = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                mac = null;
            }
            if (mac == null) {
                throw new RdmaException(Errno.EHOSTUNREACH, "no neighbour answers for " + ip.getHostAddress());
            }
        }
        mac.writeTo(attr.dmac, 0);
    }

    static InetAddress parse(String a) {
        try {
            return InetAddress.getByName(a.trim());
        } catch (UnknownHostException e) {
            throw new RdmaException(Errno.EINVAL, "not an IP address: " + a);
        }
    }

    @Override
    public String toString() {
        return Arrays.toString(table);
    }
}
