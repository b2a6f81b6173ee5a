package org.rdma.hca.rxe.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A second JVM running {@link RxePeerMain} (the same {@code java}, the test's class path), or any
 * other program, its output (stdout and stderr merged) read line by line on a thread of its own. Every wait is
 * bounded; {@link #close} kills the process if it is still alive, so a failing test leaves
 * nothing behind.
 */
final class PeerProcess implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;
    private final String what;

    PeerProcess(int udpPort, int remoteUdpPort, String... toolArgs) throws IOException {
        this(peerMain(udpPort, remoteUdpPort, toolArgs), String.join(" ", toolArgs));
    }

    /** Any other program: {@code command}, called {@code what} in failure messages. */
    PeerProcess(List<String> command, String what) throws IOException {
        this.what = what;
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        reader = new Thread(this::read, "peer-output");
        reader.setDaemon(true);
        reader.start();
    }

    private static List<String> peerMain(int udpPort, int remoteUdpPort, String... toolArgs) {
        List<String> cmd = new ArrayList<>();
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        cmd.add(java.toString());
        cmd.add("-Xmx128m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RxePeerMain.class.getName());
        cmd.add(Integer.toString(udpPort));
        cmd.add(Integer.toString(remoteUdpPort));
        cmd.addAll(List.of(toolArgs));
        return cmd;
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        synchronized (lines) {
            lines.notifyAll();
        }
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
                if (left <= 0 || (!process.isAlive() && !reader.isAlive())) {
                    throw new AssertionError("the peer (" + what + ") printed no such line within " + ms + " ms"
                            + (process.isAlive() ? "" : ", it exited with " + process.exitValue()) + "; it printed "
                            + lines);
                }
                TimeUnit.NANOSECONDS.timedWait(lines, Math.min(left, 50_000_000L));
            }
        }
    }

    /** Waits up to {@code ms} for the process to exit with status 0; returns its output. */
    List<String> finish(long ms) throws InterruptedException {
        if (!process.waitFor(ms, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the peer (" + what + ") did not exit within " + ms + " ms; it printed " + lines());
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        if (process.exitValue() != 0) {
            throw new AssertionError("the peer (" + what + ") exited with " + process.exitValue() + "; it printed "
                    + lines());
        }
        return lines();
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the peer (" + what + ", pid " + process.pid() + ") did not die on SIGKILL");
            }
        }
    }
}
