package org.rdma.rvt.internal.wire;

/** 24-bit packet sequence number arithmetic ({@code psn_compare()} and friends). */
public final class Psn {
    private Psn() {
    }

    /** PSN mask. */
    public static final int MASK = 0xffffff;

    /**
     * Compares two PSNs in the 24-bit circular space: negative if {@code a} is before {@code b},
     * 0 if equal, positive if after (sign of the difference shifted into the top 24 bits).
     */
    public static int compare(int a, int b) {
        return (a - b) << 8;
    }

    /** {@code (psn + n) mod 2^24}. */
    public static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    /** Distance from {@code from} forward to {@code to}, in [0, 2^24). */
    public static int distance(int from, int to) {
        return (to - from) & MASK;
    }

    /** MSN comparison ({@code rvt_cmp_msn()}), same circular rule. */
    public static int compareMsn(int a, int b) {
        return (a - b) << 8;
    }
}
