package org.rdma.mad.internal.umad;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.time.VirtualClock;

/**
 * How a reader of a user-MAD port waits for the next MAD ({@code wait_event_interruptible()} on
 * the file's {@code recv_wait} in ib_umad). Production code blocks on the port's monitor, which
 * every arrival notifies; a test in virtual time instead runs the queued work and advances its
 * clock until the MAD is there, so nothing waits in real time.
 */
@FunctionalInterface
public interface UmadWaiter {
    /**
     * Returns when {@code ready} holds or the clock reached {@code deadlineNanos}; may return
     * earlier (the caller checks again). Called without any lock held.
     *
     * @param monitor       notified (under its lock) whenever {@code ready} may have changed
     * @param ready         the condition waited for
     * @param deadlineNanos a time of the port's {@link IbClock}; {@link Long#MAX_VALUE}: none
     */
    void await(Object monitor, BooleanSupplier ready, long deadlineNanos);

    /**
     * Blocking on {@code monitor}: woken by arrivals, and by a timer of {@code clock} at the
     * deadline, so a virtual clock advanced by another thread ends the wait too.
     */
    static UmadWaiter blocking(IbClock clock) {
        return (monitor, ready, deadline) -> {
            IbClock.Timer timer = null;
            if (deadline != Long.MAX_VALUE) {
                long delay = Math.max(0, deadline - clock.nanoTime());
                timer = clock.schedule(() -> {
                    synchronized (monitor) {
                        monitor.notifyAll();
                    }
                }, delay, TimeUnit.NANOSECONDS);
            }
            try {
                synchronized (monitor) {
                    while (!ready.getAsBoolean() && clock.nanoTime() < deadline) {
                        monitor.wait();
                    }
                }
            } catch (InterruptedException e) {
                // umad_recv() fails with EINTR: the caller sees its deadline or the interrupt flag
                Thread.currentThread().interrupt();
            } finally {
                if (timer != null) {
                    timer.cancel();
                }
            }
        };
    }

    /**
     * For a single-threaded simulation in virtual time (tests, embedded fabrics): instead of
     * blocking, runs the queued work ({@code settle}) and fires {@code clock}'s timers one deadline
     * at a time until the MAD is there or the deadline is reached. Waiting without a deadline when
     * no work and no timer is left can never end, so it fails with ETIMEDOUT instead.
     */
    static UmadWaiter driving(VirtualClock clock, Runnable settle) {
        return (monitor, ready, deadline) -> {
            settle.run();
            while (!ready.getAsBoolean()) {
                long next = clock.nextDeadline();
                if (next < 0 || next > deadline) {
                    if (deadline == Long.MAX_VALUE) {
                        throw new RdmaException(Errno.ETIMEDOUT, "no MAD can arrive: no work and no timer is left");
                    }
                    clock.advanceTo(deadline);
                    settle.run();
                    return;
                }
                clock.advanceTo(next);
                settle.run();
            }
        };
    }
}
