package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * rdma-core's pingpong address message, byte for byte: the vectors are what
 * {@code sprintf(msg, "%04x:%06x:%06x:%s", lid, qpn, psn, gid)} leaves in
 * {@code char msg[sizeof "0000:000000:000000:00000000000000000000000000000000"]} after
 * {@code gid_to_wire_gid()} (the GID's 16 bytes in memory order as {@code %08x} of each
 * big-endian word).
 */
class PingpongMsgTest {
    /** A NUL-terminated C string of exactly {@code size} bytes. */
    static byte[] c(String text, int size) {
        byte[] b = new byte[size];
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        assertEquals(size - 1, t.length, "the C string fills its buffer");
        System.arraycopy(t, 0, b, 0, t.length);
        return b;
    }

    @Test
    void roceAddressIsTheCStringOf52Bytes() {
        RcPair.Dest d = new RcPair.Dest(0, 0x11, 0x1a2b3c, Gid.parse("::ffff:127.0.0.1"));
        byte[] want = c("0000:000011:1a2b3c:00000000000000000000ffff7f000001", 52);
        assertArrayEquals(want, PingpongMsg.encode(d));
        assertEquals(52, PingpongMsg.SIZE);
        assertEquals(d, PingpongMsg.decode(want));
    }

    @Test
    void infinibandAddressWithoutGidAndIpv6Gid() {
        assertArrayEquals(c("0001:000012:0b1d2c:00000000000000000000000000000000", 52),
                PingpongMsg.encode(new RcPair.Dest(1, 0x12, 0x0b1d2c, Gid.ZERO)));
        RcPair.Dest v6 = new RcPair.Dest(0xbeef, 0xffffff, 0, Gid.parse("fe80::2:c903:a1:b2c1"));
        byte[] m = c("beef:ffffff:000000:fe800000000000000002c90300a1b2c1", 52);
        assertArrayEquals(m, PingpongMsg.encode(v6));
        assertEquals(v6, PingpongMsg.decode(m));
        assertEquals("00000000000000000000000000000001", PingpongMsg.wireGid(Gid.parse("::1")));
        assertEquals(Gid.parse("::1"), PingpongMsg.parseWireGid("00000000000000000000000000000001"));
    }

    @Test
    void decodeIsAsLenientAsSscanfForCase() {
        // sscanf("%x") takes upper-case digits too
        RcPair.Dest d = PingpongMsg.decode(c("00AB:0000FF:ABCDEF:FE800000000000000002C90300A1B2C1", 52));
        assertEquals(0xab, d.lid());
        assertEquals(0xff, d.qpn());
        assertEquals(0xabcdef, d.psn());
        assertEquals(Gid.parse("fe80::2:c903:a1:b2c1"), d.gid());
    }

    @Test
    void doneIsFiveBytesWithItsNul() {
        assertArrayEquals(new byte[] {'d', 'o', 'n', 'e', 0}, PingpongMsg.done());
        assertEquals(5, PingpongMsg.DONE_SIZE);
        assertTrue(PingpongMsg.isDone(PingpongMsg.done()));
        assertFalse(PingpongMsg.isDone(new byte[] {'d', 'o', 'n', 'x', 0}));
    }

    @Test
    void malformedMessagesAreEproto() {
        for (String bad : new String[] {"", "0000:000011:1a2b3c", "zzzz:000011:1a2b3c:00000000000000000000000000000000",
            "0000:000011:1a2b3c:0000000000000000000000000000000", "0000:000011:1a2b3c:0000000000000000000000000000000g",
            "0000:000011:1a2b3c:000000000000000000000000000000:9"}) {
            byte[] m = new byte[52];
            byte[] t = bad.getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(t, 0, m, 0, t.length);
            RdmaException e = assertThrows(RdmaException.class, () -> PingpongMsg.decode(m), bad);
            assertEquals(Errno.EPROTO, e.errno());
            assertTrue(e.getMessage().contains("malformed pingpong address message"), e.getMessage());
        }
    }
}
