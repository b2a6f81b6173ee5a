package org.rdma.fabric.ibsim.internal;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The native side of the acceptance test: Debian's {@code ibsim} in remote mode and
 * {@code opensm} under {@code libumad2sim.so}, both on 127.0.0.1 with UDP ports no other run
 * uses, their files in a private directory. {@link #close()} stops exactly the processes it
 * started (SIGTERM, then SIGKILL).
 */
final class NativeSubnet implements AutoCloseable {
    static final String IBSIM = "/usr/bin/ibsim";
    static final String OPENSM = "/usr/sbin/opensm";
    /** Where Debian's libumad2sim0 (a dependency of ibsim-utils) installs the preload library. */
    static final List<String> UMAD2SIM = List.of(
            "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
            "/usr/lib/aarch64-linux-gnu/umad2sim/libumad2sim.so",
            "/usr/lib/umad2sim/libumad2sim.so",
            "/usr/lib64/umad2sim/libumad2sim.so");

    private static final String TIMEOUT = "/usr/bin/timeout";
    private static final long MAX_LIFE_SECONDS = 300;

    private final Path dir;
    private final List<Process> started = new ArrayList<>();
    private Process ibsim;
    private String ibsimLog = "ibsim-0.log";
    private int port;

    NativeSubnet(Path dir) {
        this.dir = dir;
    }

    /** @return the preload library, or {@code null} when it is not installed */
    static Path umad2sim() {
        for (String s : UMAD2SIM) {
            if (Files.isReadable(Path.of(s))) {
                return Path.of(s);
            }
        }
        return null;
    }

    /** @return what is missing to run ibsim and OpenSM here, or {@code null} when nothing is */
    static String missing() {
        List<String> m = new ArrayList<>();
        if (!Files.isExecutable(Path.of(IBSIM))) {
            m.add(IBSIM + " (apt-get install ibsim-utils)");
        }
        if (umad2sim() == null) {
            m.add("libumad2sim.so (apt-get install libumad2sim0)");
        }
        if (!Files.isExecutable(Path.of(OPENSM))) {
            m.add(OPENSM + " (apt-get install opensm)");
        }
        return m.isEmpty() ? null : String.join(", ", m);
    }

    /**
     * Starts {@code ibsim -r -l PORT -s -n topology} on a base port whose 11 UDP ports are free;
     * tries other ports if ibsim cannot bind.
     *
     * @return ibsim's control address on loopback
     */
    InetSocketAddress startIbsim(String topology) throws IOException, InterruptedException {
        Path net = dir.resolve("net");
        Files.writeString(net, topology);
        for (int attempt = 0; attempt < 5; attempt++) {
            port = freeBase();
            ibsimLog = "ibsim-" + attempt + ".log";
            ibsim = start(List.of(IBSIM, "-r", "-l", Integer.toString(port), "-s", "-n", net.toString()),
                    Map.of(), ibsimLog);
            // ibsim binds its sockets right after reading the topology; a bind failure kills it
            if (!ibsim.waitFor(300, TimeUnit.MILLISECONDS)) {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            }
        }
        throw new IOException("ibsim did not start:\n" + ibsimLog());
    }

    /** @return the output of the ibsim started last */
    String ibsimLog() {
        return log(ibsimLog);
    }

    /** @return whether ibsim is still running */
    boolean ibsimAlive() {
        return ibsim != null && ibsim.isAlive();
    }

    /**
     * Starts {@code opensm} attached to ibsim node {@code simHost}, with its cache, log and
     * umad2sim's sysfs copy in the private directory.
     */
    void startOpenSm(String simHost) throws IOException {
        Path cache = Files.createDirectories(dir.resolve("osm-cache"));
        start(List.of(OPENSM, "-f", dir.resolve("opensm.log").toString(), "-s", "0"), Map.of(
                "LD_PRELOAD", umad2sim().toString(),
                "SIM_HOST", simHost,
                "IBSIM_SERVER_NAME", "127.0.0.1",
                "IBSIM_SERVER_PORT", Integer.toString(port),
                "OSM_CACHE_DIR", cache.toString(),
                "OSM_TMP_DIR", dir.toString()), "opensm.out");
    }

    private Process start(List<String> cmd, Map<String, String> env, String log) throws IOException {
        List<String> full = new ArrayList<>();
        if (Files.isExecutable(Path.of(TIMEOUT))) {
            // coreutils' timeout bounds the process's life should this JVM die without closing;
            // it passes our SIGTERM on, and follows it with SIGKILL if that is ignored
            full.addAll(List.of(TIMEOUT, "-k", "3", Long.toString(MAX_LIFE_SECONDS)));
        }
        full.addAll(cmd);
        ProcessBuilder pb = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(log).toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** A base port whose next 10 ports are free too (ibsim binds them on every address). */
    private static int freeBase() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20000, 60000);
            List<DatagramSocket> held = new ArrayList<>();
            try {
                for (int i = 0; i <= 10; i++) {
                    held.add(new DatagramSocket(base + i));
                }
                return base;
            } catch (SocketException busy) {
                // try another range
            } finally {
                held.forEach(DatagramSocket::close);
            }
        }
        throw new IOException("no 11 consecutive free UDP ports");
    }

    /** @return a log file's text (for failure messages) */
    String log(String name) {
        try {
            Path p = dir.resolve(name);
            return Files.exists(p) ? Files.readString(p) : "(no " + name + ")";
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    /** @return the tail of OpenSM's log and output, for failure messages */
    String diagnostics() {
        String osm = log("opensm.log");
        return "opensm.out:\n" + log("opensm.out") + "\nopensm.log (tail):\n"
                + osm.substring(Math.max(0, osm.length() - 4000));
    }

    @Override
    public void close() {
        // OpenSM first: under umad2sim it disconnects from ibsim on the way out. Interrupts (a
        // test timeout) must not leave anything running.
        boolean interrupted = false;
        for (int i = started.size() - 1; i >= 0; i--) {
            Process p = started.get(i);
            p.destroy();
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                interrupted = true;
                p.destroyForcibly();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
