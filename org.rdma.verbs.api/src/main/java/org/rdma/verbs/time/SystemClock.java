package org.rdma.verbs.time;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** The real-time {@link IbClock}: {@link System#nanoTime()} and one daemon timer thread. */
public final class SystemClock implements IbClock, AutoCloseable {
    private final ScheduledThreadPoolExecutor timers;

    /** A clock whose timer thread carries {@code threadName}. */
    public SystemClock(String threadName) {
        timers = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        timers.setRemoveOnCancelPolicy(true);
        timers.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Timer schedule(Runnable task, long delay, TimeUnit unit) {
        // Pending ends when the callback starts, as timer_pending() and VirtualClock have it:
        // a callback that re-arms its own timer must see it as no longer pending.
        AtomicBoolean pending = new AtomicBoolean(true);
        ScheduledFuture<?> f = timers.schedule(() -> {
            if (pending.compareAndSet(true, false)) {
                task.run();
            }
        }, Math.max(0, delay), unit);
        return new Timer() {
            @Override
            public boolean cancel() {
                if (pending.compareAndSet(true, false)) {
                    f.cancel(false);
                    return true;
                }
                return false;
            }

            @Override
            public boolean isPending() {
                return pending.get();
            }
        };
    }

    /** Stops the timer thread; pending timers never run. Waits for a running one to finish. */
    @Override
    public void close() {
        timers.shutdownNow();
        try {
            timers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
