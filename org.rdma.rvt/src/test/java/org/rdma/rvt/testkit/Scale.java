package org.rdma.rvt.testkit;

/**
 * The size of the long exactly-once runs, chosen by the system property {@value #PROPERTY}:
 * {@code ci} (the default, what {@code mvn verify} runs) or {@code full} (the documented figures,
 * {@code .ci/exactly-once}). One switch for every such run, so a full-scale run cannot forget one.
 */
public final class Scale {
    /** The system property that selects the size. */
    public static final String PROPERTY = "rdma.scale";

    private Scale() {
    }

    /**
     * @param ci   the count CI runs
     * @param full the documented count
     * @return the count the selected scale runs
     * @throws IllegalArgumentException if the property names neither scale (a typo would otherwise
     *         run the short version and report it as the long one)
     */
    public static int of(int ci, int full) {
        String s = System.getProperty(PROPERTY, "ci");
        switch (s) {
            case "ci":
                return ci;
            case "full":
                return full;
            default:
                throw new IllegalArgumentException(PROPERTY + "=" + s + ": expected ci or full");
        }
    }
}
