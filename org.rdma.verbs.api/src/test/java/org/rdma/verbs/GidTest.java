package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class GidTest {
    @Test
    void printsLikeIbvDevinfo() {
        Gid g = Gid.linkLocal(0x0002c90300a1b2c1L);
        assertEquals("fe80:0000:0000:0000:0002:c903:00a1:b2c1", g.toString());
        assertEquals(g, Gid.parse(g.toString()));
    }

    @Test
    void ipv4IsMappedAsRoceDoes() throws Exception {
        Gid g = Gid.fromIp(InetAddress.getByName("192.168.1.7"));
        assertEquals("0000:0000:0000:0000:0000:ffff:c0a8:0107", g.toString());
        assertTrue(g.isV4Mapped());
        assertEquals(InetAddress.getByName("192.168.1.7"), g.toInetAddress());
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 192, (byte) 168, 1, 7},
                g.bytes());
    }

    @Test
    void ipv6AndMulticast() throws Exception {
        Gid g = Gid.parse("ff12:401b::1");
        assertTrue(g.isMulticast());
        assertFalse(g.isLinkLocal());
        assertEquals(InetAddress.getByName("ff12:401b::1"), g.toInetAddress());
        assertEquals(Gid.ZERO, Gid.of(new byte[16]));
        assertTrue(Gid.ZERO.isZero());
    }

    @Test
    void multicastAddrTakesIpv4GroupsAsRoceV2Does() {
        assertTrue(Gid.parse("ff0e::1:2").isMulticastAddr());
        assertTrue(Gid.parse("::ffff:224.1.2.3").isMulticastAddr());
        assertTrue(Gid.parse("::ffff:239.255.255.255").isMulticastAddr());
        assertFalse(Gid.parse("::ffff:224.1.2.3").isMulticast(), "isMulticast is the IB rule: ff00::/8 only");
        assertFalse(Gid.parse("::ffff:223.255.255.255").isMulticastAddr());
        assertFalse(Gid.parse("::ffff:240.0.0.1").isMulticastAddr());
        assertFalse(Gid.parse("::e001:203").isMulticastAddr(), "224.1.2.3 in a GID that is not IPv4-mapped");
        assertFalse(Gid.parse("fe80::1").isMulticastAddr());
    }

    @Test
    void ntopPrintsAsGlibc() {
        assertEquals("::ffff:224.1.2.3", Gid.parse("::ffff:224.1.2.3").ntop());
        assertEquals("ff0e::1:2", Gid.parse("ff0e:0:0:0:0:0:1:2").ntop());
        assertEquals("fe80::2:c903:0:1", Gid.parse("fe80:0:0:0:2:c903:0:1").ntop());
        assertEquals("1:0:2::", Gid.parse("1:0:2:0:0:0:0:0").ntop());
        assertEquals("::", Gid.ZERO.ntop());
    }

    @Test
    void badInputNamesEinval() {
        RdmaException e = assertThrows(RdmaException.class, () -> Gid.parse("not a gid"));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        assertThrows(RdmaException.class, () -> Gid.of(new byte[15]));
    }
}
