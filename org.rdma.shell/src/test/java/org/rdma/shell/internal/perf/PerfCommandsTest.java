package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.shell.internal.PerfCommandAccess;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/** The ibv_rc_pingpong and ib_write_bw commands: their output end to end, option errors, formats. */
class PerfCommandsTest {
    private LoopbackNet net;

    @BeforeEach
    void setUp() {
        net = LoopbackNet.twoHcas("perf-cmd-clock");
    }

    @AfterEach
    void tearDown() {
        net.close();
    }

    private static List<String> lines(Consumer<PrintStream> c) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8)) {
            c.accept(out);
        }
        return b.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void pingpongPrintsTheToolsLines() {
        List<String> out = lines(o -> PerfCommandAccess.pingpong(net, o, "-d", "mlx4_0", "-i", "1", "--peer-device",
                "mlx4_1", "-i", "1", "-s", "1024", "-n", "100"));
        assertEquals(4, out.size(), out.toString());
        assertTrue(out.get(0).matches("  local address:  LID 0x0001, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::"),
                out.get(0));
        assertTrue(out.get(1).matches("  remote address: LID 0x0002, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::"),
                out.get(1));
        assertTrue(out.get(2).matches("204800 bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec"), out.get(2));
        assertTrue(out.get(3).matches("100 iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter"), out.get(3));
        assertEquals(0, net.extraRefs("mlx4_0"));
        assertEquals(0, net.extraRefs("mlx4_1"));
    }

    @Test
    void writeBwPrintsHeaderTableAndRow() {
        List<String> out = lines(o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_0", "--peer-device", "mlx4_1",
                "-s", "4096", "-n", "200", "-q", "2", "-t", "16"));
        assertEquals(WriteBw.RESULT_LINE, out.get(0));
        assertEquals("                    RDMA_Write BW Test", out.get(1));
        assertEquals(" Dual-port       : OFF\t\tDevice         : mlx4_0", out.get(2));
        int table = out.indexOf(WriteBw.RESULT_FMT);
        assertEquals(WriteBw.RESULT_LINE, out.get(table - 1));
        assertTrue(out.get(table + 1).matches(" 4096       400              \\d+\\.\\d\\d\\s+\\d+\\.\\d\\d *\\t\\t     \\d\\.\\d{6}\\s*"),
                out.get(table + 1));
        assertEquals(WriteBw.RESULT_LINE, out.get(out.size() - 1));
        assertEquals(0, net.extraRefs("mlx4_0"));
    }

    @Test
    void optionErrorsAreEinval() {
        assertError(Errno.EINVAL, "EINVAL: -d DEV is required; usage: " + PerfCommandAccess.PINGPONG_USAGE, true,
                "--peer-device", "mlx4_1");
        assertError(Errno.EINVAL, "EINVAL: invalid MTU 300 (256, 512, 1024, 2048 or 4096); usage: "
                + PerfCommandAccess.PINGPONG_USAGE, true, "-d", "mlx4_0", "--peer-device", "mlx4_1", "-m", "300");
        assertError(Errno.EINVAL, "EINVAL: --size must be within [1, 1073741824], got 0; usage: "
                + PerfCommandAccess.PINGPONG_USAGE, true, "-d", "mlx4_0", "--peer-device", "mlx4_1", "-s", "0");
        assertError(Errno.ENODEV, "ENODEV: IB device mlx4_5 not found", true, "-d", "mlx4_5", "--peer-device",
                "mlx4_1");
        assertError(Errno.EINVAL, "EINVAL: -D and -n cannot be used together; usage: " + PerfCommandAccess.WRITE_BW_USAGE,
                false, "-d", "mlx4_0", "--peer-device", "mlx4_1", "-D", "2", "-n", "10");
        assertError(Errno.EINVAL, "EINVAL: invalid option -- 'z'; usage: " + PerfCommandAccess.WRITE_BW_USAGE, false,
                "-z");
        assertEquals(0, net.extraRefs("mlx4_1"));
    }

    private void assertError(Errno errno, String message, boolean pingpong, String... args) {
        RdmaException e = assertThrows(RdmaException.class, () -> {
            if (pingpong) {
                PerfCommandAccess.pingpong(net, System.out, args);
            } else {
                PerfCommandAccess.writeBw(net, System.out, args);
            }
        });
        assertEquals(errno, e.errno());
        assertEquals(message, e.getMessage());
    }

    @Test
    void formats() {
        assertEquals("::", PerfFormat.inetNtop(Gid.ZERO));
        assertEquals("fe80::2:c903:a1:b2c1", PerfFormat.inetNtop(Gid.linkLocal(0x0002c90300a1b2c1L)));
        assertEquals("::ffff:192.168.1.2", PerfFormat.inetNtop(Gid.parse("192.168.1.2")));
        assertEquals("2001:db8::1:0:0:1", PerfFormat.inetNtop(Gid.parse("2001:db8:0:0:1:0:0:1")));
        assertEquals("fe80::", PerfFormat.inetNtop(Gid.of(0xfe80_0000_0000_0000L, 0)));
        assertEquals("1:0:2:0:3:0:4:0", PerfFormat.inetNtop(Gid.parse("1:0:2:0:3:0:4:0")));
        assertEquals("0x01", PerfFormat.altHex(1, 4));
        assertEquals("0000", PerfFormat.altHex(0, 4));
        assertEquals("0x3a3f1e", PerfFormat.altHex(0x3a3f1e, 6));
        assertEquals("0x0011", PerfFormat.altHex(0x11, 6));
        assertEquals("  remote address: LID 0x0002, QPN 0x000012, PSN 0x0b1d2c, GID ::",
                new RcPair.Dest(2, 0x12, 0x0b1d2c, Gid.ZERO).pingpongLine("remote"));
        assertEquals(List.of("8192000 bytes in 0.05 seconds = 1310.72 Mbit/sec",
                "1000 iters in 0.05 seconds = 50.00 usec/iter"),
                new Pingpong.Result(4096, 1000, 50_000_000L).lines());
        assertEquals(" 65536      5000             3165.43            3165.12\t\t     0.050642",
                WriteBw.Result.report(65536, 5000, 3165.43, 3165.12, 0.050642).row());
    }
}
