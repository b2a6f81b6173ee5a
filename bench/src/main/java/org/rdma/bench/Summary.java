package org.rdma.bench;

import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs every benchmark of {@link DatapathBench}, {@link LayerBench} and {@link ManagementBench} (or those a JMH
 * include pattern on the command line selects) with the GC profiler and prints the summary table:
 * each figure, the baseline measured in the same run, the ratio and the target, and for the datapath
 * the range its measurement iterations spanned (on a shared machine that range, not the mean,
 * says what a difference between two runs means), the same targets {@linkplain Paired paired} with
 * the baseline in alternating rounds (after a full run only), and how a packet's time divides between the
 * layers against what the targets leave it. JMH options on the
 * command line override the defaults (for example {@code -wi 2 -i 3 -f 1 -w 1s -r 1s} for a quick
 * look); {@code -h} lists them.
 */
public final class Summary {
    /** Target of WRITE 64 KiB bandwidth / 64 KiB copy bandwidth. */
    static final double BW_RATIO_TARGET = 0.6;
    /** Target of the 8-byte WRITE message rate, messages per second. */
    static final double MSG_RATE_TARGET = 3e6;
    /** Target of the SA PathRecord query rate, queries per second. */
    static final double PATH_REC_TARGET = 100e3;
    /** The tables' columns: name, figure, baseline, ratio, target, verdict. */
    static final String FMT = "%-34s %16s %18s %9s %10s %s%n";

    private Summary() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        if (cli.shouldHelp()) {
            cli.showHelp();
            return;
        }
        OptionsBuilder b = Bench.defaults(cli, 2);
        boolean all = cli.getIncludes().isEmpty();
        if (all) {
            b.include(DatapathBench.class.getName() + ".*");
            b.include(LayerBench.class.getName() + ".*");
            b.include(ManagementBench.class.getName() + ".*");
        }
        b.addProfiler(GCProfiler.class);
        Options opts = b.parent(cli).build();
        Collection<RunResult> results = new Runner(opts).run();

        double copy = score(results, "copy64k");
        double big = score(results, "write64k");
        double small = score(results, "write8");
        double list = score(results, "write8list");
        double copyBw = copy * DatapathBench.BIG;
        double writeBw = big * DatapathBench.BIG;
        System.out.println();
        System.out.println("RDMA datapath benchmarks (mlx4sim HCA -> switch -> mlx4sim HCA, RC, MTU 4096, depth "
                + DatapathBench.DEPTH + ", signal every " + DatapathBench.SIGNAL_EVERY + ")");
        String fmt = FMT;
        System.out.printf(Locale.ROOT, fmt, "benchmark", "figure", "baseline", "ratio", "target", "");
        System.out.printf(Locale.ROOT, fmt, "RC WRITE 64 KiB bandwidth", gbps(writeBw), gbps(copyBw) + " (copy)",
                ratio(writeBw / copyBw, BW_RATIO_TARGET), ">= " + BW_RATIO_TARGET, ok(writeBw / copyBw >= BW_RATIO_TARGET)
                        + range(results, "write64k", DatapathBench.BIG / copyBw, ""));
        System.out.printf(Locale.ROOT, fmt, "RC WRITE 8 B message rate", mps(small), mps(MSG_RATE_TARGET) + " (target)",
                ratio(small / MSG_RATE_TARGET, 1), ">= 1.00", ok(small >= MSG_RATE_TARGET) + range(results, "write8", 1e-6, " M"));
        System.out.printf(Locale.ROOT, fmt, "  (8 B WRITEs per 64 KiB copy)", f2(small / copy), "", "", "", "");
        System.out.printf(Locale.ROOT, fmt, "  posted in lists of " + DatapathBench.POST_LIST, mps(list),
                mps(MSG_RATE_TARGET) + " (target)", ratio(list / MSG_RATE_TARGET, 1), ">= 1.00", ok(list >= MSG_RATE_TARGET)
                        + range(results, "write8list", 1e-6, " M"));
        System.out.printf(Locale.ROOT, fmt, "  (in lists, per 64 KiB copy)", f2(list / copy), "", "", "", "");
        for (String name : new String[] {"write64k", "write8", "write8list", "copy64k"}) {
            double alloc = secondary(results, name, "gc.alloc.rate.norm");
            System.out.printf(Locale.ROOT, fmt, "bytes allocated / op, " + name,
                    Double.isNaN(alloc) ? "n/a" : String.format(Locale.ROOT, "%.3f B", alloc), "", "",
                    "0 (< 1)", Double.isNaN(alloc) ? "" : ok(alloc < 1.0));
        }
        if (all) {
            Paired.measure(Paired.ROUNDS, Paired.SECONDS).print();
        }

        layers(results, copyBw, big, list);

        double paths = score(results, "pathRecGet");
        double mads = score(results, "madRoundTrip");
        double sweep = score(results, "sweep100");
        System.out.println();
        System.out.println("Management benchmarks (SM and SA on mlx4sim HCAs, " + ManagementBench.BATCH
                + " queries in flight; sweep: 10 switches, 90 HCAs)");
        System.out.printf(Locale.ROOT, fmt, "benchmark", "figure", "baseline", "ratio", "target", "");
        System.out.printf(Locale.ROOT, fmt, "SA PathRecord queries", kps(paths), kps(mads) + " (MAD rtt)",
                f2(paths / mads), ">= " + kps(PATH_REC_TARGET), ok(paths >= PATH_REC_TARGET));
        System.out.printf(Locale.ROOT, fmt, "SM sweep, 100 nodes", String.format(Locale.ROOT, "%.1f ms", sweep), "", "",
                "reported", "");
    }

    /**
     * The layers' shares of one packet's time ({@link LayerBench}), next to the time the targets
     * leave a packet: at 64 KiB, 16 packets must take no longer than the baseline copy divided by
     * the bandwidth target; at 8 bytes, a message (one packet, ACKs shared by a list) no longer
     * than one over the rate target. The shares are measured apart, not subtracted: each layer
     * alone runs with other neighbours' caches and compiled code, so their sum need not be the
     * whole.
     */
    private static void layers(Collection<RunResult> results, double copyBw, double big, double list) {
        double fabric = score(results, "fabric8");
        double t64 = score(results, "transport64k");
        double t8 = score(results, "transport8list");
        if (Double.isNaN(fabric) && Double.isNaN(t64) && Double.isNaN(t8)) {
            return;
        }
        int pkts = DatapathBench.BIG / LayerBench.MTU;
        double fabricNs = 1e9 / fabric;
        System.out.println();
        System.out.println("Where a packet's time goes (ns per packet; the fabric figure is one 8-byte packet through"
                + " two links and the switch)");
        String fmt = "%-34s %12s %16s %14s %12s%n";
        System.out.printf(Locale.ROOT, fmt, "path", "whole", "transport alone", "fabric alone", "target");
        double whole64 = 1e9 / big / pkts;
        double t64Ns = 1e9 / t64 / pkts;
        System.out.printf(Locale.ROOT, fmt, "RC WRITE 64 KiB, per 4 KiB packet", ns(whole64), ns(t64Ns), ns(fabricNs),
                "<= " + ns(LayerBench.MTU / (BW_RATIO_TARGET * copyBw) * 1e9));
        System.out.printf(Locale.ROOT, fmt, "  of which the payload copy", ns(LayerBench.MTU / copyBw * 1e9), "", "", "");
        double whole8 = 1e9 / list;
        double t8Ns = 1e9 / t8;
        System.out.printf(Locale.ROOT, fmt, "RC WRITE 8 B in lists of " + DatapathBench.POST_LIST, ns(whole8), ns(t8Ns),
                ns(fabricNs), "<= " + ns(1e9 / MSG_RATE_TARGET));
    }

    private static String ns(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f ns", v);
    }

    private static String kps(double perSec) {
        return String.format(Locale.ROOT, "%.1f k/s", perSec / 1e3);
    }

    private static RunResult find(Collection<RunResult> results, String name) {
        for (RunResult r : results) {
            if (r.getParams().getBenchmark().endsWith("." + name)) {
                return r;
            }
        }
        return null;
    }

    private static double score(Collection<RunResult> results, String name) {
        RunResult r = find(results, name);
        return r == null ? Double.NaN : r.getPrimaryResult().getScore();
    }

    /**
     * Each fork's score when there were several (each fork meets the host at another speed, so
     * their spread says more than the mean), then the lowest and highest measurement
     * iteration of {@code name}; all times {@code scale}.
     */
    private static String range(Collection<RunResult> results, String name, double scale, String unit) {
        RunResult r = find(results, name);
        if (r == null || r.getPrimaryResult().getStatistics().getN() < 2) {
            return "";
        }
        StringBuilder forks = new StringBuilder();
        if (r.getBenchmarkResults().size() > 1) {
            for (BenchmarkResult fork : r.getBenchmarkResults()) {
                forks.append(forks.length() == 0 ? "forks " : " / ")
                        .append(String.format(Locale.ROOT, "%.2f", fork.getPrimaryResult().getScore() * scale));
            }
            forks.append(unit).append(", ");
        }
        Statistics st = r.getPrimaryResult().getStatistics();
        return String.format(Locale.ROOT, "  (%siterations %.2f-%.2f%s)", forks, st.getMin() * scale, st.getMax() * scale,
                unit);
    }

    private static double secondary(Collection<RunResult> results, String name, String label) {
        RunResult r = find(results, name);
        if (r == null) {
            return Double.NaN;
        }
        Result<?> s = r.getSecondaryResults().get(label);
        return s == null ? Double.NaN : s.getScore();
    }

    private static String gbps(double bytesPerSec) {
        return String.format(Locale.ROOT, "%.2f GB/s", bytesPerSec / 1e9);
    }

    static String mps(double perSec) {
        return String.format(Locale.ROOT, "%.2f M msg/s", perSec / 1e6);
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /**
     * A ratio set against {@code target}: two decimals, or as many more (up to six) as keep it from
     * rounding onto the target's other side (0.597 printed as "0.60 ... NOT met" reads as a
     * contradiction).
     */
    static String ratio(double v, double target) {
        String s = f2(v);
        for (int d = 3; d <= 6 && Double.parseDouble(s) >= target != v >= target; d++) {
            s = String.format(Locale.ROOT, "%." + d + "f", v);
        }
        return s;
    }

    static String ok(boolean met) {
        return met ? "met" : "NOT met";
    }
}
