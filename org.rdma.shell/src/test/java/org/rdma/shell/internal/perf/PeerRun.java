package org.rdma.shell.internal.perf;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One end of a two-sided tool run on a thread of its own, its output kept line by line: a test
 * waits (bounded) for a line, then for the end, and gets the end's failure rethrown.
 */
final class PeerRun implements AutoCloseable {
    private final List<String> lines = new ArrayList<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Thread thread;

    PeerRun(String name, Consumer<PrintStream> body) {
        PrintStream out = new PrintStream(new OutputStream() {
            private final StringBuilder line = new StringBuilder();

            @Override
            public void write(int b) {
                if (b == '\n') {
                    synchronized (lines) {
                        lines.add(line.toString());
                        lines.notifyAll();
                    }
                    line.setLength(0);
                } else {
                    line.append((char) b);
                }
            }
        }, true, StandardCharsets.US_ASCII);
        thread = new Thread(() -> {
            try {
                body.accept(out);
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits up to {@code ms} for a line matching {@code p}. */
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
                if (left <= 0 || done.isDone()) {
                    throw new AssertionError("no such line within " + ms + " ms; " + thread.getName() + " printed "
                            + lines + (done.isCompletedExceptionally() ? ", failed: " + failure() : ""));
                }
                TimeUnit.NANOSECONDS.timedWait(lines, Math.min(left, 50_000_000L));
            }
        }
    }

    /** Waits up to {@code ms} for the end to finish; rethrows its failure. */
    List<String> join(long ms) throws Exception {
        try {
            done.get(ms, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(thread.getName() + " did not finish within " + ms + " ms; printed " + lines());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw new AssertionError(e.getCause());
        }
        return lines();
    }

    private String failure() {
        return done.handle((v, t) -> String.valueOf(t)).join();
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    /** A TCP port nobody listens on right now. */
    static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
