package org.rdma.hca.rxe.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The summary table of an interop run (test, direction, figure): a passing test adds its row
 * with {@link #row}, a failing one gets a row saying so from this watcher. The table is
 * rewritten after every row to the file named by the system property {@code interop.summary},
 * which {@code .ci/interop} prints at the end whether or not the run passed.
 */
final class InteropSummary implements TestWatcher {
    static final String JAVA_SERVER = "Java server, Linux client";
    static final String LINUX_SERVER = "Linux server, Java client";

    private static final List<String[]> ROWS = new ArrayList<>();

    static void row(String test, String direction, String figure) {
        synchronized (ROWS) {
            ROWS.add(new String[] {test, direction, figure});
            write();
        }
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        String msg = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
        row(context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName(), "-",
                "FAILED: " + (msg.length() > 160 ? msg.substring(0, 160) + "..." : msg));
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        testFailed(context, cause);
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        row(context.getDisplayName(), "-", "DISABLED: " + reason.orElse(""));
    }

    /** The table as text: a header, a rule, one line per row, columns padded. */
    static String table() {
        synchronized (ROWS) {
            List<String[]> all = new ArrayList<>();
            all.add(new String[] {"test", "direction", "figure"});
            all.addAll(ROWS);
            int[] w = new int[3];
            for (String[] r : all) {
                for (int i = 0; i < 3; i++) {
                    w[i] = Math.max(w[i], r[i].length());
                }
            }
            StringBuilder sb = new StringBuilder();
            for (int n = 0; n < all.size(); n++) {
                String[] r = all.get(n);
                sb.append(String.format("| %-" + w[0] + "s | %-" + w[1] + "s | %-" + w[2] + "s |%n", r[0], r[1], r[2]));
                if (n == 0) {
                    sb.append("| ").append("-".repeat(w[0])).append(" | ").append("-".repeat(w[1])).append(" | ")
                            .append("-".repeat(w[2])).append(" |\n");
                }
            }
            return sb.toString();
        }
    }

    private static void write() {
        String file = System.getProperty("interop.summary");
        if (file == null) {
            return;
        }
        try {
            Files.writeString(Path.of(file), table(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
