package org.rdma.runtime.itest.support;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Pattern;

/**
 * The warnings the platform logs while it is installed: the bundles log through
 * {@link System.Logger} (or {@code java.util.logging}), which end in the JDK's root logger here
 * as in {@code ./rdma}. Each record is kept as the text a console would show: logger, message
 * and stack trace (with suppressed exceptions, where a failed teardown's EBUSY lands).
 */
public final class LogCapture extends Handler implements AutoCloseable {
    /** What a client that outlives its resources makes the MAD layer and the core log. */
    public static final Pattern LEFT_BEHIND = Pattern.compile("left by clients|EBUSY");

    private final Logger root = Logger.getLogger("");
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final List<String> records = new ArrayList<>();

    private LogCapture() {
        setLevel(Level.WARNING);
    }

    /** Starts capturing on the root logger. */
    public static LogCapture start() {
        LogCapture c = new LogCapture();
        c.root.addHandler(c);
        return c;
    }

    @Override
    public void publish(LogRecord r) {
        if (!isLoggable(r)) {
            return;
        }
        StringWriter w = new StringWriter();
        w.append(r.getLevel().getName()).append(' ').append(r.getLoggerName()).append(": ")
                .append(formatter.formatMessage(r));
        if (r.getThrown() != null) {
            w.append('\n');
            r.getThrown().printStackTrace(new PrintWriter(w));
        }
        synchronized (records) {
            records.add(w.toString());
        }
    }

    /** The captured records matching {@code p}. */
    public List<String> matching(Pattern p) {
        List<String> hits = new ArrayList<>();
        synchronized (records) {
            for (String r : records) {
                if (p.matcher(r).find()) {
                    hits.add(r);
                }
            }
        }
        return hits;
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        root.removeHandler(this);
    }
}
