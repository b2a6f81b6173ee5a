package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rdma.cm.internal.tools.MckeyCommand;
import org.rdma.verbs.Gid;

/**
 * The RDMA CM's multicast join over rxe ({@code cma_iboe_join_multicast()}: no SA, the MGID the
 * IPv4-mapped group address, Q_Key {@code RDMA_UDP_QKEY}) between two devices on {@code lo}, each
 * with its own connection managers, as two processes would have them: mckey receives on one and
 * sends from the other (a send-only member), and the receiving device joins the IP group for the
 * CM's QP and leaves it with the CM.
 */
class RxeCmMulticastTest {
    private static final String GROUP = "239.77.2.1";

    private static List<String> lines(ByteArrayOutputStream b) {
        return Arrays.asList(b.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void mckeyOverTheRdmaCm() throws Exception {
        int pa = Pair.freePort();
        int pb;
        do {
            pb = Pair.freePort();
        } while (pb == pa);
        try (CoreRxe a = new CoreRxe(pa, pb, 0, 1); CoreRxe b = new CoreRxe(pb, pa, 0, 1);
                CmRxe cma = new CmRxe(a); CmRxe cmb = new CmRxe(b)) {
            java.util.Map<String, Integer> cmsA = a.leftovers();
            java.util.Map<String, Integer> cmsB = b.leftovers();
            ByteArrayOutputStream rbuf = new ByteArrayOutputStream();
            ByteArrayOutputStream sbuf = new ByteArrayOutputStream();
            CompletableFuture<Integer> receiver = CompletableFuture.supplyAsync(() -> {
                try {
                    return new MckeyCommand(cmb.cm, b.clock).run(new PrintStream(rbuf, true, StandardCharsets.UTF_8),
                            "-m", GROUP, "-b", "127.0.0.1", "-C", "20", "-S", "1000", "--timeout", "20", "--pause", "100");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            String joined = "mckey: joined dgid: ::ffff:" + GROUP + " mlid 0x0 sl 0";
            Pair.await(() -> lines(rbuf).contains(joined), 10_000, "the receiver to join: " + rbuf);
            assertEquals(Set.of(Gid.parse("::ffff:" + GROUP)), b.rxe.mcastGroups(), "the CM's QP joined the group");
            int status = new MckeyCommand(cma.cm, a.clock).run(new PrintStream(sbuf, true, StandardCharsets.UTF_8),
                    "-m", GROUP, "-b", "127.0.0.1", "-s", "-o", "-C", "20", "-S", "1000", "--pause", "100");
            assertEquals(0, status, sbuf.toString(StandardCharsets.UTF_8));
            assertEquals(0, (int) receiver.get(30, TimeUnit.SECONDS), rbuf.toString(StandardCharsets.UTF_8));
            assertEquals(List.of("mckey: starting server", "mckey: joining", joined, "receiving data transfers",
                    "data transfers complete", "test complete", "return status 0"), lines(rbuf));
            assertEquals(List.of("mckey: starting client", "mckey: joining", joined, "initiating data transfers",
                    "data transfers complete", "test complete", "return status 0"), lines(sbuf));
            assertEquals(0, a.rxe.mcastJoins(), "a send-only member (-o) is not attached, so it joins nothing");
            assertEquals(1, b.rxe.mcastJoins());
            assertEquals(1, b.rxe.mcastLeaves(), "leaving the group left the IP group");
            assertEquals(Set.of(), b.rxe.mcastGroups());
            assertEquals(0, a.rxe.rxCrcErrors() + b.rxe.rxCrcErrors());
            Pair.await(() -> a.leftovers().equals(cmsA) && b.leftovers().equals(cmsB), 5000,
                    "mckey left nothing beside the CMs' own objects " + cmsA + ": " + a.leftovers() + " " + b.leftovers());
        }
    }
}
