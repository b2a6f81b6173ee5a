package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.shell.internal.RcPingpongCommand;
import org.rdma.shell.internal.UdPingpongCommand;
import org.rdma.shell.internal.WriteBwCommand;
import org.rdma.verbs.Gid;
import org.rdma.rvt.testkit.Peers;

/**
 * The tools across two JVM processes over real UDP on {@code lo}: this JVM is the client with
 * one rxe device, a second JVM ({@link RxePeerMain}, started with the same {@code java} and
 * class path) the server with another, the two devices on different UDP ports, each sending to
 * the other's. ibv_rc_pingpong and ibv_ud_pingpong with their data checked ({@code -c}) and
 * ib_write_bw, each over IPv4 loopback (GID {@code ::ffff:127.0.0.1}) and IPv6 loopback
 * ({@code ::1}, skipped if {@code lo} has no {@code ::1}); the addresses go over the tools'
 * TCP exchanges. A tshark capture of the two processes' traffic decodes as RRoCE. Every wait is
 * bounded and the second process is killed whatever happens.
 */
class TwoProcessTest {
    static final long WAIT_MS = 20_000;

    int portA;
    int portB;
    CoreRxe local;
    ExecutorService clientThread;

    @BeforeEach
    void setUp() throws IOException {
        portA = freeUdpPort(0);
        // the second process gets the RoCEv2 port when it is free, so captures decode without help
        portB = udpPortFree(RxeWire.ROCE_V2_PORT) && portA != RxeWire.ROCE_V2_PORT ? RxeWire.ROCE_V2_PORT
                : freeUdpPort(portA);
        local = new CoreRxe(portA, portB, 0, 1);
        clientThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tool-client");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterEach
    void tearDown() {
        clientThread.shutdownNow();
        if (local != null) {
            local.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void rcPingpongWithDataChecked(String ip) throws Exception {
        rcPingpong(ip, "500", "4096");
        assertEquals(Map.of(), local.leftovers());
        assertEquals(0, local.rxe.rxCrcErrors());
    }

    /** One ibv_rc_pingpong run with {@code -c}, the server in the second process; checks both ends' lines. */
    void rcPingpong(String ip, String iters, String size) throws Exception {
        String g = gidIndex(ip);
        String tcp = Integer.toString(freeTcpPort());
        try (PeerProcess server = new PeerProcess(portB, portA, "ibv_rc_pingpong", "-d", "rxe0", "-g", g, "-p", tcp,
                "-n", iters, "-s", size, "-c")) {
            String serverLocal = server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            List<String> c = client(server, o -> new RcPingpongCommand(local).run(o, "-d", "rxe0", "-g", g, "-p", tcp,
                    "-n", iters, "-s", size, "-c", ip));
            List<String> s = server.finish(WAIT_MS);
            String gid = ntop(ip);
            assertTrue(c.get(0).matches("  local address:  LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID "
                    + gid.replace(".", "\\.")), c.get(0));
            assertEquals(serverLocal.replace("local address:  ", "remote address: "), c.get(1),
                    "the client learnt the server's address over TCP");
            assertEquals(c.get(0).replace("local address:  ", "remote address: "), s.get(1),
                    "the server learnt the client's address over TCP");
            String bytes = Long.toString(2L * Integer.parseInt(iters) * Integer.parseInt(size));
            assertResultLines(c.subList(2, 4), bytes, iters);
            assertResultLines(s.subList(2, 4), bytes, iters);
        }
    }

    /**
     * The traffic of both processes captured on lo (the second one on UDP port 4791 when free):
     * RC over IPv6 and IPv4 and UD, every datagram of either process in the file, all RRoCE,
     * nothing malformed, the ICRCs verified.
     */
    @Test
    void captureOfBothProcessesDecodesAsRroce(@TempDir Path dir) throws Exception {
        List<String> ips = local.gidIndex("::1") >= 0 ? List.of("::1", "127.0.0.1") : List.of("127.0.0.1");
        try (LoCapture cap = LoCapture.start(dir.resolve("two.pcap"), "udp port " + portA + " or udp port " + portB)) {
            for (String ip : ips) {
                rcPingpong(ip, "50", "3000");
            }
            udPingpong("127.0.0.1", "50", "1024");
            long datagrams = local.rxe.txPackets() + local.rxe.rxPackets();
            cap.awaitFrames(datagrams, 10_000);
            List<byte[]> frames = cap.stop();
            assertEquals(datagrams, frames.size(), "every datagram of both processes was captured");
            int[] n = cap.verify(frames, portA, portB);
            assertTrue(n[0] > 0, "IPv4 datagrams");
            assertEquals(ips.size() == 2, n[1] > 0, "IPv6 datagrams when ::1 exists");
            System.out.printf("two-process capture (ports %d and %d): %d IPv4 and %d IPv6 datagrams, all RRoCE%n",
                    portA, portB, n[0], n[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void udPingpongWithDataChecked(String ip) throws Exception {
        udPingpong(ip, "500", "2048");
        assertEquals(Map.of(), local.leftovers());
    }

    /** One ibv_ud_pingpong run with {@code -c}, the server in the second process. */
    void udPingpong(String ip, String iters, String size) throws Exception {
        String g = gidIndex(ip);
        String tcp = Integer.toString(freeTcpPort());
        try (PeerProcess server = new PeerProcess(portB, portA, "ibv_ud_pingpong", "-d", "rxe0", "-g", g, "-p", tcp,
                "-n", iters, "-s", size, "-c")) {
            String serverLocal = server.awaitLine(l -> l.startsWith("  local address:"), WAIT_MS);
            assertTrue(serverLocal.endsWith(": GID " + ntop(ip)), serverLocal);
            List<String> c = client(server, o -> new UdPingpongCommand(local).run(o, "-d", "rxe0", "-g", g, "-p", tcp,
                    "-n", iters, "-s", size, "-c", ip));
            List<String> s = server.finish(WAIT_MS);
            assertEquals(serverLocal.replace("local address:  ", "remote address: ").replace(": GID", ", GID"),
                    c.get(1));
            assertTrue(s.get(1).startsWith("  remote address: LID 0x0000, QPN "), s.get(1));
            String bytes = Long.toString(2L * Integer.parseInt(iters) * Integer.parseInt(size));
            assertResultLines(c.subList(2, 4), bytes, iters);
            assertResultLines(s.subList(2, 4), bytes, iters);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void writeBwClientReportsToTheServer(String ip) throws Exception {
        String g = gidIndex(ip);
        String tcp = Integer.toString(freeTcpPort());
        try (PeerProcess server = new PeerProcess(portB, portA, "ib_write_bw", "-d", "rxe0", "-x", g, "-p", tcp,
                "-s", "65536", "-q", "2")) {
            server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
            List<String> c = client(server, o -> new WriteBwCommand(local).run(o, "-d", "rxe0", "-x", g, "-p", tcp,
                    "-s", "65536", "-q", "2", "-n", "500", "-t", "32", ip));
            List<String> s = server.finish(WAIT_MS);
            String row = c.get(c.indexOf(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   "
                    + "MsgRate[Mpps]") + 1);
            assertTrue(row.matches(" 65536      1000             \\d+\\.\\d\\d\\s+\\d+\\.\\d\\d *\\t\\t     \\d+\\.\\d{6}\\s*"),
                    row);
            assertTrue(s.contains(row), "the server prints the client's report " + row + ": " + s);
            assertTrue(c.contains(" GID index       : " + g), c.toString());
            String gidLine = " GID: " + decimalGid(ip);
            assertEquals(4, c.stream().filter(gidLine::equals).count(), "two local and two remote QPs: " + c);
            assertEquals(4, s.stream().filter(gidLine::equals).count(), s.toString());
            System.out.printf("ib_write_bw over %s between processes:%s; client retransmitted %d packets, %d ACK "
                    + "timeouts, %d send queue back-pressure%n", ip, row, local.rxe.provider().counter(
                            org.rdma.rvt.RvtCounter.RETRANSMITTED_PKTS),
                    local.rxe.provider().counter(org.rdma.rvt.RvtCounter.ACK_TIMEOUT), local.rxe.txBusy());
        }
        assertEquals(Map.of(), local.leftovers());
        assertEquals(0, local.rxe.rxCrcErrors());
    }

    /** Runs the client side on a thread with a bounded wait; on failure or timeout the server is killed first. */
    List<String> client(PeerProcess server, Consumer<PrintStream> tool) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Future<?> f = clientThread.submit(() -> tool.accept(out));
        try {
            f.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            server.close();
            f.cancel(true);
            throw new AssertionError("the client failed (" + e + "); it printed " + bytes.toString(StandardCharsets.UTF_8)
                    + "; the server printed " + server.lines(), e instanceof ExecutionException ? e.getCause() : e);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** The GID index of {@code ip} on {@code lo} (the same in both processes); fails when {@code lo} lacks it. */
    String gidIndex(String ip) {
        int i = local.gidIndex(ip);
        Peers.require(i >= 0, ip + " is not configured on lo");
        return Integer.toString(i);
    }

    static void assertResultLines(List<String> l, String bytes, String iters) {
        assertTrue(l.get(0).matches(bytes + " bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec"), l.get(0));
        assertTrue(l.get(1).matches(iters + " iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter"), l.get(1));
    }

    /** How the tools print the GID of {@code ip} ({@code inet_ntop}). */
    static String ntop(String ip) {
        return ip.contains(":") ? ip : "::ffff:" + ip;
    }

    /** perftest's {@code PERF_GID_FMT}: the 16 GID bytes as {@code %02d}. */
    static String decimalGid(String ip) {
        byte[] g = Gid.parse(ip).bytes();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            sb.append(i == 0 ? "" : ":").append(String.format("%02d", g[i] & 0xff));
        }
        return sb.toString();
    }

    /** A UDP port other than {@code not}, free on 127.0.0.1 and, where configured, on ::1. */
    static int freeUdpPort(int not) throws IOException {
        boolean v6 = hasIpv6Loopback();
        for (int i = 0; i < 50; i++) {
            int port;
            try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET)) {
                c.bind(new InetSocketAddress("127.0.0.1", 0));
                port = ((InetSocketAddress) c.getLocalAddress()).getPort();
            }
            if (port == not) {
                continue;
            }
            if (!v6) {
                return port;
            }
            try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET6)) {
                c.bind(new InetSocketAddress("::1", port));
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free UDP port on loopback");
    }

    static boolean udpPortFree(int port) {
        try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET)) {
            c.bind(new InetSocketAddress("127.0.0.1", port));
        } catch (IOException taken) {
            return false;
        }
        if (!hasIpv6Loopback()) {
            return true;
        }
        try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            c.bind(new InetSocketAddress("::1", port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    static boolean hasIpv6Loopback() {
        try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            c.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
