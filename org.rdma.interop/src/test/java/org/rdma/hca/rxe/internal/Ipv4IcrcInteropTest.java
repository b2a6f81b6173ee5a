package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.hca.rxe.internal.InteropSummary.JAVA_SERVER;
import static org.rdma.hca.rxe.internal.InteropSummary.LINUX_SERVER;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_GID_IPV4;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_IP4;
import static org.rdma.hca.rxe.internal.LinuxGuest.HOST_IP4;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.shell.internal.WriteBwCommand;
import org.rdma.verbs.wire.Icrc;

/**
 * What goes wrong over IPv4 GIDs between our rxe and Linux 6.1's, measured on the bridge: the
 * RoCEv2 ICRC covers the IPv4 Identification field. Linux rxe sends with DF set and an
 * Identification from {@code __ip_select_ident()} and computes its ICRC over that value; we
 * compute ours as if the Identification were 0, while the host kernel puts its own in the
 * header of our UDP socket's datagrams. So each side drops every packet of the other as a bad
 * ICRC: on our side visibly, as the {@code icrc_err} counter {@code rdma:statistic} shows;
 * on Linux's silently, as no counter of its {@code rdma statistic} moves. Both runs use
 * {@code ib_write_bw}, whose server ends when its client gives up.
 */
@ExtendWith(InteropSummary.class)
class Ipv4IcrcInteropTest {
    static final long WAIT_MS = 120_000;
    static final int DF = 0x4000;

    static LinuxGuest guest;
    static CoreRxe local;
    /** Our GID index of {@code ::ffff:10.47.91.1}. */
    static String gid4;

    @BeforeAll
    static void bootstrap() throws Exception {
        guest = LinuxGuest.connect();
        local = new CoreRxe(LinuxRxeInteropTest.onBridge());
        int i = local.gidIndex(HOST_IP4);
        assertTrue(i >= 0, HOST_IP4 + " is not in our GID table");
        gid4 = Integer.toString(i);
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

    /** One captured IPv4 RoCE datagram: who sent it, its Identification and DF, which ICRC it carries. */
    record Datagram(String src, int id, boolean df, boolean icrcWithId, boolean icrcWithIdZero) {
        static Datagram of(byte[] fr) {
            assertEquals(0x0800, (fr[12] & 0xFF) << 8 | fr[13] & 0xFF, "IPv4");
            int tot = (fr[16] & 0xFF) << 8 | fr[17] & 0xFF;
            int id = (fr[18] & 0xFF) << 8 | fr[19] & 0xFF;
            int flags = (fr[20] & 0xFF) << 8 | fr[21] & 0xFF;
            String src = (fr[26] & 0xFF) + "." + (fr[27] & 0xFF) + "." + (fr[28] & 0xFF) + "." + (fr[29] & 0xFF);
            byte[] zero = fr.clone();
            zero[18] = 0;
            zero[19] = 0;
            return new Datagram(src, id, (flags & DF) != 0, Icrc.verifyRoceV2(fr, 14, tot),
                    Icrc.verifyRoceV2(zero, 14, tot));
        }
    }

    /** Stops the capture once it holds {@code atLeast} frames (bounded), checks tshark's decoding, returns the datagrams. */
    static List<Datagram> capture(LoCapture cap, long atLeast) throws Exception {
        cap.awaitFrames(atLeast, 20_000);
        List<byte[]> frames = cap.stop();
        cap.verifyDecodes(frames);
        List<Datagram> l = new ArrayList<>();
        for (byte[] f : frames) {
            l.add(Datagram.of(f));
        }
        return l;
    }

    /**
     * Checks what {@code sender} put on the wire: every datagram from it, DF set, its ICRC
     * computed over the Identification it carries ({@code overWireId}) or over 0; the other
     * choice fails wherever the Identification is not 0. Returns the figure for the summary.
     */
    static String checkDatagrams(List<Datagram> seen, String sender, boolean overWireId) {
        assertTrue(!seen.isEmpty(), "datagrams from " + sender);
        TreeSet<Integer> ids = new TreeSet<>();
        for (Datagram d : seen) {
            assertEquals(sender, d.src, "only " + sender + " sends: " + d);
            assertTrue(d.df, "DF set: " + d);
            assertTrue(overWireId ? d.icrcWithId : d.icrcWithIdZero, "ICRC over " + (overWireId ? "its" : "a zero")
                    + " Identification: " + d);
            if (d.id != 0) {
                assertTrue(overWireId ? !d.icrcWithIdZero : !d.icrcWithId, "the other ICRC fails: " + d);
            }
            ids.add(d.id);
        }
        assertTrue(ids.size() > seen.size() / 2, "Identifications vary: " + ids);
        return String.format("%d datagrams, DF, Identification 0x%04x..0x%04x, ICRC over %s", seen.size(), ids.first(),
                ids.last(), overWireId ? "it" : "0");
    }

    /**
     * Linux's client writes to our server over IPv4: every datagram it sends verifies only with
     * its own Identification, and every one is counted here as an ICRC error and goes no
     * further. Linux rxe 6.1 retries without end (retry count 7 means unlimited in its
     * completer), so the guest's {@code timeout} ends the client, and our server then ends on
     * the closed TCP connection.
     */
    @Test
    void linuxIpv4DatagramsAreIcrcErrorsHere(@TempDir Path dir) throws Exception {
        int tcp = 18715;
        long crcBefore = LinuxRxeInteropTest.icrcErrors(local);
        long rxBefore = local.rxe.rxPackets();
        List<Datagram> seen;
        List<String> c;
        try (LoCapture cap = LoCapture.start(LinuxGuest.BRIDGE, dir.resolve("v4.pcap"), "udp port 4791")) {
            JavaTool server = JavaTool.start("ib_write_bw server", o -> new WriteBwCommand(local).run(o, "-d",
                    CoreRxe.NAME, "-x", gid4, "-p", Integer.toString(tcp), "-s", "1024", "-n", "20"));
            server.awaitLine(l -> l.contains("Waiting for client to connect"), WAIT_MS);
            try (PeerProcess client = guest.start("timeout " + LINUX_RETRY_S + " ib_write_bw -F -d rxe0 -x "
                    + GUEST_GID_IPV4 + " -p " + tcp + " -s 1024 -n 20 -t 1 " + HOST_IP4 + "; echo exit status $?")) {
                c = client.finish(WAIT_MS);
            }
            server.failure(WAIT_MS);
            // the capture ends once it holds every datagram our device has seen by now
            seen = capture(cap, LinuxRxeInteropTest.icrcErrors(local) - crcBefore);
        }
        assertEquals("exit status 124", c.get(c.size() - 1), "Linux retried until the guest's timeout: " + c);
        String f = checkDatagrams(seen, GUEST_IP4, true);
        long dropped = awaitCrcErrors(crcBefore + seen.size()) - crcBefore;
        assertEquals(seen.size(), dropped, "every datagram from Linux is an ICRC error here");
        assertEquals(rxBefore, local.rxe.rxPackets(), "none reached the transport");
        assertEquals(java.util.Map.of(), local.leftovers(), "our failed server left nothing");
        InteropSummary.row("ib_write_bw over IPv4 GIDs", JAVA_SERVER, "Linux sent " + f + "; icrc_err here +" + dropped
                + ", nothing received");
    }

    /** How long the guest lets its client retry. */
    static final int LINUX_RETRY_S = 10;

    /** Waits (bounded) for our receive thread to have counted {@code n} ICRC errors in all; returns the count. */
    static long awaitCrcErrors(long n) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (LinuxRxeInteropTest.icrcErrors(local) < n && System.nanoTime() - deadline < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
        }
        return LinuxRxeInteropTest.icrcErrors(local);
    }

    /**
     * Our client writes to Linux's server over IPv4: Linux drops every datagram without a
     * trace (no counter of its {@code rdma statistic} moves, no NAK, no log line), and our
     * client's writes end in RETRY_EXC_ERR.
     */
    @Test
    void ourIpv4DatagramsAreDroppedByLinux(@TempDir Path dir) throws Exception {
        int tcp = 18716;
        String stats = "rdma statistic show link rxe0/1; dmesg | grep -ci icrc || true";
        String before = guest.run(stats, 60);
        List<Datagram> seen;
        try (LoCapture cap = LoCapture.start(LinuxGuest.BRIDGE, dir.resolve("v4.pcap"), "udp port 4791");
                PeerProcess server = guest.startTcpServer("ib_write_bw -F -d rxe0 -x " + GUEST_GID_IPV4 + " -p " + tcp
                        + " -s 1024 -n 20; echo exit status $?", tcp)) {
            long tx = local.rxe.txPackets();
            JavaTool client = JavaTool.start("ib_write_bw client", o -> new WriteBwCommand(local).run(o, "-d",
                    CoreRxe.NAME, "-x", gid4, "-p", Integer.toString(tcp), "-s", "1024", "-n", "20", "-t", "1", GUEST_IP4));
            Throwable t = client.failure(WAIT_MS);
            assertTrue(String.valueOf(t.getMessage()).contains("RETRY_EXC_ERR"), "our writes were never acknowledged: "
                    + t + "; we printed " + client.lines() + "; the guest printed " + server.lines());
            seen = capture(cap, local.rxe.txPackets() - tx);
            server.finish(WAIT_MS);
        }
        String f = checkDatagrams(seen, HOST_IP4, false);
        assertEquals(before, guest.run(stats, 60), "Linux counted and logged nothing");
        assertEquals(java.util.Map.of(), local.leftovers(), "our failed client left nothing");
        InteropSummary.row("ib_write_bw over IPv4 GIDs", LINUX_SERVER, "we sent " + f
                + "; Linux dropped all silently (rdma statistic unchanged); our writes: RETRY_EXC_ERR");
    }
}
