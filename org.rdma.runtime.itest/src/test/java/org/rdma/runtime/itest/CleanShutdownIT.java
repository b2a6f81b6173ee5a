package org.rdma.runtime.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.rdma.runtime.itest.support.Gogo;
import org.rdma.runtime.itest.support.LogCapture;
import org.rdma.runtime.itest.support.Platform;

/**
 * A clean shutdown of the embedded runtime: after the traffic of {@code ./rdma demo} (RC
 * ping-pong over RoCE and InfiniBand, rping through the RDMA CM over both, whose InfiniBand
 * route comes from a PathRecord query through the SA client, ucmatose connections through the
 * IB CM, saquery through the user-MAD API) the bundles are stopped as the framework stops them,
 * and nothing may have outlived its client: no object for the core to reap ("left by clients"),
 * no PD the MAD layer could not free (EBUSY). The same when {@code rdma:driver-unload} takes the
 * driver away under a running {@code ib_write_bw}.
 *
 * <p>The order in which the framework tells the core and SCR that a service is going is not
 * defined (each start gives every bundle a new context, and the listeners are called in their
 * contexts' hash order), so a client that relied on it would leave its objects behind in some
 * starts and not others: the stop is repeated over {@link #CYCLES} starts.
 */
class CleanShutdownIT {
    /** Starts and stops of the whole runtime; one wrong order among them fails the test. */
    static final int CYCLES = 6;
    /** GIDs of the InfiniBand ports of host-a and host-b (org.rdma.runtime/etc). */
    static final String GID_A = "fe80::2:c903:0:a01";
    static final String GID_B = "fe80::2:c903:0:b01";

    @InjectBundleContext
    BundleContext bc;

    private LogCapture log;
    private Platform platform;

    @BeforeEach
    void capture() {
        log = LogCapture.start();
        platform = Platform.of(bc);
    }

    @AfterEach
    void release() {
        log.close();
    }

    @Test
    void trafficThenStopLeavesNothingBehind() throws Exception {
        for (int cycle = 1; cycle <= CYCLES; cycle++) {
            try (Gogo g = Gogo.open(bc)) {
                awaitFabric(g);
                expect(g.run("ibv_rc_pingpong -d mlx4_0 -i 2 -g 1 --peer-device mlx4_1 -i 2 -n 100 -s 4096"),
                        "100 iters in");
                expect(g.run("ibv_rc_pingpong -d mlx4_0 -i 1 --peer-device mlx4_1 -i 1 -n 100 -s 4096"),
                        "100 iters in");
                expect(g.run("rdma:rping --loopback -a 192.168.10.1 -I 192.168.10.2 -C 100 -V"), ", 100 validated");
                expect(g.run("rdma:rping --loopback -f gid -a " + GID_A + " -I " + GID_B + " -C 100 -V"),
                        ", 100 validated");
                String ucmatose = g.run("rdma:ucmatose --loopback -f gid -s " + GID_A + " -b " + GID_B
                        + " -c 5 -C 5");
                assertEquals(2, ucmatose.split("\nreturn status 0\n", -1).length - 1, ucmatose);
                expect(g.run("saquery"), "NodeDescription.........sw0");
            }
            platform.stop();
            List<String> left = log.matching(LogCapture.LEFT_BEHIND);
            platform.start();
            assertEquals(List.of(), left, "stop " + cycle + " of " + CYCLES + ": resources outlived their clients");
        }
    }

    @Test
    void driverRemovalUnderTrafficLeavesNothingBehind() throws Exception {
        try (Gogo g = Gogo.open(bc); Gogo writer = Gogo.open(bc)) {
            awaitFabric(g);
            CompletableFuture<Exception> run = CompletableFuture.supplyAsync(() -> writer.runFailing(
                    "ib_write_bw -d mlx4_0 -i 2 --peer-device mlx4_1 -i 2 -D 60 -s 4096"));
            awaitRcQps(g);
            g.run("rdma:driver-unload mlx4sim");
            Exception e = run.get(60, TimeUnit.SECONDS);
            assertTrue(e.getMessage().contains("writes completed") && e.getMessage().contains("none outstanding"),
                    "ib_write_bw accounts for every write it posted: " + e);
            g.run("rdma:driver-load mlx4sim");
            awaitFabric(g);
        }
        assertEquals(List.of(), log.matching(LogCapture.LEFT_BEHIND),
                "the driver went under ib_write_bw: resources outlived their clients");
    }

    /** The default fabric's two HCAs registered and the subnet manager's first sweep done. */
    private static void awaitFabric(Gogo g) {
        g.run("rdma:settle -n 2 -t 30");
        g.run("rdma:sminfo -w 30");
    }

    /** A bounded poll of rdma:res qp until ib_write_bw's RC QPs are in RTS on both devices. */
    private static void awaitRcQps(Gogo g) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String res = "";
        while (System.nanoTime() < deadline) {
            res = g.run("rdma:res qp");
            if (res.matches("(?s).*link mlx4_0/2 [^\n]*type RC state RTS.*")
                    && res.matches("(?s).*link mlx4_1/2 [^\n]*type RC state RTS.*")) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50); // only spares the CPU: the loop ends on what it sees
        }
        throw new AssertionError("ib_write_bw's RC QPs not in RTS on mlx4_0/2 and mlx4_1/2 within 30 s:\n" + res);
    }

    private static void expect(String output, String text) {
        assertTrue(output.contains(text), "expected '" + text + "' in:\n" + output);
    }
}
