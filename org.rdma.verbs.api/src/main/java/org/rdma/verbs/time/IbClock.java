package org.rdma.verbs.time;

import java.util.concurrent.TimeUnit;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A clock and timer service: {@code ktime_get()} plus {@code mod_timer()}/{@code del_timer()}.
 * The core publishes one as an OSGi service; code that arms timers takes it by injection so
 * tests can substitute a {@link VirtualClock}.
 */
@ProviderType
public interface IbClock {
    /** Monotonic time in nanoseconds ({@code ktime_get_ns()}). */
    long nanoTime();

    /**
     * Runs {@code task} once after {@code delay} ({@code mod_timer()} / {@code queue_delayed_work()}).
     * Tasks must be short; they run on the clock's timer thread, or in {@link VirtualClock#advance}.
     * Each call allocates a timer: datapath timers keep one armed timer and a deadline field
     * instead of scheduling per operation.
     */
    Timer schedule(Runnable task, long delay, TimeUnit unit);

    /** A pending timer ({@code struct timer_list}). */
    @ProviderType
    interface Timer {
        /** {@code del_timer()}: true if the timer was pending and now will not run. */
        boolean cancel();

        /** {@code timer_pending()}. */
        boolean isPending();
    }
}
