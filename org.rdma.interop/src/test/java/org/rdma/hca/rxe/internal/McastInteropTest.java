package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_IP4;
import static org.rdma.hca.rxe.internal.LinuxGuest.GUEST_IP6;
import static org.rdma.hca.rxe.internal.LinuxGuest.HOST_IP4;
import static org.rdma.hca.rxe.internal.LinuxGuest.HOST_IP6;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.cm.internal.tools.MckeyCommand;
import org.rdma.verbs.Gid;

/**
 * Multicast through the RDMA CM between our rxe and Linux 6.1's: {@code mckey} from rdmacm-utils
 * in the guest and our {@code rdma:mckey}, one sending to the group, the other receiving.
 *
 * <p>Linux 6.1's RDMA CM joins only IPv4 groups on a RoCE v2 port ({@code cma_iboe_join_multicast()}
 * refuses IPv6 ones with {@code -ENOTSUPP}, 524), so the datagrams are IPv4, and their ICRC covers
 * the IPv4 Identification: Linux's, from {@code __ip_select_ident()}, our receiver recovers from
 * the ICRC ({@link Ipv4Ident}); ours, which the host kernel chooses for our socket and Java can
 * neither read nor set, Linux checks as it is and drops (see {@link Ipv4IcrcInteropTest}). Each
 * direction is measured on the bridge's capture.
 */
@ExtendWith(InteropSummary.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McastInteropTest {
    static final long WAIT_MS = 120_000;
    static final String LINUX_SENDS = "Linux sender, Java receiver";
    static final String JAVA_SENDS = "Java sender, Linux receiver";
    static final int COUNT = 20;
    static final int SIZE = 1000;

    static LinuxGuest guest;
    static CoreRxe local;

    @BeforeAll
    static void bootstrap() throws Exception {
        guest = LinuxGuest.connect();
        local = new CoreRxe(LinuxRxeInteropTest.onBridge());
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

    static String joined(String group) {
        return "mckey: joined dgid: ::ffff:" + group + " mlid 0x0 sl 0";
    }

    private static JavaTool ourMckey(CmRxe cms, String... args) {
        return JavaTool.start("mckey " + String.join(" ", args), o -> {
            int status = new MckeyCommand(cms.cm, local.clock).run(o, args);
            if (status != 0) {
                throw new AssertionError("return status " + status);
            }
        });
    }

    /** Our datagrams' and the guest's, as captured: {Java's, Linux's}, each checked to be to {@code group}. */
    static List<List<Ipv4IcrcInteropTest.Datagram>> split(List<byte[]> frames, String group) {
        List<Ipv4IcrcInteropTest.Datagram> ours = new java.util.ArrayList<>();
        List<Ipv4IcrcInteropTest.Datagram> linux = new java.util.ArrayList<>();
        for (byte[] f : frames) {
            String dst = (f[30] & 0xFF) + "." + (f[31] & 0xFF) + "." + (f[32] & 0xFF) + "." + (f[33] & 0xFF);
            assertEquals(group, dst, "every datagram goes to the group");
            Ipv4IcrcInteropTest.Datagram d = Ipv4IcrcInteropTest.Datagram.of(f);
            (d.src().equals(HOST_IP4) ? ours : linux).add(d);
        }
        return List.of(ours, linux);
    }

    /** The number in {@code rcvd_pkts N}. */
    static long number(String counter) {
        return Long.parseLong(counter.trim().replaceAll("\\D+", ""));
    }

    static String ids(List<Ipv4IcrcInteropTest.Datagram> ds) {
        TreeSet<Integer> ids = new TreeSet<>();
        ds.forEach(d -> ids.add(d.id()));
        return String.format("Identification 0x%04x..0x%04x", ids.first(), ids.last());
    }

    @Test
    @Order(1)
    void linuxSendsJavaReceives(@TempDir Path dir) throws Exception {
        String group = "239.47.91.1";
        long recovered = local.rxe.rxIdentRecovered();
        List<byte[]> frames;
        List<String> ours;
        List<String> linux;
        try (CmRxe cms = new CmRxe(local);
                LoCapture cap = LoCapture.start(LinuxGuest.BRIDGE, dir.resolve("mc.pcap"), "udp port 4791")) {
            JavaTool receiver = ourMckey(cms, "-m", group, "-b", HOST_IP4, "-C", Integer.toString(COUNT), "-S",
                    Integer.toString(SIZE), "--timeout", "100");
            receiver.awaitLine(joined(group)::equals, WAIT_MS);
            assertEquals(java.util.Set.of(Gid.parse("::ffff:" + group)), local.rxe.mcastGroups(),
                    "our device joined the IP group for the CM's QP");
            try (PeerProcess sender = guest.start("mckey -m " + group + " -b " + GUEST_IP4 + " -s -C " + COUNT + " -S "
                    + SIZE)) {
                linux = sender.finish(WAIT_MS);
            }
            ours = receiver.finish(WAIT_MS);
            cap.awaitFrames(COUNT, 20_000);
            frames = cap.stop();
            cap.verifyDecodes(frames);
        }
        assertEquals(List.of("mckey: starting server", "mckey: joining", joined(group), "receiving data transfers",
                "data transfers complete", "test complete", "return status 0"), ours);
        assertEquals(List.of("mckey: starting client", "mckey: joining", joined(group), "initiating data transfers",
                "data transfers complete", "test complete", "return status 0"), linux);
        List<List<Ipv4IcrcInteropTest.Datagram>> by = split(frames, group);
        assertEquals(0, by.get(0).size(), "we sent nothing");
        assertEquals(COUNT, by.get(1).size(), "the guest's datagrams");
        for (Ipv4IcrcInteropTest.Datagram d : by.get(1)) {
            assertTrue(d.df() && d.icrcWithId(), "DF, ICRC over its own Identification: " + d);
        }
        assertEquals(COUNT, local.rxe.rxIdentRecovered() - recovered, "each taken with the Identification recovered");
        assertEquals(java.util.Set.of(), local.rxe.mcastGroups(), "our device left the group");
        InteropSummary.row("mckey -C " + COUNT + " -S " + SIZE + " (IPv4 group)", LINUX_SENDS, COUNT
                + " datagrams received, " + ids(by.get(1)) + " recovered from the ICRC");
    }

    @Test
    @Order(2)
    void javaSendsLinuxDropsAsIcrcErrors(@TempDir Path dir) throws Exception {
        String group = "239.47.91.2";
        String rcvd = "rdma statistic show link rxe0/1 | grep -o 'rcvd_pkts [0-9]*'";
        String before = guest.run(rcvd, 60);
        List<byte[]> frames;
        List<String> ours;
        List<String> linux;
        try (CmRxe cms = new CmRxe(local);
                LoCapture cap = LoCapture.start(LinuxGuest.BRIDGE, dir.resolve("mc.pcap"), "udp port 4791");
                PeerProcess receiver = guest.start("timeout 20 mckey -m " + group + " -b " + GUEST_IP4 + " -C " + COUNT
                        + " -S " + SIZE + "; echo exit status $?")) {
            receiver.awaitLine(joined(group)::equals, WAIT_MS);
            long tx = local.rxe.txPackets();
            JavaTool sender = ourMckey(cms, "-m", group, "-b", HOST_IP4, "-s", "-C", Integer.toString(COUNT), "-S",
                    Integer.toString(SIZE));
            ours = sender.finish(WAIT_MS);
            linux = receiver.finish(WAIT_MS);
            cap.awaitFrames(local.rxe.txPackets() - tx, 20_000);
            frames = cap.stop();
            cap.verifyDecodes(frames);
        }
        assertEquals(List.of("mckey: starting client", "mckey: joining", joined(group), "initiating data transfers",
                "data transfers complete", "test complete", "return status 0"), ours);
        assertEquals(List.of("mckey: starting server", "mckey: joining", joined(group), "receiving data transfers",
                "exit status 124"), linux, "the guest's receiver got nothing and waited until its timeout");
        List<List<Ipv4IcrcInteropTest.Datagram>> by = split(frames, group);
        assertEquals(COUNT, by.get(0).size(), "our datagrams");
        for (Ipv4IcrcInteropTest.Datagram d : by.get(0)) {
            assertTrue(d.df() && d.icrcWithIdZero(), "DF, ICRC over Identification 0: " + d);
            if (d.id() != 0) {
                assertTrue(!d.icrcWithId(), "so it fails over the one on the wire: " + d);
            }
        }
        // rcvd_pkts counts every RoCE packet rxe took, CM MADs of earlier tests' connections too
        long counted = number(guest.run(rcvd, 60)) - number(before);
        assertTrue(counted < COUNT, "Linux dropped ours before counting rcvd_pkts (+" + counted + "): " + by.get(0));
        InteropSummary.row("mckey -C " + COUNT + " -S " + SIZE + " (IPv4 group)", JAVA_SENDS, COUNT
                + " datagrams sent, DF, " + ids(by.get(0)) + ", ICRC over 0; Linux dropped all (ICRC), its mckey timed out");
    }

    @Test
    @Order(3)
    void ipv6GroupsAreRefusedOnBothSides() throws Exception {
        String group = "ff0e::47:91";
        List<String> linux;
        try (PeerProcess p = guest.start("mckey -m " + group + " -b " + GUEST_IP6 + " -C 1; echo exit status $?")) {
            linux = p.finish(WAIT_MS);
        }
        assertTrue(linux.contains("mckey: failure joining: Unknown error 524"), "Linux: ENOTSUPP: " + linux);
        List<String> ours;
        try (CmRxe cms = new CmRxe(local)) {
            JavaTool t = JavaTool.start("mckey -m " + group, o -> new MckeyCommand(cms.cm, local.clock).run(o, "-m", group,
                    "-b", HOST_IP6, "-C", "1"));
            ours = t.finish(WAIT_MS);
        }
        assertTrue(ours.stream().anyMatch(l -> l.startsWith("mckey: failure joining: EOPNOTSUPP")), "ours: " + ours);
        assertTrue(ours.get(ours.size() - 1).matches("return status -\\d+"), ours.toString());
        InteropSummary.row("mckey -m " + group + " (IPv6 group)", "both", "refused by both RDMA CMs on RoCE v2 (Linux:"
                + " error 524 ENOTSUPP, ours: EOPNOTSUPP)");
    }
}
