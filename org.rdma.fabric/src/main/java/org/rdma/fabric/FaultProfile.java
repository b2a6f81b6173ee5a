package org.rdma.fabric;

import java.util.concurrent.TimeUnit;

/**
 * The faults one direction of a {@link FabricLink} injects, in virtual time: the knobs of
 * {@code tc qdisc netem} (loss, duplicate, reorder, corrupt, delay) for the simulated cable.
 * Decisions are drawn from a random generator seeded from the fabric's seed and the link, so a
 * run with the same seed and the same traffic repeats exactly. Immutable; build with the
 * {@code with*} methods from {@link #NONE}.
 *
 * <p>Per packet, in this order: drop ({@link #dropRate()}); corrupt one random bit of the
 * materialized frame ({@link #corruptRate()}); deliver a second, materialized copy after the
 * link delay ({@link #duplicateRate()}); hold the packet back until the next one has passed or
 * {@link #reorderHoldNanos()} elapsed ({@link #reorderRate()}); and deliver after
 * {@link #delayNanos()} (every packet, when non-zero).
 */
public final class FaultProfile {

    /** No faults: the fast path. */
    public static final FaultProfile NONE = new FaultProfile(0, 0, 0, 0, 0, TimeUnit.MICROSECONDS.toNanos(10));

    private final double dropRate;
    private final double duplicateRate;
    private final double reorderRate;
    private final double corruptRate;
    private final long delayNanos;
    private final long reorderHoldNanos;

    private FaultProfile(double dropRate, double duplicateRate, double reorderRate, double corruptRate,
                         long delayNanos, long reorderHoldNanos) {
        this.dropRate = rate(dropRate, "drop");
        this.duplicateRate = rate(duplicateRate, "duplicate");
        this.reorderRate = rate(reorderRate, "reorder");
        this.corruptRate = rate(corruptRate, "corrupt");
        if (delayNanos < 0 || reorderHoldNanos < 0) {
            throw new IllegalArgumentException("delays must not be negative");
        }
        this.delayNanos = delayNanos;
        this.reorderHoldNanos = reorderHoldNanos;
    }

    private static double rate(double r, String what) {
        if (!(r >= 0 && r <= 1)) {
            throw new IllegalArgumentException(what + " rate must be within [0, 1], got " + r);
        }
        return r;
    }

    /**
     * @param rate probability that a packet is lost
     * @return a copy with that drop rate
     */
    public FaultProfile withDropRate(double rate) {
        return new FaultProfile(rate, duplicateRate, reorderRate, corruptRate, delayNanos, reorderHoldNanos);
    }

    /**
     * @param rate probability that a packet is delivered twice
     * @return a copy with that rate
     */
    public FaultProfile withDuplicateRate(double rate) {
        return new FaultProfile(dropRate, rate, reorderRate, corruptRate, delayNanos, reorderHoldNanos);
    }

    /**
     * @param rate probability that a packet is held back behind the next one
     * @return a copy with that rate
     */
    public FaultProfile withReorderRate(double rate) {
        return new FaultProfile(dropRate, duplicateRate, rate, corruptRate, delayNanos, reorderHoldNanos);
    }

    /**
     * @param hold how long a held packet waits for a next one before it is released anyway
     * @param unit unit of {@code hold}
     * @return a copy with that hold time
     */
    public FaultProfile withReorderHold(long hold, TimeUnit unit) {
        return new FaultProfile(dropRate, duplicateRate, reorderRate, corruptRate, delayNanos, unit.toNanos(hold));
    }

    /**
     * @param rate probability that one bit of a packet is flipped
     * @return a copy with that rate
     */
    public FaultProfile withCorruptRate(double rate) {
        return new FaultProfile(dropRate, duplicateRate, reorderRate, rate, delayNanos, reorderHoldNanos);
    }

    /**
     * @param delay fixed latency added to every packet
     * @param unit  unit of {@code delay}
     * @return a copy with that delay
     */
    public FaultProfile withDelay(long delay, TimeUnit unit) {
        return new FaultProfile(dropRate, duplicateRate, reorderRate, corruptRate, unit.toNanos(delay), reorderHoldNanos);
    }

    /** @return probability that a packet is lost */
    public double dropRate() {
        return dropRate;
    }

    /** @return probability that a packet is delivered twice */
    public double duplicateRate() {
        return duplicateRate;
    }

    /** @return probability that a packet is held back behind the next one */
    public double reorderRate() {
        return reorderRate;
    }

    /** @return probability that one bit of a packet is flipped */
    public double corruptRate() {
        return corruptRate;
    }

    /** @return the fixed delay in nanoseconds */
    public long delayNanos() {
        return delayNanos;
    }

    /** @return how long a held packet waits for a next one, in nanoseconds */
    public long reorderHoldNanos() {
        return reorderHoldNanos;
    }

    /** @return whether this profile injects nothing (the fast path) */
    public boolean isNone() {
        return dropRate == 0 && duplicateRate == 0 && reorderRate == 0 && corruptRate == 0 && delayNanos == 0;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FaultProfile)) {
            return false;
        }
        FaultProfile f = (FaultProfile) o;
        return dropRate == f.dropRate && duplicateRate == f.duplicateRate && reorderRate == f.reorderRate
                && corruptRate == f.corruptRate && delayNanos == f.delayNanos && reorderHoldNanos == f.reorderHoldNanos;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(dropRate, duplicateRate, reorderRate, corruptRate, delayNanos, reorderHoldNanos);
    }

    @Override
    public String toString() {
        return "FaultProfile{drop=" + dropRate + ", duplicate=" + duplicateRate + ", reorder=" + reorderRate
                + " (hold " + reorderHoldNanos + " ns), corrupt=" + corruptRate + ", delay=" + delayNanos + " ns}";
    }
}
