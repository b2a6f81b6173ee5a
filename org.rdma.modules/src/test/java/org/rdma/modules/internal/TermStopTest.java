package org.rdma.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;

/** The hook's stop: it stops the framework, waits for it, and says whether it stopped. */
class TermStopTest {
    private final List<String> calls = new ArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(out, true, StandardCharsets.UTF_8);

    /** A framework whose waitForStop answers {@code event} (or whose stop throws). */
    private Framework framework(int event, boolean stopThrows) {
        Framework[] self = new Framework[1];
        self[0] = (Framework) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Framework.class},
                (p, m, a) -> {
                    calls.add(m.getName() + (a == null ? "" : "(" + a[0] + ")"));
                    switch (m.getName()) {
                        case "stop":
                            if (stopThrows) {
                                throw new BundleException("EBUSY: refused");
                            }
                            return null;
                        case "waitForStop":
                            return new FrameworkEvent(event, self[0], null);
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
        return self[0];
    }

    @Test
    void stopsTheFrameworkAndWaitsForIt() {
        assertTrue(TermStop.stop(framework(FrameworkEvent.STOPPED, false), log, 5));
        assertEquals(List.of("stop", "waitForStop(5000)"), calls);
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(TermStop.STOPPED + " in "), out.toString());
    }

    @Test
    void aStopThatDoesNotCompleteIsReportedNotClean() {
        assertFalse(TermStop.stop(framework(FrameworkEvent.WAIT_TIMEDOUT, false), log, 5));
        assertEquals("rdma: ETIMEDOUT: the framework did not stop within 5 s\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aRefusedStopIsReported() {
        assertFalse(TermStop.stop(framework(FrameworkEvent.STOPPED, true), log, 5));
        assertEquals(List.of("stop"), calls);
        assertEquals("rdma: the framework could not be stopped: EBUSY: refused\n", out.toString(StandardCharsets.UTF_8));
    }
}
