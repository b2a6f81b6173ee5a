package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.PortState;

/** A measurement, not a check of speed: the sweep time of a 100-node fabric, printed. */
class SweepTimeTest {
    @Test
    void sweepOfAHundredNodeFabricIsMeasured() {
        try (SmNet net = new SmNet(SmNet.ring(10, 9), 0)) {
            long[] first = new long[2];
            net.sm.onSweepDone(() -> {
                if (first[0] == 0) {
                    first[0] = net.sm.lastSweepNanos();
                    first[1] = net.sm.lastSweepSmps();
                }
            });
            long t0 = System.nanoTime();
            net.up();
            long upNanos = System.nanoTime() - t0;
            assertEquals(100, net.sm.subnet().nodes.size());
            for (CoreDevice d : net.devs.values()) {
                assertEquals(PortState.ACTIVE, d.queryPort(1).state);
            }
            t0 = System.nanoTime();
            net.sm.sweepNow();
            net.settle();
            long quiet = System.nanoTime() - t0;
            assertTrue(first[0] > 0);
            System.out.printf("sm sweep, 100 nodes (10 switches, 90 CAs): first sweep %.1f ms, %d SMPs; "
                    + "up with trap re-sweeps %.1f ms, %d sweeps; quiet re-sweep %.1f ms, %d SMPs%n",
                    first[0] / 1e6, first[1], upNanos / 1e6, net.sm.sweeps() - 1, quiet / 1e6,
                    net.sm.lastSweepSmps());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(quiet) >= 0);
        }
    }
}
