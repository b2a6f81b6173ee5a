package org.rdma.iscsi.internal.tcp;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * libiscsi's command line tools (Debian's libiscsi-bin) as the test's real initiator. The
 * README's test command installs the package ({@code .ci/peers}); a missing tool fails the test
 * naming it, unless {@code -Drdma.peers=skip} asks to skip instead.
 */
final class Tools {
    record Run(int exit, String output) {
    }

    private Tools() {
    }

    static void require(String tool) {
        boolean present = false;
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            present |= new java.io.File(dir, tool).canExecute();
        }
        if (present) {
            return;
        }
        String why = tool + " is not installed: apt-get install -y libiscsi-bin (the README's test command installs"
                + " what tests need; -Drdma.peers=skip skips instead)";
        if ("skip".equals(System.getProperty("rdma.peers"))) {
            assumeTrue(false, why);
        }
        fail(why);
    }

    /** Runs a tool to its end (at most {@code seconds}), its output and error merged. */
    static Run run(int seconds, String... command) throws IOException, InterruptedException {
        require(command[0]);
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[][] out = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = ("(output lost: " + e + ")").getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            reader.join(5000);
            fail(String.join(" ", command) + " did not end within " + seconds + " s; it printed:\n"
                    + new String(out[0] == null ? new byte[0] : out[0], StandardCharsets.UTF_8));
        }
        reader.join(5000);
        return new Run(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
    }

    /** The names (Suite.Test) of the tests an iscsi-test-cu output reports as failed. */
    static List<String> failedTests(String output) {
        List<String> failed = new ArrayList<>();
        String suite = null;
        String test = null;
        for (String line : output.split("\n")) {
            String t = line.strip();
            if (t.startsWith("Suite: ")) {
                suite = t.substring(7).strip();
            } else if (t.startsWith("Test: ")) {
                int dots = t.indexOf(" ...");
                test = suite + "." + (dots < 0 ? t.substring(6) : t.substring(6, dots)).strip();
            }
            if (test != null && (t.endsWith("FAILED") && !t.startsWith("[FAILED]")) && !failed.contains(test)) {
                failed.add(test);
            }
        }
        return failed;
    }

    /** The "tests" row of iscsi-test-cu's run summary: total, ran, passed, failed. */
    static int[] summary(String output) {
        for (String line : output.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length >= 5 && f[0].equals("tests")) {
                return new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                    Integer.parseInt(f[4])};
            }
        }
        fail("no run summary in:\n" + output);
        return null;
    }
}
