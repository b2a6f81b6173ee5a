package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.cm.internal.ib.IbCmComponent;
import org.rdma.cm.internal.rdma.RdmaCmComponent;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.Gid;

/**
 * The RDMA CM on a test network in virtual time: the SM test kit's two hosts on an InfiniBand
 * subnet ({@code h0}, {@code h1} on switch {@code S0}, addressed by GID) or on a RoCE segment
 * ({@code ha} 192.168.7.1 / fd00::7:1, {@code hb} 192.168.7.2 / fd00::7:2), with the IB CM and
 * the RDMA CM as clients of every device.
 */
final class CmaNet implements AutoCloseable {
    final SmNet net;
    final IbCmComponent ibcm;
    final RdmaCmComponent cm;
    final String a;
    final String b;
    private final boolean roce;
    private final Map<String, Integer> baseline = new LinkedHashMap<>();

    private CmaNet(SmNet net, String a, String b, boolean roce) {
        this.net = net;
        this.a = a;
        this.b = b;
        this.roce = roce;
        ibcm = new IbCmComponent(net.clock, net.pump, net.mad, net.sa);
        net.addClient(ibcm);
        cm = new RdmaCmComponent(net.clock, net.pump, ibcm, net.sa);
        net.addClient(cm);
        for (String h : net.devs.keySet()) {
            baseline.put(h, tracked(net.dev(h)));
        }
    }

    /** Two CAs on one switch, subnet up. */
    static CmaNet ib() {
        return new CmaNet(new SmNet(SmNet.ring(1, 2), 0).up(), "h0", "h1", false);
    }

    /** Two RoCE HCAs on one segment with IPv4 and global IPv6 addresses. */
    static CmaNet roce() {
        SmNet n = SmNet.roce("ha", "hb");
        n.hcas.get(0).addIpAddress(1, "fd00::7:1");
        n.hcas.get(1).addIpAddress(1, "fd00::7:2");
        n.settle();
        return new CmaNet(n, "ha", "hb", true);
    }

    boolean isRoce() {
        return roce;
    }

    CoreDevice dev(String host) {
        return net.dev(host);
    }

    /** The port GID of an InfiniBand host. */
    Gid gid(String host) {
        return dev(host).queryGid(1, 0);
    }

    /** A RoCE host's IPv4 address. */
    InetAddress ip4(String host) {
        return inet(net.ip(host));
    }

    /** A RoCE host's global IPv6 address. */
    InetAddress ip6(String host) {
        return inet("fd00::7:" + (host.equals(a) ? 1 : 2));
    }

    static InetAddress inet(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** The host's address for {@code port}: IPv4 (or IPv6 with {@code v6}) on RoCE, the GID on InfiniBand. */
    SocketAddress addr(String host, int port, boolean v6) {
        if (!roce) {
            return IbSocketAddress.of(gid(host), RdmaPortSpace.TCP, port);
        }
        return new InetSocketAddress(v6 ? ip6(host) : ip4(host), port);
    }

    SocketAddress addr(String host, int port) {
        return addr(host, port, false);
    }

    /** The wildcard address of the network's family. */
    SocketAddress any(int port) {
        if (!roce) {
            return IbSocketAddress.of(Gid.ZERO, RdmaPortSpace.TCP, port);
        }
        return new InetSocketAddress(inet("0.0.0.0"), port);
    }

    void settle() {
        net.settle();
    }

    void advance(long ms) {
        net.advance(ms);
    }

    /**
     * Nothing of the CMs is left: no RDMA CM id, port or group, no IB CM id (timewait is waited
     * out first) or remote-table entry, and each device tracks what it tracked before the test
     * (the MAD layer's own objects aside: it caches an address handle to the SM as it pleases).
     */
    void assertNoLeaks() {
        advance(60_000);
        assertEquals(0, cm.idsInUse(), "RDMA CM ids left: " + cm.ids());
        assertEquals(0, cm.portsInUse(), "RDMA CM ports left");
        assertEquals(0, cm.groupsJoined(), "multicast groups left");
        assertEquals(0, ibcm.localIdsInUse(), "IB CM ids left: " + ibcm.cmIds());
        assertEquals(0, ibcm.remoteTableEntries(), "IB CM table entries left");
        for (Map.Entry<String, Integer> e : baseline.entrySet()) {
            CoreDevice d = net.dev(e.getKey());
            if (d != null) {
                assertEquals(e.getValue(), tracked(d), e.getKey() + " tracks " + d.restrack().counts()
                        + ": " + d.restrack().dtos(null).stream().map(r -> r.type + "/" + r.owner + r.attrs).toList());
            }
        }
    }

    /** Objects the device tracks for others than the MAD layer. */
    static int tracked(CoreDevice d) {
        return (int) d.restrack().dtos(null).stream().filter(r -> !"ib_mad".equals(r.owner)).count();
    }

    @Override
    public void close() {
        net.close();
    }
}
