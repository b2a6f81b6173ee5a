package org.rdma.itest.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded polls for state the core changes on its own threads (runtime DTOs, services). The
 * pause between two looks only limits CPU use; correctness never depends on it: a poll either
 * sees the condition or fails with what it last saw once the timeout is over.
 */
public final class Poll {
    /** The default bound: generous, since a failing poll means a bug, not a slow machine. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Poll() {
    }

    /** Waits until {@code condition} holds; fails with {@code what} after {@link #TIMEOUT}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, condition, TIMEOUT);
    }

    /** Waits until {@code condition} holds; fails with {@code what} after {@code timeout}. */
    public static void until(String what, BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + what);
            }
            pause();
        }
    }

    /**
     * Waits until {@code ok} accepts the value of {@code value} and returns it; fails with the
     * last value seen after {@link #TIMEOUT}.
     */
    public static <T> T value(String what, Supplier<T> value, Predicate<? super T> ok) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            T v = value.get();
            if (ok.test(v)) {
                return v;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + TIMEOUT.toMillis() + " ms waiting until " + what + "; last seen: " + v);
            }
            pause();
        }
    }

    private static void pause() {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        if (Thread.interrupted()) {
            fail("interrupted while polling");
        }
    }
}
