package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.RdmaException;

/**
 * perftest's TCP exchange, byte for byte, with vectors from its C formats
 * ({@code src/perftest_communication.h}): {@code KEY_PRINT_FMT} in {@code KEY_MSG_SIZE} (59),
 * {@code KEY_PRINT_FMT_GID} in {@code KEY_MSG_SIZE_GID} (108), the version in
 * {@code char[MAX_VERSION]}, {@code hton_int}, {@code hton_long}, {@code hton_double} and the
 * MTU as {@code sprintf("%d")} in 2 bytes.
 */
class PerftestMsgTest {
    @Test
    void keysWithGidAre108Bytes() {
        PerftestMsg.Keys k = new PerftestMsg.Keys(0, 1, 0x11, 0x1a2b3c, 0x00001234, 0x7f4a00010000L,
                Gid.parse("::ffff:127.0.0.1"), 0);
        byte[] want = PingpongMsgTest.c("0000:0001:000011:1a2b3c:00001234:00007f4a00010000:"
                + "00:00:00:00:00:00:00:00:00:00:ff:ff:7f:00:00:01:00000000:", 108);
        assertArrayEquals(want, PerftestMsg.encodeKeys(k));
        assertEquals(k, PerftestMsg.decodeKeys(want, true));
    }

    @Test
    void keysWithoutGidAre59Bytes() {
        PerftestMsg.Keys k = new PerftestMsg.Keys(0x12, 1, 0xabcdef, 0x000001, 0x80000001, 0x00007f3a00000000L, null,
                0x42);
        byte[] want = PingpongMsgTest.c("0012:0001:abcdef:000001:80000001:00007f3a00000000:00000042", 59);
        assertArrayEquals(want, PerftestMsg.encodeKeys(k));
        assertEquals(k, PerftestMsg.decodeKeys(want, false));
        assertEquals(59, PerftestMsg.KEY_MSG_SIZE);
        assertEquals(108, PerftestMsg.KEY_MSG_SIZE_GID);
    }

    @Test
    void ipv6GidKeysDecodeFromPerftestText() {
        // as a perftest peer on ::1 sends it (upper-case accepted, as strtol does)
        byte[] msg = PingpongMsgTest.c("0000:0001:0003a1:0f0e0d:0000ABCD:00005555deadbe00:"
                + "00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:01:00000000:", 108);
        PerftestMsg.Keys k = PerftestMsg.decodeKeys(msg, true);
        assertEquals(0x3a1, k.qpn());
        assertEquals(0x0f0e0d, k.psn());
        assertEquals(0xabcd, k.rkey());
        assertEquals(0x5555deadbe00L, k.vaddr());
        assertEquals(Gid.parse("::1"), k.gid());
    }

    @Test
    void versionIs16NulPaddedBytes() {
        byte[] v = PerftestMsg.encodeVersion("6.27");
        assertArrayEquals(new byte[] {'6', '.', '2', '7', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, v);
        assertEquals("6.27", PerftestMsg.decodeVersion(v));
        assertEquals(6.29, PerftestMsg.versionNumber("6.29"), 1e-9);
        assertEquals(5.7, PerftestMsg.versionNumber("5.70-0.1"), 1e-9);
        assertEquals(0, PerftestMsg.versionNumber("x"), 1e-9);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> PerftestMsg.encodeVersion("0123456789abcdef")).errno());
    }

    @Test
    void numbersAreBigEndian() {
        assertArrayEquals(new byte[] {0, 0, 0x10, 0}, PerftestMsg.encodeInt(4096));
        assertEquals(64, PerftestMsg.decodeInt(new byte[] {0, 0, 0, 64}));
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 1, 0, 0}, PerftestMsg.encodeLong(65536));
        assertEquals(5000, PerftestMsg.decodeLong(new byte[] {0, 0, 0, 0, 0, 0, 0x13, (byte) 0x88}));
        assertEquals(5000, PerftestMsg.decodeLong(new byte[] {0, 0, 0x13, (byte) 0x88}));
        // 1.5 = 0x3FF8000000000000; 3165.43 = 0x40A8BADC28F5C28F
        assertArrayEquals(new byte[] {0x3f, (byte) 0xf8, 0, 0, 0, 0, 0, 0}, PerftestMsg.encodeDouble(1.5));
        assertEquals(3165.43, PerftestMsg.decodeDouble(new byte[] {0x40, (byte) 0xa8, (byte) 0xba, (byte) 0xdc,
            0x28, (byte) 0xf5, (byte) 0xc2, (byte) 0x8f}), 0);
    }

    @Test
    void mtuIsTheEnumDigitAndNul() {
        assertArrayEquals(new byte[] {'5', 0}, PerftestMsg.encodeMtu(Mtu.MTU_4096));
        assertArrayEquals(new byte[] {'3', 0}, PerftestMsg.encodeMtu(Mtu.MTU_1024));
        assertEquals(Mtu.MTU_2048, PerftestMsg.decodeMtu(new byte[] {'4', 0}));
        assertNull(PerftestMsg.decodeMtu(new byte[] {'7', 0}));
        assertNull(PerftestMsg.decodeMtu(new byte[] {0, 0}));
    }

    @Test
    void malformedKeysAreEproto() {
        for (String bad : new String[] {"", "0000:0001:000011", "0000:0001:000011:1a2b3c:00001234:zz:00000000",
            "0000:0001:000011:1a2b3c:00001234:00007f4a00010000:00:00:100:00"}) {
            byte[] m = new byte[108];
            byte[] t = bad.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            System.arraycopy(t, 0, m, 0, t.length);
            assertEquals(Errno.EPROTO, assertThrows(RdmaException.class, () -> PerftestMsg.decodeKeys(m, true),
                    bad).errno());
        }
    }
}
