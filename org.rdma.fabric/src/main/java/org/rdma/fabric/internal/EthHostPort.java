package org.rdma.fabric.internal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.MacAddress;
import org.rdma.fabric.Packet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.EthHeader;
import org.rdma.verbs.wire.Ipv4Header;

/**
 * The Ethernet port of a RoCE NIC together with the piece of the host stack the RDMA address
 * code relies on: the NIC's receive filter (own MAC, broadcast, multicast), ARP (RFC 826) and
 * IPv6 neighbour discovery (RFC 4861 NS/NA) for the interface's addresses, and a neighbour cache
 * with the Linux retry policy (three solicitations one second apart: {@code mcast_solicit} and
 * {@code retrans_time}). Frames that are neither ARP nor ND go to the driver's sink.
 *
 * <p>The neighbour state is guarded by {@link #stackLock}; frames are sent and futures completed
 * after it is released.
 */
final class EthHostPort extends PortImpl implements EthernetPort {
    /** ETH_P_ARP. */
    static final int ETH_P_ARP = 0x0806;
    /** IPPROTO_ICMPV6. */
    static final int IPPROTO_ICMPV6 = 58;
    /** ND_NEIGHBOR_SOLICIT. */
    static final int ND_NEIGHBOR_SOLICIT = 135;
    /** ND_NEIGHBOR_ADVERT. */
    static final int ND_NEIGHBOR_ADVERT = 136;
    /** Solicitations sent before giving up ({@code mcast_solicit}, MAX_MULTICAST_SOLICIT). */
    static final int MAX_SOLICIT = 3;
    /** Time between solicitations ({@code retrans_time}, RETRANS_TIMER): one second. */
    static final long RETRANS_NANOS = TimeUnit.SECONDS.toNanos(1);

    private volatile MacAddress mac;
    private final List<InetAddress> ips = new CopyOnWriteArrayList<>();
    private final Map<InetAddress, MacAddress> cache = new ConcurrentHashMap<>();
    private final Object stackLock = new Object();
    private final Map<InetAddress, Resolution> pending = new HashMap<>();

    /** One address being resolved ({@code struct neighbour} in NUD_INCOMPLETE). */
    private static final class Resolution {
        final InetAddress address;
        final List<CompletableFuture<MacAddress>> waiters = new ArrayList<>();
        int probes;
        IbClock.Timer timer;

        Resolution(InetAddress address) {
            this.address = address;
        }
    }

    EthHostPort(FabricImpl fabric, NodeImpl node, int portNum, long portGuid) {
        super(fabric, node, portNum, portGuid, LinkLayer.ETHERNET);
        this.mac = MacAddress.fromEui64(portGuid);
    }

    // ------------------------------------------------------------------ EthernetPort

    @Override
    public MacAddress macAddress() {
        return mac;
    }

    @Override
    public void setMacAddress(MacAddress mac) {
        if (mac.isMulticast() || mac.value() == 0) {
            throw new RdmaException(Errno.EADDRNOTAVAIL, mac + " is not a unicast address");
        }
        this.mac = mac;
    }

    @Override
    public List<InetAddress> ipAddresses() {
        return Collections.unmodifiableList(new ArrayList<>(ips));
    }

    @Override
    public void addIpAddress(InetAddress address) {
        if (!ips.contains(address)) {
            ips.add(address);
        }
    }

    @Override
    public boolean removeIpAddress(InetAddress address) {
        return ips.remove(address);
    }

    @Override
    public Map<InetAddress, MacAddress> neighbours() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(cache));
    }

    @Override
    public void flushNeighbours() {
        cache.clear();
    }

    @Override
    public CompletionStage<MacAddress> resolve(InetAddress address) {
        MacAddress direct = directMapping(address);
        if (direct != null) {
            return CompletableFuture.completedFuture(direct);
        }
        MacAddress cached = cache.get(address);
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        InetAddress source = sourceFor(address);
        if (source == null) {
            return CompletableFuture.failedFuture(new RdmaException(Errno.ENETUNREACH, "port " + this + " has no "
                    + (address instanceof Inet4Address ? "IPv4" : "IPv6") + " address to resolve " + address.getHostAddress()));
        }
        CompletableFuture<MacAddress> f = new CompletableFuture<>();
        Resolution start = null;
        synchronized (stackLock) {
            Resolution r = pending.get(address);
            if (r == null) {
                r = new Resolution(address);
                pending.put(address, r);
                start = r;
            }
            r.waiters.add(f);
        }
        if (start != null) {
            solicit(start);
        }
        return f;
    }

    /**
     * Addresses that map to a MAC without an exchange: our own, broadcast and multicast
     * ({@code ip_eth_mc_map()}, {@code ipv6_eth_mc_map()}), and EUI-64 link-local IPv6
     * ({@code rdma_get_ll_mac()}).
     */
    private MacAddress directMapping(InetAddress a) {
        if (ips.contains(a)) {
            return mac;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            if ((b[0] & 0xFF) == 255 && (b[1] & 0xFF) == 255 && (b[2] & 0xFF) == 255 && (b[3] & 0xFF) == 255) {
                return MacAddress.BROADCAST;
            }
            if ((b[0] & 0xF0) == 0xE0) {
                return MacAddress.of(0x01005E000000L | ((b[1] & 0x7FL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL));
            }
            return null;
        }
        if ((b[0] & 0xFF) == 0xFF) {
            return MacAddress.of(0x333300000000L | ((b[12] & 0xFFL) << 24) | ((b[13] & 0xFFL) << 16)
                    | ((b[14] & 0xFFL) << 8) | (b[15] & 0xFFL));
        }
        if ((b[0] & 0xFF) == 0xFE && (b[1] & 0xC0) == 0x80 && (b[11] & 0xFF) == 0xFF && (b[12] & 0xFF) == 0xFE) {
            long id = 0;
            for (int i = 8; i < 16; i++) {
                id = id << 8 | (b[i] & 0xFF);
            }
            return MacAddress.fromEui64(id);
        }
        return null;
    }

    /** Source address selection: the first address of the family; for IPv6 the link-local one first. */
    private InetAddress sourceFor(InetAddress target) {
        InetAddress first = null;
        for (InetAddress a : ips) {
            if (a instanceof Inet4Address && target instanceof Inet4Address) {
                return a;
            }
            if (a instanceof Inet6Address && target instanceof Inet6Address) {
                if (a.isLinkLocalAddress()) {
                    return a;
                }
                if (first == null) {
                    first = a;
                }
            }
        }
        return first;
    }

    private void solicit(Resolution r) {
        InetAddress source = sourceFor(r.address);
        synchronized (stackLock) {
            if (pending.get(r.address) != r) {
                return;
            }
            r.probes++;
            r.timer = fabric.clock().schedule(() -> retransmit(r), RETRANS_NANOS, TimeUnit.NANOSECONDS);
        }
        if (source == null) {
            return;
        }
        if (r.address instanceof Inet4Address) {
            sendArp(1, MacAddress.BROADCAST, MacAddress.ZERO, source, r.address);
        } else {
            sendNeighbourSolicitation(source, r.address);
        }
    }

    private void retransmit(Resolution r) {
        List<CompletableFuture<MacAddress>> fail = null;
        synchronized (stackLock) {
            if (pending.get(r.address) != r) {
                return;
            }
            if (r.probes >= MAX_SOLICIT) {
                pending.remove(r.address);
                fail = new ArrayList<>(r.waiters);
            }
        }
        if (fail == null) {
            solicit(r);
            return;
        }
        RdmaException e = new RdmaException(Errno.EHOSTUNREACH, "no answer from " + r.address.getHostAddress() + " on "
                + this + " after " + MAX_SOLICIT + " " + (r.address instanceof Inet4Address ? "ARP requests" : "neighbour solicitations"));
        for (CompletableFuture<MacAddress> f : fail) {
            f.completeExceptionally(e);
        }
    }

    /** A neighbour answered (or told us its address): update the cache, finish pending resolutions. */
    private void learn(InetAddress ip, MacAddress m, boolean create) {
        List<CompletableFuture<MacAddress>> done = null;
        synchronized (stackLock) {
            Resolution r = pending.remove(ip);
            if (r != null) {
                if (r.timer != null) {
                    r.timer.cancel();
                }
                done = r.waiters;
            }
            if (r != null || create || cache.containsKey(ip)) {
                cache.put(ip, m);
            }
        }
        if (done != null) {
            for (CompletableFuture<MacAddress> f : done) {
                f.complete(m);
            }
        }
    }

    // ------------------------------------------------------------------ receive

    @Override
    void deliverToSink(Packet p) {
        long dst = p.destMac();
        if (dst != mac.value() && (dst & 0x0100_0000_0000L) == 0) {
            // The NIC's unicast filter: not for us.
            p.release();
            return;
        }
        int type = p.etherType();
        if (type == ETH_P_ARP) {
            try {
                handleArp(p);
            } finally {
                p.release();
            }
            return;
        }
        if (type == EthHeader.ETH_P_IPV6 && isNeighbourDiscovery(p)) {
            try {
                handleNd(p);
            } finally {
                p.release();
            }
            return;
        }
        super.deliverToSink(p);
    }

    private static boolean isNeighbourDiscovery(Packet p) {
        int l3 = p.l3Offset();
        int len = p.headerLength + p.payloadLength;
        if (len < l3 + 41 || p.byteAt(l3 + 6) != IPPROTO_ICMPV6) {
            return false;
        }
        int icmpType = p.byteAt(l3 + 40);
        return icmpType == ND_NEIGHBOR_SOLICIT || icmpType == ND_NEIGHBOR_ADVERT;
    }

    private static byte[] bytesOf(Packet p) {
        byte[] f = new byte[p.headerLength + p.payloadLength];
        p.readBytes(0, f, 0, f.length);
        return f;
    }

    private void handleArp(Packet p) {
        byte[] f = bytesOf(p);
        int a = p.l3Offset();
        if (f.length < a + 28 || u16(f, a) != 1 || u16(f, a + 2) != EthHeader.ETH_P_IP || f[a + 4] != 6 || f[a + 5] != 4) {
            return;
        }
        int op = u16(f, a + 6);
        MacAddress sha = MacAddress.of(f, a + 8);
        InetAddress spa = inet(Arrays.copyOfRange(f, a + 14, a + 18));
        InetAddress tpa = inet(Arrays.copyOfRange(f, a + 24, a + 28));
        boolean forUs = ips.contains(tpa);
        if (!sha.isMulticast() && sha.value() != 0 && !isZero(spa)) {
            // RFC 826: merge the sender; Linux creates the entry when the request is for us.
            learn(spa, sha, forUs);
        }
        if (op == 1 && forUs) {
            sendArp(2, sha, sha, tpa, spa);
        }
    }

    private void handleNd(Packet p) {
        byte[] f = bytesOf(p);
        int ip = p.l3Offset();
        int icmp = ip + 40;
        int icmpLen = u16(f, ip + 4);
        if ((f[ip + 7] & 0xFF) != 255 || icmpLen < 24 || f.length < icmp + icmpLen) {
            return; // RFC 4861 7.1.1: hop limit 255, long enough
        }
        if (icmpChecksum(f, ip, icmpLen) != 0) {
            return;
        }
        int type = f[icmp] & 0xFF;
        InetAddress src = inet(Arrays.copyOfRange(f, ip + 8, ip + 24));
        InetAddress target = inet(Arrays.copyOfRange(f, icmp + 8, icmp + 24));
        MacAddress lla = null;
        for (int o = icmp + 24; o + 8 <= icmp + icmpLen; ) {
            int optType = f[o] & 0xFF;
            int optLen = (f[o + 1] & 0xFF) * 8;
            if (optLen == 0) {
                return;
            }
            if (optType == (type == ND_NEIGHBOR_SOLICIT ? 1 : 2) && optLen >= 8) {
                lla = MacAddress.of(f, o + 2);
            }
            o += optLen;
        }
        if (type == ND_NEIGHBOR_SOLICIT) {
            boolean forUs = ips.contains(target);
            boolean dad = isZero(src);
            if (lla != null && !dad) {
                learn(src, lla, forUs);
            }
            if (forUs) {
                MacAddress to = lla != null ? lla : MacAddress.of(f, 6);
                sendNeighbourAdvertisement(target, dad ? allNodes() : src, to, !dad);
            }
        } else {
            learn(target, lla != null ? lla : MacAddress.of(f, 6), false);
        }
    }

    // ------------------------------------------------------------------ transmit

    /** An ARP frame (RFC 826): Ethernet + 28 bytes, padded to 60 by the NIC. */
    private void sendArp(int op, MacAddress ethDst, MacAddress tha, InetAddress spa, InetAddress tpa) {
        Packet p = allocPacket();
        byte[] h = p.header;
        ethDst.writeTo(h, 0);
        mac.writeTo(h, 6);
        put16(h, 12, ETH_P_ARP);
        put16(h, 14, 1);
        put16(h, 16, EthHeader.ETH_P_IP);
        h[18] = 6;
        h[19] = 4;
        put16(h, 20, op);
        mac.writeTo(h, 22);
        System.arraycopy(spa.getAddress(), 0, h, 28, 4);
        tha.writeTo(h, 32);
        System.arraycopy(tpa.getAddress(), 0, h, 38, 4);
        p.headerLength = 42;
        send(p);
    }

    /** A neighbour solicitation to the target's solicited-node multicast address (RFC 4861 4.3, 7.2.2). */
    private void sendNeighbourSolicitation(InetAddress source, InetAddress target) {
        byte[] t = target.getAddress();
        byte[] dst = new byte[16];
        dst[0] = (byte) 0xFF;
        dst[1] = 0x02;
        dst[11] = 1;
        dst[12] = (byte) 0xFF;
        dst[13] = t[13];
        dst[14] = t[14];
        dst[15] = t[15];
        MacAddress ethDst = MacAddress.of(0x3333FF000000L | ((t[13] & 0xFFL) << 16) | ((t[14] & 0xFFL) << 8) | (t[15] & 0xFFL));
        sendNd(ND_NEIGHBOR_SOLICIT, 0, source.getAddress(), dst, ethDst, t, 1);
    }

    /** A solicited neighbour advertisement (RFC 4861 4.4, 7.2.4): S and O set, target link-layer address option. */
    private void sendNeighbourAdvertisement(InetAddress target, InetAddress to, MacAddress ethDst, boolean solicited) {
        int flags = (solicited ? 0x40 : 0) | 0x20;
        sendNd(ND_NEIGHBOR_ADVERT, flags, target.getAddress(), to.getAddress(), ethDst, target.getAddress(), 2);
    }

    private void sendNd(int type, int flags, byte[] src, byte[] dst, MacAddress ethDst, byte[] target, int optType) {
        Packet p = allocPacket();
        byte[] h = p.header;
        int icmpLen = 32;
        ethDst.writeTo(h, 0);
        mac.writeTo(h, 6);
        put16(h, 12, EthHeader.ETH_P_IPV6);
        int ip = 14;
        h[ip] = 0x60;
        h[ip + 1] = 0;
        h[ip + 2] = 0;
        h[ip + 3] = 0;
        put16(h, ip + 4, icmpLen);
        h[ip + 6] = (byte) IPPROTO_ICMPV6;
        h[ip + 7] = (byte) 255;
        System.arraycopy(src, 0, h, ip + 8, 16);
        System.arraycopy(dst, 0, h, ip + 24, 16);
        int icmp = ip + 40;
        h[icmp] = (byte) type;
        h[icmp + 1] = 0;
        h[icmp + 2] = 0;
        h[icmp + 3] = 0;
        h[icmp + 4] = (byte) flags;
        h[icmp + 5] = 0;
        h[icmp + 6] = 0;
        h[icmp + 7] = 0;
        System.arraycopy(target, 0, h, icmp + 8, 16);
        h[icmp + 24] = (byte) optType;
        h[icmp + 25] = 1;
        mac.writeTo(h, icmp + 26);
        put16(h, icmp + 2, icmpChecksum(h, ip, icmpLen));
        p.headerLength = icmp + icmpLen;
        send(p);
    }

    /** RFC 4443 2.3: the Internet checksum over the IPv6 pseudo-header and the ICMPv6 message. */
    static int icmpChecksum(byte[] f, int ip, int icmpLen) {
        byte[] b = new byte[40 + icmpLen];
        System.arraycopy(f, ip + 8, b, 0, 32);
        b[32] = (byte) (icmpLen >>> 24);
        b[33] = (byte) (icmpLen >>> 16);
        b[34] = (byte) (icmpLen >>> 8);
        b[35] = (byte) icmpLen;
        b[39] = (byte) IPPROTO_ICMPV6;
        System.arraycopy(f, ip + 40, b, 40, icmpLen);
        return Ipv4Header.internetChecksum(b, 0, b.length);
    }

    private static InetAddress allNodes() {
        byte[] a = new byte[16];
        a[0] = (byte) 0xFF;
        a[1] = 0x02;
        a[15] = 1;
        return inet(a);
    }

    private static InetAddress inet(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static boolean isZero(InetAddress a) {
        for (byte b : a.getAddress()) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    private static void put16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    /** The driver went away: forget the stack's state. */
    void reset() {
        List<Resolution> rs;
        synchronized (stackLock) {
            rs = new ArrayList<>(pending.values());
            pending.clear();
        }
        for (Resolution r : rs) {
            if (r.timer != null) {
                r.timer.cancel();
            }
            for (CompletableFuture<MacAddress> f : r.waiters) {
                f.completeExceptionally(new RdmaException(Errno.ENETUNREACH, "port " + this + " went away"));
            }
        }
        cache.clear();
        ips.clear();
        mac = MacAddress.fromEui64(portGuid);
    }
}
