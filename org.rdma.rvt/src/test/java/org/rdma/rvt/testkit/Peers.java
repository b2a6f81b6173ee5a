package org.rdma.rvt.testkit;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What tests need from the machine beyond Java: programs from Debian packages (tshark, ibsim,
 * OpenSM, ...) and things only root may do. The README's test command installs the packages
 * ({@code .ci/peers}), so a missing one fails the test naming the package; only the documented
 * switch {@code -Drdma.peers=skip} turns these failures into skips, and then they say why.
 */
public final class Peers {
    /** The switch: {@code -Drdma.peers=skip} skips what the machine lacks instead of failing. */
    public static final String PROPERTY = "rdma.peers";

    private Peers() {
    }

    /** Whether the documented switch asks to skip tests whose peers are missing. */
    public static boolean skipping() {
        return "skip".equals(System.getProperty(PROPERTY));
    }

    /**
     * Fails with {@code why} unless {@code present}; with {@code -Drdma.peers=skip}, skips
     * instead (an aborted test, reported as skipped with the reason).
     */
    public static void require(boolean present, String why) {
        if (present) {
            return;
        }
        String message = why + " (the README's test command installs what tests need; -D" + PROPERTY + "=skip skips instead)";
        if (skipping()) {
            assumeTrue(false, message);
        }
        fail(message);
    }

    /** Requires {@code command} (run with {@code args} it exits 0), from Debian's {@code debianPackage}. */
    public static void requireCommand(String debianPackage, String command, String... args) {
        require(runs(command, args), command + " is not installed: apt-get install -y " + debianPackage);
    }

    /** Requires {@code tshark}. */
    public static void requireTshark() {
        requireCommand("tshark", "tshark", "--version");
    }

    /** Requires running as root (for {@code ip addr add}, captures on {@code lo}, namespaces). */
    public static void requireRoot(String forWhat) {
        require("root".equals(System.getProperty("user.name")), forWhat + " needs root");
    }

    /** Whether {@code command args} starts and exits 0 within 30 s. */
    public static boolean runs(String command, String... args) {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(command);
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
