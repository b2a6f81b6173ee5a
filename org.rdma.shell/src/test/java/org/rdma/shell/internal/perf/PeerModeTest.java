package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.shell.internal.PerfCommandAccess;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * The tools against a peer over TCP, both ends in this JVM on two threads (two devices of a
 * loopback network): ibv_rc_pingpong, ibv_ud_pingpong and ib_write_bw as server and client with
 * their real exchanges, and each server against a scripted client that writes the C tools' bytes
 * by hand (formats and sizes from the C sources), so a peer that is not this code is understood.
 */
class PeerModeTest {
    private static final long WAIT_MS = 20_000;
    private LoopbackNet net;

    @BeforeEach
    void setUp() {
        net = LoopbackNet.twoHcas("peer-test-clock");
    }

    @AfterEach
    void tearDown() {
        net.close();
    }

    private void assertNothingLeft() {
        for (String d : List.of("mlx4_0", "mlx4_1")) {
            assertEquals(0, net.extraRefs(d), d + " still held");
            for (Map.Entry<String, Integer> e : net.getByNameCounts(d).entrySet()) {
                assertEquals(0, e.getValue(), d + " still has " + e.getKey());
            }
        }
    }

    @Test
    void rcPingpongServerAndClientWithDataChecked() throws Exception {
        String port = Integer.toString(PeerRun.freeTcpPort());
        try (PeerRun server = new PeerRun("rc-server", o -> PerfCommandAccess.pingpong(net, o, "-d", "mlx4_1", "-p",
                port, "-n", "300", "-s", "2000", "-c"))) {
            server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            try (PeerRun client = new PeerRun("rc-client", o -> PerfCommandAccess.pingpong(net, o, "-d", "mlx4_0",
                    "-p", port, "-n", "300", "-s", "2000", "-c", "127.0.0.1"))) {
                List<String> c = client.join(WAIT_MS);
                List<String> s = server.join(WAIT_MS);
                assertEquals(4, c.size(), c.toString());
                assertTrue(c.get(0).matches("  local address:  LID 0x0001, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::"),
                        c.get(0));
                assertTrue(c.get(1).matches("  remote address: LID 0x0002, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::"),
                        c.get(1));
                assertEquals(c.get(1).replace("remote", "local").replace("address: ", "address:  "), s.get(0),
                        "the client's remote address is the server's own");
                assertTrue(c.get(2).matches("1200000 bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec"), c.get(2));
                assertTrue(s.get(3).matches("300 iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter"), s.get(3));
            }
        }
        assertNothingLeft();
    }

    @Test
    void udPingpongWithGrhAndDataChecked() throws Exception {
        String port = Integer.toString(PeerRun.freeTcpPort());
        try (PeerRun server = new PeerRun("ud-server", o -> PerfCommandAccess.udPingpong(net, o, "-d", "mlx4_1", "-p",
                port, "-g", "0", "-n", "200", "-c"))) {
            String local = server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            assertTrue(local.matches("  local address:  LID 0x0002, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}: GID "
                    + "fe80::2:c903:0:2"), "ud_pingpong's own line has a colon before GID: " + local);
            try (PeerRun client = new PeerRun("ud-client", o -> PerfCommandAccess.udPingpong(net, o, "-d", "mlx4_0",
                    "-p", port, "-g", "0", "-n", "200", "-c", "localhost"))) {
                List<String> c = client.join(WAIT_MS);
                server.join(WAIT_MS);
                assertTrue(c.get(1).endsWith(", GID fe80::2:c903:0:2"), c.get(1));
                assertEquals("409600 bytes", c.get(2).substring(0, 12), "1024-byte default size: " + c.get(2));
            }
        }
        assertNothingLeft();
    }

    @Test
    void udSizeAboveTheMtuIsEinval() {
        RdmaException e = assertThrows(RdmaException.class, () -> PerfCommandAccess.udPingpong(net, System.out,
                "-d", "mlx4_0", "-s", "5000", "localhost"));
        assertEquals("EINVAL: Requested size larger than port MTU (4096)", e.getMessage());
        assertNothingLeft();
    }

    @Test
    void writeBwServerAndClientExchangeReports() throws Exception {
        String port = Integer.toString(PeerRun.freeTcpPort());
        try (PeerRun server = new PeerRun("bw-server", o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_1", "-p",
                port, "-s", "8192", "-q", "2"))) {
            server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
            try (PeerRun client = new PeerRun("bw-client", o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_0",
                    "-p", port, "-s", "8192", "-q", "2", "-n", "300", "-t", "16", "127.0.0.1"))) {
                List<String> c = client.join(WAIT_MS);
                List<String> s = server.join(WAIT_MS);
                String row = c.get(c.indexOf(WriteBw.RESULT_FMT) + 1);
                assertTrue(row.startsWith(" 8192       600              "), row);
                assertEquals(row, s.get(s.indexOf(WriteBw.RESULT_FMT) + 1), "the server prints the client's report");
                assertEquals(WriteBw.RESULT_LINE, s.get(s.size() - 1));
                assertTrue(c.contains(" TX depth        : 16"), c.toString());
                assertTrue(s.stream().noneMatch(l -> l.startsWith(" TX depth")), "the passive side has no TX depth");
                assertTrue(c.contains(" Data ex. method : Ethernet"), c.toString());
                // the client's remote lines announce the server's QPs and buffer regions
                List<String> remote = c.stream().filter(l -> l.startsWith(" remote address:")).toList();
                assertEquals(2, remote.size(), c.toString());
                assertTrue(remote.get(1).matches(" remote address: LID 0x02 QPN 0x[0-9a-f]{4,6} PSN 0x[0-9a-f]{4,6}"
                        + " RKey 0x[0-9a-f]{6,8} VAddr 0x007f4a00006000"), remote.get(1));
            }
        }
        assertNothingLeft();
    }

    /**
     * -Q and -l on both ends: each prints its own CQ moderation (perftest does not exchange it),
     * the client its post list and TX depth, after the notice perftest prints; the run and the
     * report exchange are unchanged.
     */
    @Test
    void writeBwPeersPrintTheirOwnModeration() throws Exception {
        String port = Integer.toString(PeerRun.freeTcpPort());
        try (PeerRun server = new PeerRun("bw-server", o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_1", "-p",
                port, "-s", "8"))) {
            server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
            try (PeerRun client = new PeerRun("bw-client", o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_0",
                    "-p", port, "-s", "8", "-n", "1600", "-l", "16", "127.0.0.1"))) {
                List<String> c = client.join(WAIT_MS);
                List<String> s = server.join(WAIT_MS);
                assertEquals(List.of(WriteBw.RESULT_LINE,
                        "Post List requested - CQ moderation will be the size of the post list"), c.subList(0, 2));
                assertEquals(WriteBwModerationTest.testInfo("mlx4_0", "RDMA_Write Post List BW Test", "128", "16",
                        "16", "Ethernet"), c.subList(2, 16));
                int header = s.indexOf(WriteBw.RESULT_LINE);
                assertEquals(WriteBwModerationTest.testInfo("mlx4_1", "RDMA_Write BW Test", null, null, "100",
                        "Ethernet"), s.subList(header, header + 12), "the server's own defaults, no TX depth");
                String row = c.get(c.indexOf(WriteBw.RESULT_FMT) + 1);
                assertTrue(row.startsWith(" 8          1600             "), row);
                assertEquals(row, s.get(s.indexOf(WriteBw.RESULT_FMT) + 1), "the server prints the client's report");
            }
        }
        assertNothingLeft();
    }

    /**
     * Our ib_write_bw server against a scripted perftest 6.29 client (IB, no GID): every message
     * in perftest's order and size, written from the C format strings by hand; the server prints
     * the report the script sends.
     */
    @Test
    void writeBwServerSpeaksPerftestToAScriptedClient() throws Exception {
        int port = PeerRun.freeTcpPort();
        try (PeerRun server = new PeerRun("bw-server", o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_1", "-p",
                Integer.toString(port), "-s", "65536"))) {
            server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout((int) WAIT_MS);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                out.write(cbytes("6.29", 16));
                assertEquals("6.27", cstring(read(in, 16)), "the server's version");
                out.writeInt(4096);
                assertEquals(4096, in.readInt(), "page size");
                out.writeInt(64);
                assertEquals(64, in.readInt(), "cache line size");
                out.write(new byte[] {'5', 0});
                assertArrayEquals(new byte[] {'5', 0}, read(in, 2), "the server's MTU enum (4096)");
                String mine = String.format("%04x:%04x:%06x:%06x:%08x:%016x:%08x", 0x0001, 1, 0x000123, 0x00abcd,
                        0x1000, 0x7fff00001000L, 0);
                Pattern keys = Pattern.compile("0002:0001:([0-9a-f]{6}):([0-9a-f]{6}):([0-9a-f]{8}):([0-9a-f]{16}):00000000");
                for (int round = 0; round < 3; round++) {
                    out.write(cbytes(mine, 59));
                    Matcher m = keys.matcher(cstring(read(in, 59)));
                    assertTrue(m.matches(), "keys round " + round);
                    if (round == 0) {
                        // BUFF_SIZE = 65536, one QP: announced at buf + (1 + 0) * 65536
                        assertEquals(0x7f4a00010000L, Long.parseUnsignedLong(m.group(4), 16));
                    }
                }
                server.awaitLine(l -> l.equals(WriteBw.RESULT_FMT), WAIT_MS);
                out.write(cbytes(mine, 59));
                assertTrue(keys.matcher(cstring(read(in, 59))).matches(), "the end-of-test handshake");
                out.writeLong(65536);
                assertEquals(0, in.readLong(), "a passive server reports nothing");
                out.writeLong(5000);
                in.readLong();
                for (double d : new double[] {3165.43, 3165.12, 0.050642}) {
                    out.writeDouble(d);
                    in.readDouble();
                }
                out.write(cbytes(mine, 59));
                assertTrue(keys.matcher(cstring(read(in, 59))).matches(), "the closing handshake");
            }
            List<String> s = server.join(WAIT_MS);
            assertEquals(" 65536      5000             3165.43            3165.12\t\t     0.050642",
                    s.get(s.indexOf(WriteBw.RESULT_FMT) + 1));
        }
        assertNothingLeft();
    }

    @Test
    void writeBwRefusesPeersOlderThan570() throws Exception {
        int port = PeerRun.freeTcpPort();
        try (PeerRun server = new PeerRun("bw-server", o -> PerfCommandAccess.writeBw(net, o, "-d", "mlx4_1", "-p",
                Integer.toString(port)))) {
            server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.getOutputStream().write(cbytes("5.60", 16));
                RdmaException e = assertThrows(RdmaException.class, () -> server.join(WAIT_MS));
                assertEquals(Errno.EPROTO, e.errno());
                assertTrue(e.getMessage().contains("not compatible with versions older than 5.70"), e.getMessage());
            }
        }
        assertNothingLeft();
    }

    /**
     * Our ibv_rc_pingpong server against a client whose TCP side is written by hand from
     * rc_pingpong.c ("%04x:%06x:%06x:%s" in 52 bytes, then "done") and whose RDMA side is an
     * end of its own: the run completes with its data checked.
     */
    @Test
    void rcPingpongServerAgainstAHandWrittenClient() throws Exception {
        int port = PeerRun.freeTcpPort();
        PingpongEnd.Config cc = new PingpongEnd.Config();
        cc.device = "mlx4_0";
        cc.iters = 50;
        cc.size = 512;
        cc.validate = true;
        try (PeerRun server = new PeerRun("rc-server", o -> PerfCommandAccess.pingpong(net, o, "-d", "mlx4_1", "-p",
                Integer.toString(port), "-n", "50", "-s", "512", "-c"));
                PingpongEnd end = PingpongEnd.open(net, cc)) {
            server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            RcPair.Dest theirs;
            try (Socket s = new Socket("localhost", port)) {
                s.setSoTimeout((int) WAIT_MS);
                DataInputStream in = new DataInputStream(s.getInputStream());
                RcPair.Dest me = end.local();
                s.getOutputStream().write(cbytes(String.format("%04x:%06x:%06x:%s", me.lid(), me.qpn(), me.psn(),
                        "00000000000000000000000000000000"), 52));
                Matcher m = Pattern.compile("0002:([0-9a-f]{6}):([0-9a-f]{6}):0{32}").matcher(cstring(read(in, 52)));
                assertTrue(m.matches());
                theirs = new RcPair.Dest(2, Integer.parseInt(m.group(1), 16), Integer.parseInt(m.group(2), 16),
                        Gid.ZERO);
                s.getOutputStream().write(new byte[] {'d', 'o', 'n', 'e', 0});
            }
            end.connect(theirs);
            assertEquals(50, end.run(true).iters());
            assertEquals(4, server.join(WAIT_MS).size());
        }
        assertNothingLeft();
    }

    @Test
    void garbageFromTheClientIsEproto() throws Exception {
        int port = PeerRun.freeTcpPort();
        try (PeerRun server = new PeerRun("rc-server", o -> PerfCommandAccess.pingpong(net, o, "-d", "mlx4_1", "-p",
                Integer.toString(port)))) {
            server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.getOutputStream().write(cbytes("hello, this is not an address message at all......", 52));
                RdmaException e = assertThrows(RdmaException.class, () -> server.join(WAIT_MS));
                assertEquals(Errno.EPROTO, e.errno());
            }
        }
        assertNothingLeft();
    }

    @Test
    void aClientWithoutServerIsEconnrefused() throws Exception {
        String port = Integer.toString(PeerRun.freeTcpPort());
        RdmaException e = assertThrows(RdmaException.class, () -> PerfCommandAccess.pingpong(net,
                new PrintStream(java.io.OutputStream.nullOutputStream()), "-d", "mlx4_0", "-p", port, "127.0.0.1"));
        assertEquals(Errno.ECONNREFUSED, e.errno());
        assertTrue(e.getMessage().startsWith("ECONNREFUSED: Couldn't connect to 127.0.0.1:" + port), e.getMessage());
        e = assertThrows(RdmaException.class, () -> PerfCommandAccess.writeBw(net, System.out, "-d", "mlx4_0", "-p",
                port, "127.0.0.1"));
        assertEquals(Errno.ECONNREFUSED, e.errno());
        assertNothingLeft();
    }

    @Test
    void peerOptionErrorsAreEinval() {
        RdmaException e = assertThrows(RdmaException.class, () -> PerfCommandAccess.pingpong(net, System.out, "-d",
                "mlx4_0", "-p", "70000", "host"));
        assertEquals("EINVAL: --port must be within [1, 65535], got 70000; usage: " + PerfCommandAccess.PINGPONG_USAGE,
                e.getMessage());
        e = assertThrows(RdmaException.class, () -> PerfCommandAccess.pingpong(net, System.out, "a", "b"));
        assertEquals("EINVAL: unexpected argument 'b'; usage: " + PerfCommandAccess.PINGPONG_USAGE, e.getMessage());
        e = assertThrows(RdmaException.class, () -> PerfCommandAccess.pingpong(net, System.out, "-d", "mlx4_0",
                "--peer-device", "mlx4_1", "-e"));
        assertEquals("EINVAL: --events needs a peer process, not --peer-device; usage: "
                + PerfCommandAccess.PINGPONG_USAGE, e.getMessage());
        e = assertThrows(RdmaException.class, () -> PerfCommandAccess.udPingpong(net, System.out, "-m", "1024"));
        assertEquals("EINVAL: invalid option -- 'm'; usage: " + PerfCommandAccess.UD_PINGPONG_USAGE, e.getMessage());
        e = assertThrows(RdmaException.class, () -> PerfCommandAccess.udPingpong(net, System.out, "-d", "mlx4_7", "h"));
        assertEquals(Errno.ENODEV, e.errno());
        assertNothingLeft();
    }

    @Test
    void eventsModeRunsTheSameExchange() throws Exception {
        String port = Integer.toString(PeerRun.freeTcpPort());
        try (PeerRun server = new PeerRun("rc-server", o -> PerfCommandAccess.pingpong(net, o, "-d", "mlx4_1", "-p",
                port, "-n", "100", "-e", "-r", "8"))) {
            server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            PingpongEnd.Config c = new PingpongEnd.Config();
            c.transport = QpType.RC;
            c.device = "mlx4_0";
            c.iters = 100;
            c.events = true;
            c.rxDepth = 8;
            Pingpong.Result r = PingpongPeer.run(net, c, "127.0.0.1", Integer.parseInt(port),
                    new PrintStream(java.io.OutputStream.nullOutputStream()));
            assertEquals(100 * 4096 * 2L, r.bytes());
            server.join(WAIT_MS);
        }
        assertNothingLeft();
    }

    static byte[] cbytes(String s, int size) {
        byte[] b = new byte[size];
        byte[] t = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, b, 0, Math.min(t.length, size - 1));
        return b;
    }

    static String cstring(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    static byte[] read(DataInputStream in, int n) throws java.io.IOException {
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
