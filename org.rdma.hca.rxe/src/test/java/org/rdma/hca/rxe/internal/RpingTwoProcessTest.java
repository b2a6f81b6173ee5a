package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.cm.internal.tools.Rping;
import org.rdma.rvt.testkit.Peers;

/**
 * rping between two JVM processes over rxe on {@code lo}, the whole connection path on the wire:
 * the second process ({@link RxePeerMain} with {@code rping -s}) serves, this one connects with
 * {@link Rping} and validates every ping. Address and route resolution find the rxe port that
 * owns the loopback address; the IB CM's REQ, REP and RTU and the DREQ/DREP travel as MADs on
 * QP1 of each rxe device (RoCEv2 datagrams with a GRH between the two UDP ports); the pings are
 * RC SENDs, RDMA READs and WRITEs. Over IPv4 ({@code 127.0.0.1}) and IPv6 ({@code ::1}, skipped
 * when {@code lo} lacks it). The peer is killed whatever happens.
 */
class RpingTwoProcessTest {
    static final int PINGS = 1000;

    int portA;
    int portB;
    CoreRxe local;
    CmRxe cms;

    @BeforeEach
    void setUp() throws IOException {
        portA = TwoProcessTest.freeUdpPort(0);
        portB = TwoProcessTest.freeUdpPort(portA);
        local = new CoreRxe(portA, portB, 0, 1);
        cms = new CmRxe(local);
    }

    @AfterEach
    void tearDown() {
        try {
            if (cms != null) {
                cms.close();
            }
        } finally {
            local.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void rpingValidatesEveryPingAcrossProcesses(String ip) throws Exception {
        Peers.require(local.gidIndex(ip) >= 0, ip + " is not configured on lo");
        Rping.Result r = rping(ip, PINGS);
        System.out.printf("rping over %s between processes: %d pings validated; client device sent %d and "
                + "received %d datagrams%n", ip, r.validated(), local.rxe.txPackets(), local.rxe.rxPackets());
        cms.close();
        cms = null;
        assertEquals(Map.of(), local.leftovers(), "the CMs and the MAD layer left nothing on the device");
        assertEquals(0, local.rxe.rxCrcErrors());
    }

    /**
     * The connection's MADs as captured on lo: the IB CM's REQ, REP, RTU, DREQ and DREP (class
     * 0x07), each a UD SEND to QP1 with the GSI Q_Key from QP1, the RDMA CM's service ID (port
     * space TCP, the rping port) in the REQ; the capture verifies as RRoCE throughout.
     */
    @Test
    void connectionMadsTravelOnQp1(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("rping.pcap");
        try (LoCapture cap = LoCapture.start(pcap, "udp port " + portA + " or udp port " + portB)) {
            rping("127.0.0.1", 10);
            long datagrams = local.rxe.txPackets() + local.rxe.rxPackets();
            cap.awaitFrames(datagrams, 10_000);
            List<byte[]> frames = cap.stop();
            assertEquals(datagrams, frames.size(), "every datagram of both processes was captured");
            cap.verify(frames, portA, portB);
        }
        String mads = CaptureTest.run(List.of("tshark", "-n", "-r", pcap.toString(), "-d",
                "udp.port==" + portA + ",infiniband", "-d", "udp.port==" + portB + ",infiniband", "-Y",
                "infiniband.mad", "-T", "fields", "-E", "separator=,", "-e", "infiniband.bth.destqp", "-e",
                "infiniband.deth.srcqp", "-e", "infiniband.deth.q_key", "-e", "infiniband.mad.mgmtclass", "-e",
                "infiniband.mad.attributeid", "-e", "infiniband.cm.req.serviceid"));
        String sid = String.format("0x%016x", 0x0000000001060000L | Rping.PORT);
        assertEquals(List.of("0x000001,0x00000001,0x0000000080010000,0x07,0x0010," + sid,
                "0x000001,0x00000001,0x0000000080010000,0x07,0x0013,",
                "0x000001,0x00000001,0x0000000080010000,0x07,0x0014,",
                "0x000001,0x00000001,0x0000000080010000,0x07,0x0015,",
                "0x000001,0x00000001,0x0000000080010000,0x07,0x0016,"), mads.trim().lines().toList(),
                "REQ, REP, RTU, DREQ, DREP on QP1");
    }

    /**
     * One rping: the server ({@code rping -s -d}) in the second process, the client here with
     * {@code count} validated pings; checks both ends and returns the client's result.
     */
    Rping.Result rping(String ip, int count) throws Exception {
        String port = Integer.toString(Rping.PORT);
        try (PeerProcess server = new PeerProcess(portB, portA, "rping", "-s", "-d", "-a", ip, "-p", port,
                "--timeout", "30")) {
            server.awaitLine("rdma_listen"::equals, TwoProcessTest.WAIT_MS);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            Rping.Options o = new Rping.Options();
            o.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            o.addr = new InetSocketAddress(InetAddress.getByName(ip), Rping.PORT);
            o.count = count;
            o.validate = true;
            o.verbose = true;
            Rping.Session client = Rping.client(cms.cm, o);
            Rping.Result r;
            try {
                r = client.done().get(TwoProcessTest.WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                server.close();
                throw new AssertionError("rping client not done within " + TwoProcessTest.WAIT_MS + " ms; it printed "
                        + bytes.toString(StandardCharsets.UTF_8) + "; the server printed " + server.lines(), e);
            } finally {
                client.close();
            }
            List<String> c = bytes.toString(StandardCharsets.UTF_8).lines().toList();
            assertNull(r.error(), () -> "client failed: " + c + "; the server printed " + server.lines());
            assertEquals(count, r.pings());
            assertEquals(count, r.validated(), "every ping validated");
            List<String> pings = c.stream().filter(l -> l.startsWith("ping data: ")).toList();
            assertEquals(count, pings.size(), c.toString());
            assertEquals("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr", pings.get(0));
            assertTrue(pings.get(count - 1).startsWith("ping data: rdma-ping-" + (count - 1) + ": "),
                    pings.get(count - 1));
            List<String> s = server.finish(TwoProcessTest.WAIT_MS);
            assertTrue(s.contains("accepting client connection request"), s.toString());
            assertTrue(s.contains("server DISCONNECT EVENT..."), s.toString());
            return r;
        }
    }
}
