package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.hca.rxe.internal.InteropSummary.JAVA_SERVER;
import static org.rdma.hca.rxe.internal.InteropSummary.LINUX_SERVER;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_GID_IPV6;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_IP4;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_IP6;
import static org.rdma.hca.rxe.internal.LinuxGuest.HOST_IP4;
import static org.rdma.hca.rxe.internal.LinuxGuest.HOST_IP6;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rdma.cm.internal.tools.Rping;
import org.rdma.shell.internal.RcPingpongCommand;
import org.rdma.shell.internal.UdPingpongCommand;
import org.rdma.shell.internal.WriteBwCommand;

/**
 * Our rxe against Linux 6.1's {@code rdma_rxe} in the VM, over IPv6 GIDs ({@code fd42::1} here,
 * {@code fd42::11}, GID index 2, in the guest), in both directions: our tools against rdma-core's
 * {@code ibv_rc_pingpong} and {@code ibv_ud_pingpong}, perftest's {@code ib_write_bw} and
 * librdmacm's {@code rping}, each as server and as client, and RC with 2 % of the RoCE packets
 * dropped each way. Every test captures the bridge: every datagram of ours and of the guest is
 * in the capture, decodes as RRoCE in tshark and carries a valid ICRC; and our device ends with
 * no ICRC error and no object left behind. The transfers are small: the guest is an emulated CPU.
 */
@ExtendWith(InteropSummary.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LinuxRxeInteropTest {
    static final long WAIT_MS = 180_000;
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in ([\\d.]+) seconds = ([\\d.]+) usec/iter");
    private static final Pattern BW_ROW = Pattern.compile(
            "\\s*(\\d+)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s*");

    static LinuxGuest guest;
    static CoreRxe local;
    /** Our IPv6 GID index (fd42::1 on the bridge). */
    static String gid;
    /** A fresh TCP port per exchange: a failed test's listener cannot hold up the next test. */
    static int nextTcpPort = 18515;

    LoCapture capture;
    long datagramsBefore;
    long crcErrorsBefore;
    /** Set by a test whose packets are dropped on purpose: the capture then lacks our dropped sends. */
    boolean lossy;

    @BeforeAll
    static void bootstrap() throws Exception {
        guest = LinuxGuest.connect();
        local = new CoreRxe(onBridge());
        int i = local.gidIndex(HOST_IP6);
        assertTrue(i >= 0, HOST_IP6 + " is not in our GID table");
        gid = Integer.toString(i);
        assertEquals(sysfsGid(GUEST_IP6), guest.run("cat /sys/class/infiniband/rxe0/ports/1/gids/" + GUEST_GID_IPV6, 60)
                .trim(), "the guest's GID " + GUEST_GID_IPV6);
    }

    /** A GID as Linux's sysfs prints it: eight groups of four hex digits. */
    static String sysfsGid(String ip) {
        byte[] g = org.rdma.verbs.Gid.parse(ip).bytes();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 16; i += 2) {
            sb.append(i == 0 ? "" : ":").append(String.format("%02x%02x", g[i] & 0xff, g[i + 1] & 0xff));
        }
        return sb.toString();
    }

    /** The device's {@code icrc_err}, as {@code rdma:statistic} reads it. */
    static long icrcErrors(CoreRxe dev) {
        Long n = dev.dev.hwStats(1).get("icrc_err");
        assertTrue(n != null, "rxe counts icrc_err: " + dev.dev.hwStats(1));
        return n;
    }

    /** Our device on the bridge, receiving on fd42::1 and 10.47.91.1 port 4791 (not the wildcard). */
    static RxeParams onBridge() {
        RxeParams p = new RxeParams();
        p.netdev = LinuxGuest.BRIDGE;
        p.bindAddresses.add(HOST_IP6);
        p.bindAddresses.add(HOST_IP4);
        p.pollMs = 1000;
        return p;
    }

    @AfterAll
    static void teardown() throws Exception {
        try {
            if (local != null) {
                local.close();
            }
        } finally {
            if (guest != null) {
                guest.close();
            }
        }
    }

    @BeforeEach
    void startCapture(@TempDir Path dir) throws Exception {
        capture = LoCapture.start(LinuxGuest.BRIDGE, dir.resolve("bridge.pcap"), "udp port " + RxeWire.ROCE_V2_PORT);
        datagramsBefore = local.rxe.txPackets() + local.rxe.rxPackets();
        crcErrorsBefore = icrcErrors(local);
    }

    /** The capture of the test: every datagram in it, each RRoCE over IPv6 with a valid ICRC. */
    @AfterEach
    void checkCapture() throws Exception {
        try (LoCapture cap = capture) {
            long datagrams = local.rxe.txPackets() + local.rxe.rxPackets() - datagramsBefore;
            cap.awaitFrames(datagrams, 20_000);
            List<byte[]> frames = cap.stop();
            if (!lossy) {
                assertEquals(datagrams, frames.size(), "every datagram we sent or received is in the capture");
            }
            int[] v4v6 = cap.verify(frames, RxeWire.ROCE_V2_PORT);
            assertEquals(0, v4v6[0], "no IPv4 datagrams");
        }
        assertEquals(crcErrorsBefore, icrcErrors(local), "no datagram with a bad ICRC reached us");
        assertEquals(Map.of(), local.leftovers(), "the tools left nothing on our device");
    }

    // ================================================================== ibv_rc_pingpong

    @ParameterizedTest(name = "ibv_rc_pingpong -s {0} -n {1}, Java server")
    @CsvSource({"4096, 200", "65536, 20"})
    @Order(1)
    void rcPingpongJavaServer(String size, String iters) throws Exception {
        String f = pingpongJavaServer("ibv_rc_pingpong", size, iters);
        InteropSummary.row("ibv_rc_pingpong -s " + size, JAVA_SERVER, f);
    }

    @ParameterizedTest(name = "ibv_rc_pingpong -s {0} -n {1}, Linux server")
    @CsvSource({"4096, 200", "65536, 20"})
    @Order(2)
    void rcPingpongLinuxServer(String size, String iters) throws Exception {
        String f = pingpongLinuxServer("ibv_rc_pingpong", size, iters);
        InteropSummary.row("ibv_rc_pingpong -s " + size, LINUX_SERVER, f);
    }

    // ================================================================== ibv_ud_pingpong

    @Test
    @Order(3)
    void udPingpongJavaServer() throws Exception {
        InteropSummary.row("ibv_ud_pingpong -s 1024", JAVA_SERVER, pingpongJavaServer("ibv_ud_pingpong", "1024", "200"));
    }

    @Test
    @Order(4)
    void udPingpongLinuxServer() throws Exception {
        InteropSummary.row("ibv_ud_pingpong -s 1024", LINUX_SERVER, pingpongLinuxServer("ibv_ud_pingpong", "1024", "200"));
    }

    /**
     * Our pingpong serves, the guest's connects: each learns the other's address over TCP (the
     * remote line of one is the local line of the other), and both count every iteration.
     */
    String pingpongJavaServer(String tool, String size, String iters) throws Exception {
        int tcp = nextTcpPort++;
        JavaTool server = JavaTool.start(tool + " server", o -> tool(tool).run(o, "-d", CoreRxe.NAME, "-g", gid, "-p",
                Integer.toString(tcp), "-s", size, "-n", iters));
        server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
        try (PeerProcess client = guest.start(tool + " -d rxe0 -g " + GUEST_GID_IPV6 + " -p " + tcp + " -s " + size
                + " -n " + iters + " " + HOST_IP4)) {
            List<String> c;
            try {
                c = client.finish(WAIT_MS);
            } catch (AssertionError e) {
                throw diagnosed(e, server);
            }
            List<String> s = server.finish(WAIT_MS);
            return pingpongChecked(tool, s, c, size, iters);
        }
    }

    /**
     * A pingpong that hung says little by itself: which end stopped is in our tool's output and
     * in both devices' counters (retries, sequence errors, duplicates, drops).
     */
    static AssertionError diagnosed(AssertionError e, JavaTool ours) {
        StringBuilder b = new StringBuilder(e.getMessage());
        b.append("\n  our tool printed ").append(ours.lines());
        ours.failureSoFar().ifPresent(f -> b.append("\n  our tool failed: ").append(f));
        b.append("\n  our counters: ").append(nonZero(local.dev.hwStats(1)));
        try {
            b.append("\n  the guest's counters: ").append(guest.run("rdma statistic show link rxe0/1", 20).trim());
        } catch (Exception | AssertionError x) {
            b.append("\n  the guest's counters: unavailable (").append(x).append(')');
        }
        AssertionError d = new AssertionError(b.toString(), e.getCause());
        d.setStackTrace(e.getStackTrace());
        return d;
    }

    private static Map<String, Long> nonZero(Map<String, Long> counters) {
        Map<String, Long> m = new TreeMap<>();
        counters.forEach((k, v) -> {
            if (v != 0) {
                m.put(k, v);
            }
        });
        return m;
    }

    /** The guest's pingpong serves, ours connects. */
    String pingpongLinuxServer(String tool, String size, String iters) throws Exception {
        int tcp = nextTcpPort++;
        try (PeerProcess server = guest.startTcpServer(tool + " -d rxe0 -g " + GUEST_GID_IPV6 + " -p " + tcp + " -s "
                + size + " -n " + iters, tcp)) {
            JavaTool client = JavaTool.start(tool + " client", o -> tool(tool).run(o, "-d", CoreRxe.NAME, "-g", gid, "-p",
                    Integer.toString(tcp), "-s", size, "-n", iters, GUEST_IP4));
            List<String> c = client.finish(WAIT_MS);
            List<String> s;
            try {
                s = server.finish(WAIT_MS);
            } catch (AssertionError e) {
                throw diagnosed(e, client);
            }
            return pingpongChecked(tool, c, s.stream().filter(l -> !l.startsWith("LISTENING")).toList(), size, iters);
        }
    }

    private static RunsTool tool(String name) {
        return "ibv_rc_pingpong".equals(name) ? (o, a) -> new RcPingpongCommand(local).run(o, a)
                : (o, a) -> new UdPingpongCommand(local).run(o, a);
    }

    interface RunsTool {
        void run(java.io.PrintStream out, String... args);
    }

    /**
     * Checks both ends' output: the address lines cross (what one sent over TCP is what the
     * other printed as remote), each side's GID is its IPv6 address, both result lines count
     * every byte and iteration. Returns the figure for the summary (our side's timing).
     */
    static String pingpongChecked(String tool, List<String> ours, List<String> linux, String size, String iters) {
        assertTrue(ours.size() >= 4 && linux.size() >= 4, "ours " + ours + ", Linux " + linux);
        String sep = tool.contains("ud") ? "[:,]" : ",";
        assertTrue(ours.get(0).matches("  local address:  LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}" + sep
                + " GID " + HOST_IP6), ours.get(0));
        assertTrue(linux.get(0).matches("  local address:  LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}" + sep
                + " GID " + GUEST_IP6), linux.get(0));
        assertEquals(remoteOf(linux.get(0)), remoteOf(ours.get(1)), "we printed the guest's address as remote");
        assertEquals(remoteOf(ours.get(0)), remoteOf(linux.get(1)), "the guest printed our address as remote");
        String bytes = Long.toString(2L * Integer.parseInt(iters) * Integer.parseInt(size));
        for (List<String> l : List.of(ours, linux)) {
            assertTrue(l.get(2).matches(bytes + " bytes in [\\d.]+ seconds = [\\d.]+ Mbit/sec"), l.toString());
            assertTrue(ITERS.matcher(l.get(3)).matches() && l.get(3).startsWith(iters + " iters"), l.toString());
        }
        Matcher m = ITERS.matcher(ours.get(3));
        assertTrue(m.matches());
        return iters + " iters of " + size + " B, " + m.group(3) + " usec/iter";
    }

    /** An address line as the other side prints it: its fields, whatever the label and separators. */
    static String remoteOf(String line) {
        return line.replaceFirst("^ *(local|remote) address: *", "").replace(": GID", ", GID");
    }

    // ================================================================== ib_write_bw

    /**
     * What the writers post: 8 KiB writes, 4 at a time per QP. Under TCG the guest takes in
     * about 2000 packets a second on a busy host, and our QPs retransmit after 67 ms (perftest's
     * timeout 14): a deeper window is still being taken in when the timer fires, go-back-N
     * resends it into the full tap queue and the retry count runs out.
     */
    static final String[] WRITES = {"-s", "8192", "-n", "200", "-t", "4"};
    static final String WRITES_TEXT = String.join(" ", WRITES);

    @ParameterizedTest(name = "ib_write_bw -q {0}, Java server")
    @CsvSource({"1", "2"})
    @Order(5)
    void writeBwJavaServer(String qps) throws Exception {
        int tcp = nextTcpPort++;
        JavaTool server = JavaTool.start("ib_write_bw server", o -> new WriteBwCommand(local).run(o, "-d", CoreRxe.NAME,
                "-x", gid, "-p", Integer.toString(tcp), "-s", "8192", "-n", "200", "-q", qps));
        server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
        try (PeerProcess client = guest.start("ib_write_bw -F -d rxe0 -x " + GUEST_GID_IPV6 + " -p " + tcp
                + " " + WRITES_TEXT + " -q " + qps + " " + HOST_IP4)) {
            List<String> c = client.finish(WAIT_MS);
            List<String> s = server.finish(WAIT_MS);
            InteropSummary.row("ib_write_bw " + WRITES_TEXT + " -q " + qps, JAVA_SERVER, writeBwChecked(c, s, qps));
        }
    }

    @ParameterizedTest(name = "ib_write_bw -q {0}, Linux server")
    @CsvSource({"1", "2"})
    @Order(6)
    void writeBwLinuxServer(String qps) throws Exception {
        int tcp = nextTcpPort++;
        try (PeerProcess server = guest.startTcpServer("ib_write_bw -F -d rxe0 -x " + GUEST_GID_IPV6 + " -p " + tcp
                + " -s 8192 -n 200 -q " + qps, tcp)) {
            List<String> args = new java.util.ArrayList<>(List.of("-d", CoreRxe.NAME, "-x", gid, "-p",
                    Integer.toString(tcp), "-q", qps));
            args.addAll(List.of(WRITES));
            args.add(GUEST_IP4);
            JavaTool client = JavaTool.start("ib_write_bw client", o -> new WriteBwCommand(local).run(o,
                    args.toArray(String[]::new)));
            List<String> c = client.finish(WAIT_MS);
            List<String> s = server.finish(WAIT_MS);
            InteropSummary.row("ib_write_bw " + WRITES_TEXT + " -q " + qps, LINUX_SERVER, writeBwChecked(c, s, qps));
        }
    }

    /**
     * Both ends print the client's result row for all the client's writes; each printed the
     * other's GIDs (perftest's decimal form) as remote. Returns the client's average bandwidth.
     */
    static String writeBwChecked(List<String> client, List<String> server, String qps) {
        Matcher c = resultRow(client);
        Matcher s = resultRow(server);
        int total = 200 * Integer.parseInt(qps);
        assertEquals("8192", c.group(1), client.toString());
        assertEquals(Integer.toString(total), c.group(2), "the client counts every write: " + client);
        assertEquals(c.group(2), s.group(2), "the server reports the client's count: " + server);
        for (List<String> l : List.of(client, server)) {
            for (String ip : List.of(HOST_IP6, GUEST_IP6)) {
                String g = " GID: " + TwoProcessTest.decimalGid(ip);
                assertEquals(Integer.parseInt(qps), l.stream().filter(g::equals).count(), g + " once per QP in " + l);
            }
        }
        double mbs = Double.parseDouble(c.group(4));
        return String.format("%d writes of 8 KiB, %.3f Gb/s (%.2f MB/sec)", total, mbs * 1048576 * 8 / 1e9, mbs);
    }

    private static Matcher resultRow(List<String> out) {
        int h = -1;
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).trim().startsWith("#bytes")) {
                h = i;
            }
        }
        assertTrue(h >= 0 && h + 1 < out.size(), "a result table in " + out);
        // perftest may print a warning between header and row ("Correlation coefficient r^2: 0.85 < 0.9"
        // when the cycle counter looked unsteady, as on a busy host)
        int r = h + 1;
        if (r + 1 < out.size() && out.get(r).startsWith("Correlation coefficient")) {
            r++;
        }
        Matcher m = BW_ROW.matcher(out.get(r));
        assertTrue(m.matches(), "a result row after the header: " + out);
        return m;
    }

    // ================================================================== rping

    @ParameterizedTest(name = "rping -C {0} -S {1}, Java server")
    @CsvSource({"100, 64", "20, 16384"})
    @Order(7)
    void rpingJavaServer(int count, int size) throws Exception {
        int port = nextTcpPort++;
        try (CmRxe cms = new CmRxe(local)) {
            Rping.Options o = new Rping.Options();
            o.addr = new InetSocketAddress(InetAddress.getByName(HOST_IP6), port);
            o.size = size;
            Rping.Session server = Rping.server(cms.cm, o);
            try (PeerProcess client = guest.start("rping -c -v -V -a " + HOST_IP6 + " -p " + port + " -C " + count
                    + " -S " + size)) {
                List<String> c = client.finish(WAIT_MS);
                Rping.Result r = server.done().get(WAIT_MS, TimeUnit.MILLISECONDS);
                assertEquals(null, r.error(), "our server: " + r);
                assertPings(c, count, size);
                InteropSummary.row("rping -S " + size + " -V", JAVA_SERVER, count + " pings validated by the guest");
            } finally {
                server.close();
            }
        }
    }

    @ParameterizedTest(name = "rping -C {0} -S {1}, Linux server")
    @CsvSource({"100, 64", "20, 16384"})
    @Order(8)
    void rpingLinuxServer(int count, int size) throws Exception {
        int port = nextTcpPort++;
        try (CmRxe cms = new CmRxe(local);
                PeerProcess server = guest.startCmServer("rping -s -d -a " + GUEST_IP6 + " -p " + port + " -C " + count
                        + " -S " + size, port)) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            Rping.Options o = new Rping.Options();
            o.out = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8);
            o.addr = new InetSocketAddress(InetAddress.getByName(GUEST_IP6), port);
            o.count = count;
            o.size = size;
            o.validate = true;
            o.verbose = true;
            Rping.Session client = Rping.client(cms.cm, o);
            Rping.Result r;
            try {
                r = client.done().get(WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("our rping client did not end; it printed " + bytes + "; the guest printed "
                        + server.lines(), e);
            } finally {
                client.close();
            }
            List<String> c = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
            assertEquals(null, r.error(), () -> "our client: " + c + "; the guest printed " + server.lines());
            assertEquals(count, r.validated(), "every ping validated");
            assertPings(c, count, size);
            List<String> s = server.finish(WAIT_MS);
            assertTrue(s.stream().anyMatch(l -> l.contains("DISCONNECT EVENT")), s.toString());
            InteropSummary.row("rping -S " + size + " -V", LINUX_SERVER, count + " pings validated by us");
        }
    }

    /** The client's {@code -v} lines: one per ping, numbered, rping's rotating pattern. */
    static void assertPings(List<String> out, int count, int size) {
        List<String> pings = out.stream().filter(l -> l.startsWith("ping data: ")).toList();
        assertEquals(count, pings.size(), out.size() > 20 ? out.subList(0, 20) + "..." : out.toString());
        assertTrue(pings.get(0).startsWith("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ"), pings.get(0));
        assertTrue(pings.get(count - 1).startsWith("ping data: rdma-ping-" + (count - 1) + ": "), pings.get(count - 1));
    }

    // ================================================================== RC under loss

    /**
     * RC pingpong with 2 % of the RoCE packets dropped in each direction (nftables in the
     * namespace: the host kernel has no netem): both ends' retransmissions recover every loss.
     * <p>
     * The loss stops after the first {@value #LOSSY_BYTES} bytes each way (about 70 % of the
     * run): {@code ibv_rc_pingpong} has no closing handshake, so each end destroys its QP as soon
     * as its own completions are in, while the ACK of its peer's last SEND may still be lost;
     * the peer then retransmits to a QP that is gone. Our rvt gives up after retry_cnt 7
     * (RETRY_EXC_ERR), Linux rxe treats 7 as "retry forever" (rxe_comp.c) and hangs. Two Linux
     * peers have the same race; measured here before this tail: 2 of 20 runs.
     */
    static final int LOSSY_BYTES = 600_000;

    @ParameterizedTest(name = "ibv_rc_pingpong under 2 % loss, {0}")
    @CsvSource({"java", "linux"})
    @Order(9)
    void rcPingpongUnderLoss(String serverSide) throws Exception {
        lossy = true;
        Nft.run("add table inet interop_loss\n"
                + "add chain inet interop_loss in { type filter hook input priority 0; }\n"
                + "add chain inet interop_loss out { type filter hook output priority 0; }\n"
                + "add rule inet interop_loss in udp dport 4791 quota over " + LOSSY_BYTES + " bytes accept\n"
                + "add rule inet interop_loss in udp dport 4791 numgen random mod 100 < 2 counter drop\n"
                + "add rule inet interop_loss out udp dport 4791 quota over " + LOSSY_BYTES + " bytes accept\n"
                + "add rule inet interop_loss out udp dport 4791 numgen random mod 100 < 2 counter drop\n");
        String f;
        long[] dropped;
        try {
            f = "java".equals(serverSide) ? pingpongJavaServer("ibv_rc_pingpong", "4096", "200")
                    : pingpongLinuxServer("ibv_rc_pingpong", "4096", "200");
            dropped = Nft.counters("inet interop_loss");
        } finally {
            Nft.run("delete table inet interop_loss\n");
        }
        assertTrue(dropped[0] > 0 && dropped[1] > 0, "packets were dropped both ways: " + dropped[0] + ", " + dropped[1]);
        InteropSummary.row("ibv_rc_pingpong -s 4096, 2 % loss", "java".equals(serverSide) ? JAVA_SERVER : LINUX_SERVER,
                f + ", dropped " + dropped[0] + " to us and " + dropped[1] + " from us");
    }
}
