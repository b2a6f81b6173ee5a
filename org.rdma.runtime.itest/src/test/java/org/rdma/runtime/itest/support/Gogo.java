package org.rdma.runtime.itest.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.osgi.framework.BundleContext;
import org.osgi.util.tracker.ServiceTracker;

/**
 * A Gogo session of the runtime's command processor, typing what a user types at {@code ./rdma}:
 * each command line's printed output is returned, a failing command fails the test with its
 * message and output.
 */
public final class Gogo implements AutoCloseable {
    private final ServiceTracker<CommandProcessor, CommandProcessor> tracker;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
    private final CommandSession session;

    private Gogo(ServiceTracker<CommandProcessor, CommandProcessor> tracker, CommandProcessor processor) {
        this.tracker = tracker;
        this.session = processor.createSession(new ByteArrayInputStream(new byte[0]), out, out);
    }

    /** A session of the command processor, once the Gogo runtime has registered it (bounded wait). */
    public static Gogo open(BundleContext bc) throws InterruptedException {
        ServiceTracker<CommandProcessor, CommandProcessor> t = new ServiceTracker<>(bc, CommandProcessor.class, null);
        t.open();
        CommandProcessor p = t.waitForService(TimeUnit.SECONDS.toMillis(20));
        if (p == null) {
            t.close();
            fail("no Gogo CommandProcessor within 20 s");
        }
        return new Gogo(t, p);
    }

    /** Runs {@code line}; returns what it printed. */
    public String run(String line) {
        try {
            return execute(line);
        } catch (Exception e) {
            throw new AssertionError("'" + line + "' failed: " + e + "; it printed:\n" + take(), e);
        }
    }

    /** Runs {@code line}, which must fail; returns its exception. */
    public Exception runFailing(String line) {
        try {
            String printed = execute(line);
            throw new AssertionError("'" + line + "' succeeded; it printed:\n" + printed);
        } catch (Exception e) {
            take();
            return e;
        }
    }

    private String execute(String line) throws Exception {
        session.execute(line);
        return take();
    }

    private synchronized String take() {
        out.flush();
        String s = buf.toString(StandardCharsets.UTF_8);
        buf.reset();
        return s;
    }

    @Override
    public void close() {
        session.close();
        tracker.close();
    }
}
