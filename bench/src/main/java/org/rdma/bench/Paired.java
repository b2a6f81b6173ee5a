package org.rdma.bench;

import java.util.Locale;

/**
 * The datapath figures measured in alternating rounds with their baseline, in one JVM: the 64 KiB
 * copy, the 64 KiB RC WRITE and the 8-byte WRITEs posted in lists take turns (each an
 * {@link IsolatedWorkload}, so none shapes another's compiled code), and each round's ratio is
 * taken between neighbours. The JMH figures measure the WRITE and the copy in separate forks,
 * minutes apart; on a shared machine whose speed drifts by half over such a span, that puts the
 * drift into their ratio. Here both see the same moments, as {@link Compare}'s two builds do, and
 * the median of the rounds is the verdict, with the rounds' range beside it. The same moments are
 * not a quiet machine: a busy host slows the WRITE path, whose working set is spread over many
 * objects, more than the streaming copy. Figures are thread CPU time (the datapath runs on the
 * posting thread, so that is all its work).
 *
 * <pre>java -cp bench/target/benchmarks.jar org.rdma.bench.Paired [rounds [seconds]]</pre>
 */
public final class Paired {
    /** Rounds the summary measures. */
    static final int ROUNDS = 20;
    /** Seconds each workload runs in a round of the summary. */
    static final double SECONDS = 0.5;
    private static final String[] NAMES = {"copy64k", "write64k", "write8list"};

    private final double[] bwRatio;
    private final double[] msgRate;
    private final double[] msgsPerCopy;

    private Paired(int rounds) {
        bwRatio = new double[rounds];
        msgRate = new double[rounds];
        msgsPerCopy = new double[rounds];
    }

    /**
     * Measures {@code rounds} rounds of {@code seconds} per workload, after four rounds of warm-up.
     *
     * @throws Exception when a workload cannot be set up or fails
     */
    static Paired measure(int rounds, double seconds) throws Exception {
        long nanos = (long) (seconds * 1e9);
        IsolatedWorkload[] w = new IsolatedWorkload[NAMES.length];
        try {
            for (int i = 0; i < w.length; i++) {
                w[i] = new IsolatedWorkload(IsolatedWorkload.runningJar(), NAMES[i]);
            }
            for (int k = 0; k < 4; k++) {
                for (IsolatedWorkload x : w) {
                    x.round(nanos);
                }
            }
            Paired p = new Paired(rounds);
            double[] ns = new double[w.length];
            for (int k = 0; k < rounds; k++) {
                // Each round starts with the next workload, so none always follows the same one.
                for (int j = 0; j < w.length; j++) {
                    int i = (k + j) % w.length;
                    ns[i] = w[i].round(nanos);
                }
                p.bwRatio[k] = ns[0] / ns[1];
                p.msgRate[k] = 1e9 / ns[2];
                p.msgsPerCopy[k] = ns[0] / ns[2];
            }
            return p;
        } finally {
            for (IsolatedWorkload x : w) {
                if (x != null) {
                    x.close();
                }
            }
        }
    }

    /** Prints the figures in the summary's columns. */
    void print() {
        String fmt = Summary.FMT;
        int n = bwRatio.length;
        System.out.printf(Locale.ROOT, "  paired with the copy in %d alternating rounds (thread CPU time; median, rounds' range):%n", n);
        double bw = Rounds.median(bwRatio);
        System.out.printf(Locale.ROOT, fmt, "  RC WRITE 64 KiB / copy", "", "", Summary.ratio(bw, Summary.BW_RATIO_TARGET), ">= " + Summary.BW_RATIO_TARGET,
                Summary.ok(bw >= Summary.BW_RATIO_TARGET)
                        + String.format(Locale.ROOT, "  (rounds %.2f-%.2f)", Rounds.min(bwRatio), Rounds.max(bwRatio)));
        double rate = Rounds.median(msgRate);
        System.out.printf(Locale.ROOT, fmt, "  8 B WRITEs in lists of " + DatapathBench.POST_LIST,
                Summary.mps(rate), "", Summary.ratio(rate / Summary.MSG_RATE_TARGET, 1), ">= 1.00",
                Summary.ok(rate >= Summary.MSG_RATE_TARGET) + String.format(Locale.ROOT,
                        "  (rounds %.2f-%.2f M)", Rounds.min(msgRate) / 1e6, Rounds.max(msgRate) / 1e6));
        System.out.printf(Locale.ROOT, fmt, "    per 64 KiB copy", Summary.f2(Rounds.median(msgsPerCopy)), "", "", "",
                String.format(Locale.ROOT, "(rounds %.2f-%.2f)", Rounds.min(msgsPerCopy), Rounds.max(msgsPerCopy)));
    }

    /**
     * Entry point.
     *
     * @param args rounds (default {@link #ROUNDS}), seconds per workload and round (default {@link #SECONDS})
     * @throws Exception when a workload fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : ROUNDS;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : SECONDS;
        measure(rounds, seconds).print();
    }
}
