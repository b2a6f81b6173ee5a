package org.rdma.bench;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Compares two builds of the datapath in one JVM: each benchmark jar is loaded by a class loader
 * of its own, and the two run a {@link Workload} in alternating rounds, so both see the same
 * moments of a shared machine. On these machines separate runs of one build differ by up to 2x;
 * the ratio of neighbouring rounds does not drift with them, which is what lets a change of a
 * few per cent be seen. The figure is thread CPU time per message; the verdict is the median of
 * the per-round ratios with their range.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.rdma.bench.Compare OLD.jar NEW.jar [workload [rounds [seconds]]]</pre>
 *
 * Each jar's workload is an {@link IsolatedWorkload}, so an old jar built before {@code Workload}
 * existed can be compared too.
 */
public final class Compare {
    private Compare() {
    }

    /**
     * Entry point.
     *
     * @param args old jar, new jar, workload (default {@code write8list}), rounds (default 12), seconds
     *     per round (default 1)
     * @throws Exception when a jar cannot be loaded or a workload fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Compare OLD.jar NEW.jar [workload [rounds [seconds]]]; workloads: "
                    + String.join(", ", Workload.NAMES));
            System.exit(2);
        }
        String name = args.length > 2 ? args[2] : "write8list";
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 12;
        long roundNanos = (long) ((args.length > 4 ? Double.parseDouble(args[4]) : 1.0) * 1e9);
        IsolatedWorkload[] builds = {new IsolatedWorkload(Path.of(args[0]), name),
                new IsolatedWorkload(Path.of(args[1]), name)};
        for (int k = 0; k < 4; k++) {
            for (IsolatedWorkload b : builds) {
                b.round(roundNanos);
            }
        }
        double[][] ns = new double[2][rounds];
        double[] ratio = new double[rounds];
        for (int k = 0; k < rounds; k++) {
            // Alternate which build goes first, so neither always follows the other's warm caches.
            for (int j = 0; j < 2; j++) {
                int i = (k & 1) ^ j;
                ns[i][k] = builds[i].round(roundNanos);
            }
            ratio[k] = ns[1][k] / ns[0][k];
        }
        for (IsolatedWorkload b : builds) {
            b.close();
        }
        System.out.printf(Locale.ROOT, "%s, CPU ns per message in %d alternating rounds of %.1f s%n", name, rounds,
                roundNanos / 1e9);
        System.out.printf(Locale.ROOT, "  old %s: %s (median %.1f)%n", args[0], Rounds.list(ns[0]), Rounds.median(ns[0]));
        System.out.printf(Locale.ROOT, "  new %s: %s (median %.1f)%n", args[1], Rounds.list(ns[1]), Rounds.median(ns[1]));
        System.out.printf(Locale.ROOT, "  new/old: median %.3f, rounds %.3f .. %.3f%n", Rounds.median(ratio),
                Rounds.min(ratio), Rounds.max(ratio));
    }
}
