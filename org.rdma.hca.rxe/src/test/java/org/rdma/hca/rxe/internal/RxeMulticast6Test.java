package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Multicast over IPv6 groups between two rxe devices ({@link Mcast6Peer}), in a network namespace
 * this test creates with a veth pair: the host's {@code lo} carries IPv4 multicast but no IPv6
 * (no multicast route: sending to ff0e:: there fails with ENETUNREACH; with one added, in a
 * namespace, nothing arrives), while a veth pair carries both. Needs root, as the captures of
 * the other tests do.
 */
class RxeMulticast6Test {
    private static final String NS = "rxemc6-" + ProcessHandle.current().pid();

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", NS));
        cmd.addAll(List.of(args));
        sh(cmd);
    }

    private static void sh(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed (this test makes a network namespace: root): "
                    + out);
        }
    }

    @Test
    void ipv6GroupsAcrossAVethPair() throws Exception {
        sh(List.of("ip", "netns", "add", NS));
        try {
            ip("link", "set", "lo", "up");
            ip("link", "add", "v0", "type", "veth", "peer", "name", "v1");
            ip("addr", "add", Mcast6Peer.A + "/64", "dev", "v0", "nodad");
            ip("addr", "add", Mcast6Peer.B + "/64", "dev", "v1", "nodad");
            ip("link", "set", "v0", "up");
            ip("link", "set", "v1", "up");
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", NS,
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-cp",
                    System.getProperty("java.class.path"), Mcast6Peer.class.getName(), "v0", "v1"));
            try (PeerProcess peer = new PeerProcess(cmd, "Mcast6Peer in " + NS)) {
                List<String> out = peer.finish(60_000);
                assertEquals("OK", out.get(out.size() - 1), out.toString());
            }
        } finally {
            sh(List.of("ip", "netns", "del", NS));
        }
    }
}
