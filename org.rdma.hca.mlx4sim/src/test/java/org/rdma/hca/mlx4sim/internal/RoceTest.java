package org.rdma.hca.mlx4sim.internal;

import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.MacAddress;
import org.rdma.fabric.Topology;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.VirtualClock;

/** Two mlx4sim HCAs with RoCEv2 ports on one Ethernet segment. */
class RoceTest {
    final VirtualClock clock = new VirtualClock();
    Fabric fabric;
    Mlx4Device da;
    Mlx4Device db;
    Host ha;
    Host hb;

    Mlx4Device roce(String name, long guid, String ip, int vlan) {
        Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.ETHERNET);
        p.caName = name;
        p.nodeGuid = guid;
        p.ethernetSegment = "br0";
        p.hostname = name;
        p.ports.get(0).netdev = "eth" + name.charAt(name.length() - 1);
        p.ports.get(0).vlan = vlan;
        for (String a : ip.split(",")) {
            p.ports.get(0).ipAddresses.add(a);
        }
        return new Mlx4Device(p);
    }

    void start(int vlan) {
        fabric = Fabrics.create("roce", Topology.builder().build(), clock, 1);
        da = roce("hosta", 0x0002c90300c0ffe0L, "192.168.7.1,fd00::1", vlan);
        db = roce("hostb", 0x0002c90300c0ffd0L, "192.168.7.2,fd00::2", vlan);
        ha = new Host(da.provider());
        hb = new Host(db.provider());
    }

    @AfterEach
    void tearDown() {
        if (fabric != null) {
            da.close();
            db.close();
            fabric.close();
        }
    }

    static AhAttr roceAv(Host from, String ip) {
        Gid d = Gid.fromIp(RoceGids.parse(ip));
        int sgid = -1;
        for (int i = 0; i < 8; i++) {
            GidEntry e = from.p.queryGid(1, i);
            if (e != null && e.gid.isV4Mapped() == d.isV4Mapped() && !e.gid.isLinkLocal()) {
                sgid = i;
                break;
            }
        }
        AhAttr a = new AhAttr();
        a.portNum = 1;
        a.setGrh(d, 0, sgid, 64, 0, null);
        return a;
    }

    @Test
    void gidTableHasLinkLocalAndIpGidsOfTypeRoceV2() {
        start(-1);
        PortAttr pa = da.provider().queryPort(1);
        assertEquals(LinkLayer.ETHERNET, pa.linkLayer);
        assertEquals(PortState.ACTIVE, pa.state);
        assertTrue(pa.ipGids);
        GidEntry g0 = da.provider().queryGid(1, 0);
        MacAddress mac = ((EthernetPort) da.fabricPort(1)).macAddress();
        assertEquals(Gid.linkLocal(mac.toEui64()), g0.gid);
        assertEquals(GidType.ROCE_UDP_ENCAP, g0.type);
        assertEquals("etha", g0.netdev);
        assertEquals(Gid.parse("::ffff:192.168.7.1"), da.provider().queryGid(1, 1).gid);
        assertEquals(Gid.parse("fd00::1"), da.provider().queryGid(1, 2).gid);
        assertEquals(1, ha.netdevs.get("etha"));
        // ip addr add: GID_CHANGE
        da.addIpAddress(1, "10.0.0.1");
        assertEquals(1, ha.count(IbEventType.GID_CHANGE, 1));
        assertEquals(Gid.parse("::ffff:10.0.0.1"), da.provider().queryGid(1, 3).gid);
        da.removeIpAddress(1, "10.0.0.1");
        assertEquals(2, ha.count(IbEventType.GID_CHANGE, 1));
    }

    @Test
    void rcUcUdOverRoceV2Ipv4WithArpAtAhCreationAndRtr() {
        start(-1);
        Ops ops = new Ops(ha, hb, Ops.virtualTime(clock), () -> roceAv(ha, "192.168.7.2"), () -> roceAv(hb, "192.168.7.1"), Mtu.MTU_1024);
        assertEquals(11, ops.all(true));
        EthernetPort pa = (EthernetPort) da.fabricPort(1);
        assertEquals(((EthernetPort) db.fabricPort(1)).macAddress(), pa.neighbours().get(RoceGids.parse("192.168.7.2")));
        assertEquals(0, da.rxDropped() + db.rxDropped());
    }

    @Test
    void rcAndUdOverRoceV2Ipv6WithNeighbourDiscoveryAndVlan() {
        start(5);
        Ops ops = new Ops(ha, hb, Ops.virtualTime(clock), () -> roceAv(ha, "fd00::2"), () -> roceAv(hb, "fd00::1"), Mtu.MTU_1024);
        assertEquals(8, ops.rc(false));
        assertEquals(1, ops.ud());
        assertNotNull(((EthernetPort) da.fabricPort(1)).neighbours().get(RoceGids.parse("fd00::2")));
    }

    @Test
    void unknownNeighbourIsUnreachableAndLocalPathRecordResolves() {
        start(-1);
        RdmaException e = assertThrows(RdmaException.class,
                () -> ha.createAh(ha.allocPd(), roceAv(ha, "192.168.7.99")));
        assertEquals(Errno.EHOSTUNREACH, e.errno());
        AhAttr path = da.localPath(1, 1, Gid.parse("::ffff:192.168.7.2"));
        assertEquals(64, path.grh.hopLimit);
        assertEquals(((EthernetPort) db.fabricPort(1)).macAddress(), MacAddress.of(path.dmac, 0));
        List<String> unused = List.of();
        assertTrue(unused.isEmpty());
    }

    /** What {@code rdma statistic show link hosta/1} reads: the transport's counters, then the PMA's. */
    static java.util.Map<String, Long> stats(Mlx4Device d) {
        org.rdma.verbs.HwStats st = d.provider().allocHwPortStats(1);
        assertEquals(st.numCounters(), d.provider().getHwStats(st, 1, st.numCounters()));
        java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < st.numCounters(); i++) {
            m.put(st.name(i), st.value[i]);
        }
        return m;
    }

    @Test
    void hardwareCountersAreTheTransportsThenThePortsPmaCounters() {
        start(-1);
        Ops ops = new Ops(ha, hb, Ops.virtualTime(clock), () -> roceAv(ha, "fd00::2"), () -> roceAv(hb, "fd00::1"), Mtu.MTU_1024);
        assertEquals(8, ops.rc(false));
        java.util.Map<String, Long> a = stats(da);
        java.util.List<String> names = new java.util.ArrayList<>(a.keySet());
        assertEquals("sent_pkts", names.get(0));
        assertEquals("rdma_recvs", names.get(14));
        assertEquals(java.util.List.of(Mlx4Device.PORT_STATS), names.subList(15, names.size()));
        assertTrue(a.get("sent_pkts") > 0, () -> "counted: " + a);
        assertTrue(a.get("port_xmit_packets") >= a.get("sent_pkts"), () -> "every transport packet left the port: " + a);
        assertEquals(a.get("port_xmit_packets"), stats(db).get("port_rcv_packets"), "a clean segment: b received what a sent");
    }

    @Test
    void udpSourcePortIsHashOfQpn() {
        int s = RoceLink.udpSourcePort(0x11);
        assertTrue(s >= 0xC000 && s <= 0xFFFF);
        assertEquals(s, RoceLink.udpSourcePort(0x11));
        InetAddress unusedAddr = RoceGids.parse("127.0.0.1");
        assertNotNull(unusedAddr);
    }
}
