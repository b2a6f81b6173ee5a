package org.rdma.diags.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.diags.internal.DiagOptions.DestType;
import org.rdma.diags.internal.DiagOptions.Opt;
import org.rdma.diags.internal.MadFields.Fmt;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/** The pieces the commands share: option parsing, glibc's text forms, libibmad's renderings, port IDs. */
class DiagUnitsTest {
    static Errno errno(Runnable r) {
        return assertThrows(RdmaException.class, r::run).errno();
    }

    static DiagOptions options() {
        return new DiagOptions("tool", "<x>", "K", List.of(new Opt("extended", 'x', false, null, "ext"),
                new Opt("slid", (char) 0, true, "<lid>", "source"), new Opt("s", 's', false, null, "custom s")));
    }

    @Test
    void optionsPermuteBundleAndTakeValuesAsGetoptDoes() {
        DiagOptions o = options().parse("5", "-xC", "mlx4_1", "--slid=7", "-P2", "1", "-D", "--", "-x");
        assertEquals(List.of("5", "1", "-x"), o.operands());
        assertTrue(o.has("extended"));
        assertEquals("mlx4_1", o.ca());
        assertEquals(2, o.port());
        assertEquals("7", o.get("slid", null));
        assertEquals(DestType.DRPATH, o.destType());
        assertEquals(DestType.GUID, options().parse("-D", "-G").destType(), "the last of -D/-L/-G wins");
        assertEquals(250, options().parse("-t", "0xfa").timeout(1000));
        assertEquals(1000, options().parse().timeout(1000));
        assertTrue(options().parse("-s").has("s"), "the tool's -s hides the common --sm_port");
        assertEquals(Errno.EINVAL, errno(() -> options().parse("-K")), "an excluded common option");
        assertEquals(Errno.EINVAL, errno(() -> options().parse("--slid")));
        assertEquals(Errno.EINVAL, errno(() -> options().parse("--extended=1")));
        assertEquals(Errno.EINVAL, errno(() -> options().parse("-C")));
        assertEquals(Errno.EINVAL, errno(() -> options().parse("-t", "0").timeout(1)));
        assertEquals(Errno.EINVAL, errno(() -> options().parse("-t", "1x").timeout(1)));
        assertEquals(Errno.EINVAL, errno(() -> options().parse("-P", "255").port()));
        assertTrue(assertThrows(RdmaException.class, () -> options().parse("-q")).getMessage()
                .endsWith("invalid option -- 'q'; usage: tool [options] <x>"));
        assertEquals(0x1ff, DiagOptions.parseNumber("0777"));
        assertEquals(Long.MIN_VALUE, DiagOptions.parseNumber("12a"));
        assertTrue(options().usage().contains("  --extended, -x          ext"));
    }

    @Test
    void gidsPrintAsGlibcsInetNtop() {
        assertEquals("::", DiagText.inet6(Gid.ZERO));
        assertEquals("fe80::10:9", DiagText.inet6(Gid.of(0xfe80_0000_0000_0000L, 0x0000_0000_0010_0009L)));
        assertEquals("ff12:401b:ffff::ffff:ffff", DiagText.inet6(Gid.parse("ff12:401b:ffff:0:0:0:ffff:ffff")));
        assertEquals("fe80::2:c903:a1:b2c1", DiagText.inet6(Gid.of(0xfe80_0000_0000_0000L, 0x0002_c903_00a1_b2c1L)));
        assertEquals("1:0:2::", DiagText.inet6(Gid.parse("1:0:2:0:0:0:0:0")), "the longest run, not the first");
        assertEquals("1::2:0:3", DiagText.inet6(Gid.parse("1:0:0:0:0:2:0:3")));
        assertEquals("::ffff:192.168.7.1", DiagText.inet6(Gid.parse("0:0:0:0:0:ffff:c0a8:0701")));
        assertEquals("::1", DiagText.inet6(Gid.parse("0:0:0:0:0:0:0:1")));
        assertEquals("Sun Nov  1 07:05:09 2026", DiagText.ctime(ZonedDateTime.parse("2026-11-01T07:05:09Z")));
        byte[] nd = new byte[64];
        System.arraycopy("h1\tx".getBytes(), 0, nd, 0, 4);
        assertEquals("h1 x", DiagText.nodeDesc(nd, 0));
    }

    @Test
    void valuesRenderAsLibibmadsDumpFunctions() {
        assertEquals("0x0000", MadFields.render(Fmt.HEX, 0, 16));
        assertEquals("0x00", MadFields.render(Fmt.HEX, 0, 4), "a 4-bit field is one byte");
        assertEquals("0x000000a1", MadFields.render(Fmt.HEX, 0xa1, 32));
        assertEquals("0x000000", MadFields.render(Fmt.HEX, 0, 24));
        assertEquals("18446744073709551615", MadFields.render(Fmt.UINT, -1L, 64));
        assertEquals("1X or 4X or 8X or 12X or 2X", MadFields.render(Fmt.LINK_WIDTH_SUP, 31, 8));
        assertEquals("4X (IBA extension)", MadFields.render(Fmt.LINK_WIDTH_SUP, 2, 8));
        assertEquals("undefined (0)", MadFields.render(Fmt.LINK_WIDTH_EN, 0, 8));
        assertEquals("1X or undefined (33)", MadFields.render(Fmt.LINK_WIDTH_EN, 33, 8));
        assertEquals("undefined (3)", MadFields.render(Fmt.LINK_WIDTH, 3, 8));
        assertEquals("2.5 Gbps or 5.0 Gbps or 10.0 Gbps", MadFields.render(Fmt.LINK_SPEED_SET, 7, 4));
        assertEquals("10.0 Gbps (IBA extension)", MadFields.render(Fmt.LINK_SPEED_SET, 4, 4));
        assertEquals("undefined (0) (IBA extension)", MadFields.render(Fmt.LINK_SPEED_SET, 0, 4));
        assertEquals("undefined (8)", MadFields.render(Fmt.LINK_SPEED_SET, 8, 4));
        assertEquals("Extended speed", MadFields.render(Fmt.LINK_SPEED, 0, 4));
        assertEquals("0", MadFields.render(Fmt.LINK_SPEED_EXT_SUP, 0, 4));
        assertEquals("14.0625 Gbps or 25.78125 Gbps", MadFields.render(Fmt.LINK_SPEED_EXT_SUP, 3, 4));
        assertEquals("Extended link speeds disabled", MadFields.render(Fmt.LINK_SPEED_EXT_EN, 30, 5));
        assertEquals("?(9)", MadFields.render(Fmt.PORT_STATE, 9, 4));
        assertEquals("?(7)", MadFields.render(Fmt.MTU, 7, 4));
        assertEquals("No change", MadFields.render(Fmt.OPER_VLS, 0, 4));
        assertEquals("?(6)?", MadFields.render(Fmt.NODE_TYPE, 6, 8));
        assertEquals("0x2\n\t\t\t\tIsSM", MadFields.render(Fmt.CAP_MASK, 2, 32));
        assertEquals("0x2001", MadFields.render(Fmt.CAP_MASK, 0x2001, 32), "bits 0 and 13 have no name");
        assertEquals("McastPkeyTrapSuppressionEnabled:.", MadFields.label("McastPkeyTrapSuppressionEnabled"));
        byte[] b = {(byte) 0x12, (byte) 0x34, (byte) 0x56, (byte) 0x78, (byte) 0x9a};
        assertEquals(0x2345, MadFields.bits(b, 0, 0, 4, 16));
        assertEquals(0x789a, MadFields.bits(b, 1, 0, 16, 16));
    }

    @Test
    void portIdsPrintAsPortid2str() {
        assertEquals("Lid 5", PortId.ofLid(5, 0).toString());
        assertEquals("DR path slid 65535; dlid 65535; 0,1,3", PortId.parseDirected("0,1,3").toString());
        assertEquals("DR path slid 65535; dlid 65535; 0", PortId.parseDirected("0").toString());
        assertArrayEquals(new int[] {1, 3, 4}, PortId.parseDirected("0,1,3").extend(4).path());
        assertTrue(PortId.directed().isDirected());
        assertEquals(PortId.parseDirected("0,2"), PortId.directed(2));
        assertEquals(Errno.EINVAL, errno(() -> PortId.parseDirected("0,256")));
        assertEquals(Errno.EINVAL, errno(() -> PortId.parseDirected("0,,1")));
        assertEquals(Errno.EINVAL, errno(() -> PortId.parseDirected("0" + ",1".repeat(64))));
    }
}
