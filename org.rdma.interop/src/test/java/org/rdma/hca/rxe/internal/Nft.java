package org.rdma.hca.rxe.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** nftables in this JVM's namespace: packet loss for the tests (the host kernel has no netem). */
final class Nft {
    private static final Pattern COUNTER = Pattern.compile("counter packets (\\d+) bytes \\d+");

    private Nft() {
    }

    /** Runs an nft script ({@code nft -f -}); fails with nft's message. */
    static String run(String script) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("nft", "-f", "-").redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("nft is not installed (Debian: apt-get install nftables): " + e.getMessage(), e);
        }
        try (OutputStream in = p.getOutputStream()) {
            in.write(script.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError("nft failed on '" + script.trim() + "': " + out);
        }
        return out;
    }

    /** The packet counts of the {@code counter}s of {@code table} ("family name"), in the order listed. */
    static long[] counters(String table) throws IOException, InterruptedException {
        Matcher m = COUNTER.matcher(run("list table " + table + "\n"));
        List<Long> l = new ArrayList<>();
        while (m.find()) {
            l.add(Long.parseLong(m.group(1)));
        }
        return l.stream().mapToLong(Long::longValue).toArray();
    }
}
