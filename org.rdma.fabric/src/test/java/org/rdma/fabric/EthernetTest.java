package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** A RoCE segment: MAC learning and flooding, ARP and IPv6 neighbour discovery, RoCEv2 frames. */
class EthernetTest {
    private final VirtualClock clock = new VirtualClock();
    private Fabric f;
    private EthernetSegment seg;
    private EthernetPort a;
    private EthernetPort b;
    private EthernetPort c;
    private final Pkts.Collector atA = new Pkts.Collector();
    private final Pkts.Collector atB = new Pkts.Collector();
    private final Pkts.Collector atC = new Pkts.Collector();

    @BeforeEach
    void setUp() throws Exception {
        Topology t = Topology.builder()
                .addCa("hostA", 1, 0x0002c90300aa0000L)
                .addCa("hostB", 1, 0x0002c90300bb0000L)
                .addCa("hostC", 1, 0x0002c90300cc0000L)
                .addEthernet("roce0", 4)
                .link("hostA", 1, "roce0", 1)
                .link("hostB", 1, "roce0", 2)
                .link("hostC", 1, "roce0", 3)
                .build();
        f = Fabrics.create("eth", t, clock, 1);
        a = attach("hostA", atA, "192.168.1.1");
        b = attach("hostB", atB, "192.168.1.2");
        c = attach("hostC", atC, "192.168.1.3");
        c.addIpAddress(InetAddress.getByName("2001:db8::3"));
        a.addIpAddress(a.macAddress().linkLocalIpv6());
        seg = f.ethernetSegment("roce0");
    }

    private EthernetPort attach(String name, PacketSink sink, String ip) throws Exception {
        FabricNode n = f.attach(name);
        EthernetPort p = (EthernetPort) n.port(1);
        assertEquals(LinkLayer.ETHERNET, p.linkLayer());
        assertEquals(PortState.ACTIVE, p.portState(), "an Ethernet port is Active when its link is up");
        p.setSink(sink);
        p.addIpAddress(InetAddress.getByName(ip));
        return p;
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    @Test
    void macAddressesComeFromThePortGuid() {
        assertEquals("02:02:c9:aa:00:01", a.macAddress().toString());
        assertEquals(3, seg.hostPorts().size());
        assertSame(seg, f.ethernetSegment("roce0"));
    }

    @Test
    void arpResolvesSynchronouslyOnTheSegment() throws Exception {
        CompletableFuture<MacAddress> mac = a.resolve(InetAddress.getByName("192.168.1.2")).toCompletableFuture();
        assertTrue(mac.isDone(), "delivery is synchronous, so the reply is already in");
        assertEquals(b.macAddress(), mac.get());
        assertEquals(b.macAddress(), a.neighbours().get(InetAddress.getByName("192.168.1.2")));
        assertEquals(a.macAddress(), b.neighbours().get(InetAddress.getByName("192.168.1.1")),
                "the target learns the requester (the request was for it)");
        assertTrue(c.neighbours().isEmpty(), "a bystander does not create an entry");
        assertEquals(0, atA.size() + atB.size() + atC.size(), "ARP never reaches the drivers");
        // The bridge flooded the broadcast request to B and C, and learned both stations.
        assertEquals(1, c.counters().portRcvPkts());
        assertEquals(1, c.counters().portMulticastRcvPkts());
        assertEquals(2, seg.macTable().size());
        assertEquals(seg.port(1), seg.macTable().get(a.macAddress()));
        assertEquals(seg.port(2), seg.macTable().get(b.macAddress()));
        // Cached now: no new frame.
        long sent = a.counters().portXmitPkts();
        assertEquals(b.macAddress(), a.resolve(InetAddress.getByName("192.168.1.2")).toCompletableFuture().get());
        assertEquals(sent, a.counters().portXmitPkts());
    }

    @Test
    void neighbourDiscoveryResolvesIpv6() throws Exception {
        InetAddress target = InetAddress.getByName("2001:db8::3");
        CompletableFuture<MacAddress> mac = a.resolve(target).toCompletableFuture();
        assertTrue(mac.isDone());
        assertEquals(c.macAddress(), mac.get());
        assertEquals(a.macAddress(), c.neighbours().get(a.macAddress().linkLocalIpv6()));
        assertEquals(0, b.counters().portRcvPkts() - b.counters().portMulticastRcvPkts(),
                "B only saw the multicast solicitation");
    }

    @Test
    void eui64LinkLocalAddressesNeedNoExchange() throws Exception {
        long before = a.counters().portXmitPkts();
        MacAddress mac = a.resolve(b.macAddress().linkLocalIpv6()).toCompletableFuture().get();
        assertEquals(b.macAddress(), mac);
        assertEquals(before, a.counters().portXmitPkts());
        assertEquals(MacAddress.BROADCAST, a.resolve(InetAddress.getByName("255.255.255.255")).toCompletableFuture().get());
        assertEquals("01:00:5e:01:02:03", a.resolve(InetAddress.getByName("239.129.2.3")).toCompletableFuture().get()
                .toString());
        assertEquals("33:33:00:00:00:fb", a.resolve(InetAddress.getByName("ff02::fb")).toCompletableFuture().get()
                .toString());
        assertEquals(a.macAddress(), a.resolve(InetAddress.getByName("192.168.1.1")).toCompletableFuture().get());
    }

    @Test
    void resolutionFailsAfterThreeSolicitationsInVirtualTime() throws Exception {
        CompletableFuture<MacAddress> mac = a.resolve(InetAddress.getByName("192.168.1.99")).toCompletableFuture();
        assertEquals(1, a.counters().portXmitPkts());
        clock.advance(999, TimeUnit.MILLISECONDS);
        assertEquals(1, a.counters().portXmitPkts());
        clock.advance(1, TimeUnit.MILLISECONDS);
        assertEquals(2, a.counters().portXmitPkts());
        clock.advance(1, TimeUnit.SECONDS);
        assertEquals(3, a.counters().portXmitPkts());
        assertTrue(!mac.isDone());
        clock.advance(1, TimeUnit.SECONDS);
        assertTrue(mac.isCompletedExceptionally());
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, mac::get);
        RdmaException cause = assertInstanceOf(RdmaException.class, e.getCause());
        assertEquals(Errno.EHOSTUNREACH, cause.errno());
        // Without an address of the family there is nothing to send from.
        RdmaException none = assertInstanceOf(RdmaException.class, org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> b.resolve(InetAddress.getByName("fd00::9")).toCompletableFuture().get())
                .getCause());
        assertEquals(Errno.ENETUNREACH, none.errno());
    }

    @Test
    void roceFramesGoOnlyWhereTheBridgeLearnedTheDestination() throws Exception {
        InetAddress ipA = InetAddress.getByName("192.168.1.1");
        InetAddress ipB = InetAddress.getByName("192.168.1.2");
        MacAddress macB = a.resolve(ipB).toCompletableFuture().get();
        long cBefore = c.counters().portRcvPkts();
        ByteBuffer mr = ByteBuffer.wrap("hello, roce".getBytes());
        a.transmit(Pkts.roce(a, macB, ipA, ipB, 0x12, 7, mr, 0, mr.capacity()));
        assertEquals(1, atB.size());
        Packet p = atB.get(0);
        assertTrue(p.isRoce());
        int bth = p.bthOffset();
        assertEquals(14 + 20 + 8, bth);
        assertEquals(0x12, p.destQpn(bth));
        assertEquals(7, p.psn(bth));
        assertEquals(cBefore, c.counters().portRcvPkts(), "learned unicast is not flooded");
        // Unknown unicast is flooded, and the other NICs' filters drop it.
        a.transmit(Pkts.roce(a, MacAddress.parse("02:99:99:99:99:99"), ipA, ipB, 0x12, 8, mr, 0, mr.capacity()));
        assertEquals(1, atB.size());
        assertEquals(0, atC.size());
        assertEquals(cBefore + 1, c.counters().portRcvPkts());
        // IPv6 RoCEv2 from C to A's link-local GID.
        InetAddress llA = a.macAddress().linkLocalIpv6();
        MacAddress macA = c.resolve(llA).toCompletableFuture().get();
        c.transmit(Pkts.roce(c, macA, InetAddress.getByName("2001:db8::3"), llA, 0x34, 1, mr, 0, 5));
        assertEquals(1, atA.size());
        assertEquals(14 + 40 + 8, atA.get(0).bthOffset());
    }

    @Test
    void corruptedRoceFramesAreDroppedByTheNic() throws Exception {
        InetAddress ipA = InetAddress.getByName("192.168.1.1");
        InetAddress ipB = InetAddress.getByName("192.168.1.2");
        MacAddress macB = a.resolve(ipB).toCompletableFuture().get();
        b.link().setFaults(seg.port(2), FaultProfile.NONE.withCorruptRate(1));
        ByteBuffer mr = ByteBuffer.allocate(100);
        for (int i = 0; i < 50; i++) {
            a.transmit(Pkts.roce(a, macB, ipA, ipB, 0x12, i, mr, 0, 100));
        }
        assertEquals(0, atB.size());
        assertEquals(50, b.counters().portRcvErrors());
    }

    @Test
    void aDetachedHostStopsAnswering() throws Exception {
        f.findNode("hostB").orElseThrow().detach();
        CompletableFuture<MacAddress> mac = a.resolve(InetAddress.getByName("192.168.1.2")).toCompletableFuture();
        clock.runAll();
        assertTrue(mac.isCompletedExceptionally());
    }
}
