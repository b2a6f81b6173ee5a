package org.rdma.hca.rxe.internal;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One of our tools running on a thread of its own, as {@link PeerProcess} runs a program: its
 * output is kept line by line as it is printed, so a test can wait for a line (the server's
 * address, before the peer is started) and then for the end. Every wait is bounded.
 */
final class JavaTool {
    /** The tool: prints to {@code out}, throws on failure. */
    interface Body {
        void run(PrintStream out) throws Exception;
    }

    private final String what;
    private final List<String> lines = new ArrayList<>();
    private final Thread thread;
    private Throwable failure;
    private boolean done;

    private JavaTool(String what, Body body) {
        this.what = what;
        PrintStream out = new PrintStream(new LineSink(), true, StandardCharsets.UTF_8);
        thread = new Thread(() -> {
            Throwable t = null;
            try {
                body.run(out);
            } catch (Throwable e) {
                t = e;
            }
            out.close();
            synchronized (lines) {
                failure = t;
                done = true;
                lines.notifyAll();
            }
        }, "java-tool");
        thread.setDaemon(true);
    }

    static JavaTool start(String what, Body body) {
        JavaTool t = new JavaTool(what, body);
        t.thread.start();
        return t;
    }

    /** Waits up to {@code ms} for a line matching {@code p}; fails with everything printed so far. */
    String awaitLine(Predicate<String> p, long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        synchronized (lines) {
            while (true) {
                for (String l : lines) {
                    if (p.test(l)) {
                        return l;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || done) {
                    throw new AssertionError("our " + what + " printed no such line within " + ms + " ms"
                            + (failure == null ? "" : ", it failed with " + failure) + "; it printed " + lines, failure);
                }
                TimeUnit.NANOSECONDS.timedWait(lines, left);
            }
        }
    }

    /** Waits up to {@code ms} for the tool to return; fails if it threw or is still running. Returns its output. */
    List<String> finish(long ms) throws InterruptedException {
        synchronized (lines) {
            awaitEnd(ms);
            if (failure != null) {
                throw new AssertionError("our " + what + " failed: " + failure + "; it printed " + lines, failure);
            }
            return List.copyOf(lines);
        }
    }

    /** Waits up to {@code ms} for the tool to fail; fails if it succeeded or is still running. Returns the failure. */
    Throwable failure(long ms) throws InterruptedException {
        synchronized (lines) {
            awaitEnd(ms);
            if (failure == null) {
                throw new AssertionError("our " + what + " succeeded where it should fail; it printed " + lines);
            }
            return failure;
        }
    }

    private void awaitEnd(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!done) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                thread.interrupt();
                throw new AssertionError("our " + what + " did not end within " + ms + " ms; it printed " + lines);
            }
            TimeUnit.NANOSECONDS.timedWait(lines, left);
        }
    }

    /** Output lines so far. */
    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Splits what the tool prints into lines. */
    private final class LineSink extends OutputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                String l = line.toString(StandardCharsets.UTF_8);
                line.reset();
                synchronized (lines) {
                    lines.add(l);
                    lines.notifyAll();
                }
            } else {
                line.write(b);
            }
        }

        /** A last line without its newline counts too. */
        @Override
        public synchronized void close() {
            if (line.size() > 0) {
                write('\n');
            }
        }
    }
}
