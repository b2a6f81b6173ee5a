package org.rdma.bench;

import java.util.Arrays;
import java.util.Locale;

/** Per-round figures of alternating measurements: their median, range and listing. */
final class Rounds {
    private Rounds() {
    }

    static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static double min(double[] x) {
        return Arrays.stream(x).min().orElse(Double.NaN);
    }

    static double max(double[] x) {
        return Arrays.stream(x).max().orElse(Double.NaN);
    }

    /** The figures, rounded to whole numbers, separated by spaces. */
    static String list(double[] x) {
        StringBuilder b = new StringBuilder();
        for (double v : x) {
            b.append(b.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.0f", v));
        }
        return b.toString();
    }
}
