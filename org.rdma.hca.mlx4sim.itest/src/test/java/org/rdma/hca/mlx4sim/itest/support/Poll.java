package org.rdma.hca.mlx4sim.itest.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded polls for state that changes on other threads (services, runtime DTOs, threads, QP
 * states). The pause between two looks only limits CPU use; correctness never depends on it: a
 * poll either sees its condition or fails, after the timeout, with what it last saw.
 */
public final class Poll {
    /** The default bound: generous, since a failing poll means a bug, not a slow machine. */
    public static final Duration TIMEOUT = Duration.ofSeconds(20);

    private Poll() {
    }

    /** Waits until {@code condition} holds; fails with {@code what} and {@code state} after {@link #TIMEOUT}. */
    public static void until(String what, BooleanSupplier condition, Supplier<?> state) {
        until(what, condition, state, TIMEOUT);
    }

    /** Waits until {@code condition} holds; fails with {@code what} and {@code state} after {@code timeout}. */
    public static void until(String what, BooleanSupplier condition, Supplier<?> state, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + what + "; last seen: "
                        + state.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            if (Thread.interrupted()) {
                fail("interrupted while waiting until " + what);
            }
        }
    }
}
