package org.rdma.cm.internal.rdma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.Gid;

/**
 * The bytes the RDMA CM puts on the wire or derives: the IP CM private-data header (IBTA annex
 * A11, {@code struct cma_hdr}), service IDs ({@code rdma_get_service_id()}), multicast GIDs
 * ({@code cma_set_mgid()}, {@code cma_iboe_set_mgid()}) and the RoCE v2 flow label, against
 * vectors worked out by hand from the annex and the kernel's definitions.
 */
class CmaWireTest {
    private static InetAddress ip(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void ipv4HeaderMatchesAnnexA11() {
        CmaHdr h = CmaHdr.of(new InetSocketAddress(ip("192.168.7.1"), 45000),
                new InetSocketAddress(ip("192.168.7.2"), 7471));
        byte[] b = new byte[RdmaCm.CMA_HDR_SIZE];
        h.encode(b, 0);
        // version 0, IP version 4 in the high nibble, source port 45000 = 0xafc8,
        // then each IPv4 address in the last 4 bytes of its 16-byte field
        assertArrayEquals(hex("00 40 afc8"
                + " 00000000 00000000 00000000 c0a80701"
                + " 00000000 00000000 00000000 c0a80702"), b);
        CmaHdr back = CmaHdr.decode(b, 0);
        assertEquals(h, back);
    }

    @Test
    void ipv6HeaderMatchesAnnexA11() {
        CmaHdr h = CmaHdr.of(new InetSocketAddress(ip("fd00::7:1"), 0x1234),
                new InetSocketAddress(ip("fe80::2:c903:a1:b2c1"), 7174));
        byte[] b = new byte[40];
        b[36] = 0x55;
        h.encode(b, 0);
        assertArrayEquals(hex("00 60 1234"
                + " fd000000 00000000 00000000 00070001"
                + " fe800000 00000000 0002c903 00a1b2c1 55000000"), b, "the consumer's data follows untouched");
        assertEquals(h, CmaHdr.decode(b, 0));
    }

    @Test
    void anythingElseIsNoHeader() {
        byte[] b = new byte[92];
        b[0] = 1;
        assertNull(CmaHdr.decode(b, 0), "another CM version");
        b[0] = 0;
        b[1] = 0x50;
        assertNull(CmaHdr.decode(b, 0), "IP version 5");
        assertNull(CmaHdr.decode(new byte[20], 0), "too short");
        assertNull(CmaHdr.decode(null, 0));
    }

    @Test
    void serviceIdsOfThePortSpaces() {
        assertEquals(0x0000_0000_0106_1d2eL, ((long) RdmaPortSpace.TCP.value << 16) + 7470);
        assertEquals(RdmaCm.IB_IP_PS_TCP | 7471, IbSocketAddress.of(Gid.ZERO, RdmaPortSpace.TCP, 7471).sid());
        assertEquals(RdmaCm.IB_IP_PS_UDP | 1, IbSocketAddress.of(Gid.ZERO, RdmaPortSpace.UDP, 1).sid());
        assertEquals(RdmaCm.IB_IP_PS_IB | 0xffff, IbSocketAddress.of(Gid.ZERO, RdmaPortSpace.IB, 0xffff).sid());
        assertEquals(7471, IbSocketAddress.of(Gid.ZERO, RdmaPortSpace.TCP, 7471).port());
        assertEquals(0x2345, new IbSocketAddress(Gid.ZERO, 0xffff, 0, 0x0106_2345L, 0xffffL, 0).port());
    }

    @Test
    void infinibandMulticastGids() {
        // ip_ib_mc_map(): ff1<scope 2>:401b:<P_Key>::<IPv4>, and 0x01 in byte 3 for RDMA_PS_UDP
        assertEquals(Gid.parse("ff12:401b:ffff:0000:0000:0000:e001:0203"),
                CmaMulticast.ibMgid(RdmaPortSpace.TCP, new InetSocketAddress(ip("224.1.2.3"), 0), 0xffff));
        assertEquals(Gid.parse("ff12:4001:8001:0000:0000:0000:efff:fffa"),
                CmaMulticast.ibMgid(RdmaPortSpace.UDP, new InetSocketAddress(ip("239.255.255.250"), 0), 0x0001));
        // ipv6_ib_mc_map(): ff1<scope>:601b:<P_Key>, then the last 80 bits of the IPv6 group
        assertEquals(Gid.parse("ff12:601b:ffff:0000:0000:0001:ff00:0042"),
                CmaMulticast.ibMgid(RdmaPortSpace.TCP, new InetSocketAddress(ip("ff02::1:ff00:42"), 0), 0xffff));
        // an SA-assigned MGID given as IPv6 and an AF_IB GID are taken as they are; a wildcard asks the SA
        assertEquals(Gid.parse("ff12:a01b:ffff:0000:0000:0000:0000:0007"), CmaMulticast.ibMgid(RdmaPortSpace.UDP,
                new InetSocketAddress(ip("ff12:a01b:ffff::7"), 0), 0xffff));
        Gid g = Gid.parse("ff15:1234:0000:0000:0000:0000:0000:0001");
        assertEquals(g, CmaMulticast.ibMgid(RdmaPortSpace.UDP, IbSocketAddress.ofServiceId(g, 0), 0xffff));
        assertEquals(Gid.ZERO, CmaMulticast.ibMgid(RdmaPortSpace.UDP, new InetSocketAddress(ip("0.0.0.0"), 0), 0xffff));
    }

    @Test
    void roceFlowLabelHashesThePorts() {
        // cma_get_roce_udp_flow_label(): (sport * 31 + dport) & 0xfffff
        assertEquals((45000 * 31 + 7471) & 0xfffff, CmaRoute.flowLabel(
                new InetSocketAddress(ip("192.168.7.1"), 45000), new InetSocketAddress(ip("192.168.7.2"), 7471)));
        assertEquals(0x5ad21, CmaRoute.flowLabel(new InetSocketAddress(ip("1.1.1.1"), 12000),
                new InetSocketAddress(ip("1.1.1.2"), 1)));
    }

    @Test
    void addressHelpers() {
        InetSocketAddress any = new InetSocketAddress(ip("0.0.0.0"), 5);
        assertEquals(true, CmaAddr.isAny(any));
        assertEquals(true, CmaAddr.isAny(new InetSocketAddress(ip("::1"), 5)));
        assertEquals(false, CmaAddr.isAny(new InetSocketAddress(ip("192.168.7.1"), 5)));
        assertEquals(Gid.parse("::ffff:192.168.7.1"), CmaAddr.ip2gid(new InetSocketAddress(ip("192.168.7.1"), 5)));
        assertEquals("[fd00::7:1]:9", CmaAddr.format(new InetSocketAddress(ip("fd00::7:1"), 9)));
        assertEquals("fe80::2:c903:0:1", CmaAddr.ntop(ip("fe80:0:0:0:2:c903:0:1")));
        assertEquals("::", CmaAddr.ntop(ip("::")));
        assertEquals("1:0:2::", CmaAddr.ntop(ip("1:0:2:0:0:0:0:0")));
        assertEquals("192.168.7.1:9", CmaAddr.format(new InetSocketAddress(ip("192.168.7.1"), 9)));
        assertEquals(true, CmaAddr.sameAddr(new InetSocketAddress(ip("192.168.7.1"), 1),
                new InetSocketAddress(ip("192.168.7.1"), 2)));
        assertEquals(CmaAddr.AF_IB, CmaAddr.family(IbSocketAddress.of(Gid.ZERO, RdmaPortSpace.TCP, 1)));
    }
}
