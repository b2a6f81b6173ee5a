package org.rdma.hca.rxe.internal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.GidEntry;

/**
 * What the driver knows of its netdev, read through {@link NetworkInterface} (the roles of
 * {@code roce_gid_mgmt.c} and the netdev notifiers of {@code rxe_net.c}): the MAC, MTU, up state
 * and the GID table — index 0 the default GID {@code fe80::EUI-64(MAC)}, then each IPv4 address as
 * {@code ::ffff:a.b.c.d}, then each IPv6 address (link-local ones other than the default GID,
 * global, loopback), all of type RoCE v2. An immutable {@link Snapshot}; {@link #read()} makes a
 * new one and the device compares them on each poll.
 */
final class RxeGids {
    /** GID table length reported in the port attributes. */
    static final int TABLE_LEN = 64;

    /** One reading of the interface. */
    static final class Snapshot {
        final GidEntry[] entries;
        /** The IP address behind each entry ({@code null} for the default GID when not assigned). */
        final InetAddress[] addresses;
        final byte[] mac;
        final int mtu;
        final boolean up;

        Snapshot(GidEntry[] entries, InetAddress[] addresses, byte[] mac, int mtu, boolean up) {
            this.entries = entries;
            this.addresses = addresses;
            this.mac = mac;
            this.mtu = mtu;
            this.up = up;
        }

        GidEntry entry(int index) {
            return index >= 0 && index < entries.length ? entries[index] : null;
        }

        InetAddress address(int index) {
            return index >= 0 && index < addresses.length ? addresses[index] : null;
        }

        /** @return whether the GIDs, MTU or state differ from {@code o} */
        boolean differs(Snapshot o) {
            if (o == null || o.mtu != mtu || o.up != up || o.entries.length != entries.length) {
                return true;
            }
            for (int i = 0; i < entries.length; i++) {
                if (!entries[i].gid.equals(o.entries[i].gid)) {
                    return true;
                }
            }
            return false;
        }

        /** @return whether only the GIDs stayed the same */
        boolean sameGids(Snapshot o) {
            if (o == null || o.entries.length != entries.length) {
                return false;
            }
            for (int i = 0; i < entries.length; i++) {
                if (!entries[i].gid.equals(o.entries[i].gid)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final String netdev;
    private final int udpPort;

    RxeGids(String netdev, int udpPort) {
        this.netdev = netdev;
        this.udpPort = udpPort;
    }

    /**
     * Reads the interface now.
     *
     * @throws RdmaException ENODEV if the interface does not exist
     */
    Snapshot read() {
        NetworkInterface ni;
        byte[] mac;
        int mtu;
        boolean up;
        List<InetAddress> addrs;
        try {
            ni = NetworkInterface.getByName(netdev);
            if (ni == null) {
                throw new RdmaException(Errno.ENODEV, "no network interface " + netdev);
            }
            mac = ni.getHardwareAddress();
            mtu = ni.getMTU();
            up = ni.isUp();
            addrs = Collections.list(ni.getInetAddresses());
        } catch (SocketException e) {
            throw new RdmaException(Errno.ENODEV, "cannot read " + netdev + ": " + e.getMessage());
        }
        if (mac == null || mac.length != 6 || isZero(mac)) {
            mac = RxeWire.syntheticMac(netdev, udpPort);
        }
        List<GidEntry> gids = new ArrayList<>();
        List<InetAddress> ips = new ArrayList<>();
        Gid dflt = Gid.linkLocal(RxeWire.eui64(mac));
        gids.add(new GidEntry(dflt, GidType.ROCE_UDP_ENCAP, netdev));
        ips.add(null);
        for (InetAddress a : addrs) {
            if (a instanceof Inet4Address) {
                gids.add(new GidEntry(Gid.fromIp(a), GidType.ROCE_UDP_ENCAP, netdev));
                ips.add(a);
            }
        }
        for (InetAddress a : addrs) {
            if (a instanceof Inet6Address) {
                Gid g = Gid.fromIp(a);
                if (g.equals(dflt)) {
                    ips.set(0, a);
                } else {
                    gids.add(new GidEntry(g, GidType.ROCE_UDP_ENCAP, netdev));
                    ips.add(a);
                }
            }
        }
        return new Snapshot(gids.toArray(new GidEntry[0]), ips.toArray(new InetAddress[0]), mac, mtu, up);
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
