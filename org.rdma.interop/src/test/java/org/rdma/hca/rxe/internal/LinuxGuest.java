package org.rdma.hca.rxe.internal;

import java.io.IOException;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Guest 1 of {@code ../shared/peers/linux-rdma-vm} (Debian 12, Linux 6.1 {@code rdma_rxe} as
 * {@code rxe0} on its {@code eth0}, rdma-core 44, perftest, librdmacm's tools) as the tests see it
 * from inside the VM's network namespace: commands run over ssh, one connection shared by all of
 * them (the guest is a TCG-emulated CPU: a new ssh handshake costs seconds there).
 *
 * <p>Every guest command runs under {@code timeout} in the guest, so a test that gives up leaves
 * nothing running there, and under {@code stdbuf -oL}, so the tools' lines arrive as they are
 * printed rather than when their output pipe's buffer fills.
 */
final class LinuxGuest implements AutoCloseable {
    static final String NETNS = env("RDMA_VM_NETNS", "rdmavm");
    static final String CACHE = env("RDMA_VM_CACHE", "/var/tmp/rdma-vm");
    /** The namespace's bridge; our rxe device's netdev. */
    static final String BRIDGE = "rdmavmbr0";
    static final String HOST_IP6 = "fd42::1";
    static final String HOST_IP4 = "10.47.91.1";
    static final String GUEST_IP6 = "fd42::11";
    static final String GUEST_IP4 = "10.47.91.11";
    /** The guest's GID table (the VM's README): 1 = {@code ::ffff:10.47.91.11}, 2 = {@code fd42::11}. */
    static final int GUEST_GID_IPV4 = 1;
    static final int GUEST_GID_IPV6 = 2;
    /** The bound on any one guest command, enforced in the guest. */
    static final int GUEST_TIMEOUT_S = 240;

    private final String controlPath;
    private final Process master;

    private LinuxGuest(String controlPath, Process master) {
        this.controlPath = controlPath;
        this.master = master;
    }

    /**
     * Checks that this JVM runs in the VM's namespace with the guest up, and opens the shared ssh
     * connection; fails saying what is missing (the tests never skip: {@code .ci/interop} boots
     * the guest first).
     */
    static LinuxGuest connect() throws IOException, InterruptedException {
        if (!hasInterface(BRIDGE)) {
            throw new AssertionError("no " + BRIDGE + ": this JVM is not in the namespace " + NETNS
                    + " of the Linux VM; run .ci/interop (builds and boots the VM, then runs these tests in it)");
        }
        String key = CACHE + "/id_ed25519";
        if (!new java.io.File(key).canRead()) {
            throw new AssertionError("no ssh key " + key + ": the VM is not built (../shared/peers/linux-rdma-vm/build-guest.sh)");
        }
        String control = CACHE + "/run/interop-ssh-%C";
        List<String> cmd = sshBase(control);
        cmd.addAll(List.of("-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-N", "root@" + GUEST_IP6));
        Process m = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        LinuxGuest g = new LinuxGuest(control, m);
        // the master is up once a command through it succeeds; a cold guest may take a while
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        String last = "";
        while (System.nanoTime() - deadline < 0) {
            if (!m.isAlive()) {
                String out = new String(m.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                throw new AssertionError("ssh to the guest " + GUEST_IP6 + " failed (exit " + m.exitValue() + "): "
                        + out + "; is guest 1 booted (start-guest.sh 1 rdmavm.udp6csum=1)?");
            }
            Result r = g.exec("true", 30);
            if (r.status == 0) {
                return g;
            }
            last = r.output;
            TimeUnit.MILLISECONDS.sleep(500); // polling for the master's socket, not a correctness wait
        }
        g.close();
        throw new AssertionError("the guest " + GUEST_IP6 + " does not answer over ssh within 120 s: " + last);
    }

    /** Runs {@code command} in the guest; fails with its output unless it exits 0 within {@code seconds}. */
    String run(String command, int seconds) throws IOException, InterruptedException {
        Result r = exec(command, seconds);
        if (r.status != 0) {
            throw new AssertionError("guest: '" + command + "' exited with " + r.status + ": " + r.output);
        }
        return r.output;
    }

    /** Starts {@code command} in the guest; its output is read line by line. */
    PeerProcess start(String command) throws IOException {
        return new PeerProcess(ssh(guestCommand(command, GUEST_TIMEOUT_S)), "guest: " + command);
    }

    /**
     * Starts a server that listens on TCP {@code tcpPort} in the guest and returns once it
     * listens: the rdma-core and perftest servers print their address before they listen, and
     * their clients do not retry.
     */
    PeerProcess startTcpServer(String command, int tcpPort) throws IOException, InterruptedException {
        String listening = "LISTENING-" + tcpPort;
        PeerProcess p = start("{ " + command + "; } & while ! ss -Hltn 'sport = :" + tcpPort + "' | grep -q .; do sleep 0.1; done;"
                + " echo " + listening + "; wait");
        p.awaitLine(listening::equals, 60_000);
        return p;
    }

    /**
     * Starts an RDMA CM server (rping) in the guest and returns once its CM ID listens on
     * {@code port}: rping's "rdma_listen" debug line comes before the call, so a client that
     * connects on seeing it may find no listener yet (a REJ with reason 8, invalid service ID).
     */
    PeerProcess startCmServer(String command, int port) throws IOException, InterruptedException {
        String listening = "LISTENING-" + port;
        PeerProcess p = start("{ " + command + "; } & while ! rdma res show cm_id | grep -Eq 'LISTEN.*[:.]" + port
                + "( |$)'; do sleep 0.1; done; echo " + listening + "; wait");
        p.awaitLine(listening::equals, 60_000);
        return p;
    }

    record Result(int status, String output) {
    }

    private Result exec(String command, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(ssh(guestCommand(command, seconds))).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "no exit within " + (seconds + 30) + " s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static String guestCommand(String command, int seconds) {
        return "timeout " + seconds + " stdbuf -oL -eL sh -c '" + command.replace("'", "'\\''") + "'";
    }

    private List<String> ssh(String remote) {
        List<String> cmd = sshBase(controlPath);
        cmd.addAll(List.of("-o", "ControlMaster=no", "root@" + GUEST_IP6, remote));
        return cmd;
    }

    private static List<String> sshBase(String controlPath) {
        return new ArrayList<>(List.of("ssh", "-i", CACHE + "/id_ed25519", "-o", "StrictHostKeyChecking=no", "-o",
                "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=60", "-o", "BatchMode=yes",
                "-o", "ServerAliveInterval=15", "-o", "ControlPath=" + controlPath));
    }

    static boolean hasInterface(String name) {
        try {
            return NetworkInterface.getByName(name) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    private static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v;
    }

    /** Closes the shared connection (the master ssh this JVM started). */
    @Override
    public void close() throws InterruptedException {
        master.destroy();
        if (!master.waitFor(10, TimeUnit.SECONDS)) {
            master.destroyForcibly();
        }
    }
}
