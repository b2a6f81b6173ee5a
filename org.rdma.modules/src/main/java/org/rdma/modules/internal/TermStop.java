package org.rdma.modules.internal;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Stops the embedded runtime's framework in order when the JVM is told to end (SIGTERM from
 * systemd or {@code kill}, SIGINT from Ctrl-C), as init expects of a service: without it the JVM
 * would exit with every bundle still active, so no component would be deactivated, no session
 * logged out, no file forced. Karaf has its own hook; this bundle is only in the embedded
 * runtime. The JVM still exits 128 + the signal's number (143, 130) after the hook; {@code ./rdma
 * serve} maps that to 0 when the hook reported a clean stop.
 */
@Component(immediate = true, service = {})
public final class TermStop {
    /** The longest the hook waits for every bundle to stop (systemd's default TimeoutStopSec is 90 s). */
    static final long STOP_TIMEOUT_SECONDS = 60;
    /** What the hook prints when every bundle has stopped; {@code ./rdma serve} looks for it. */
    static final String STOPPED = "rdma: framework stopped";

    private final Thread hook;

    /** Registers the hook for the framework of {@code bc}. */
    @Activate
    public TermStop(BundleContext bc) {
        this((Framework) bc.getBundle(0), System.err);
    }

    TermStop(Framework fw, PrintStream log) {
        hook = new Thread(() -> stop(fw, log, STOP_TIMEOUT_SECONDS), "rdma-term-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** A framework stopped by other means ({@code stop 0}) no longer needs the hook. */
    @Deactivate
    void deactivate() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // this hook is what stops the framework: the JVM keeps it until it returns
        }
    }

    /** Stops {@code fw} and waits for it; says how it went on {@code log}. Returns true if it stopped. */
    static boolean stop(Framework fw, PrintStream log, long timeoutSeconds) {
        long start = System.nanoTime();
        try {
            fw.stop();
            FrameworkEvent e = fw.waitForStop(TimeUnit.SECONDS.toMillis(timeoutSeconds));
            if (e.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                log.println("rdma: ETIMEDOUT: the framework did not stop within " + timeoutSeconds + " s");
                return false;
            }
            log.println(STOPPED + " in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
            return true;
        } catch (BundleException e) {
            log.println("rdma: the framework could not be stopped: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.println("rdma: EINTR: interrupted while the framework stopped");
            return false;
        }
    }
}
