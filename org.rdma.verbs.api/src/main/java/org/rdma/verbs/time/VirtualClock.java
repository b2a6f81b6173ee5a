package org.rdma.verbs.time;

import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * A virtual-time {@link IbClock} for tests: time stands still until {@link #advance} moves it,
 * running every timer that falls due, in deadline order (ties in scheduling order), on the
 * calling thread. Timers a task schedules for a time within the advance also run.
 */
public final class VirtualClock implements IbClock {
    /** Cancelled timers the queue may hold before it is swept: cancelling leaves them in place. */
    private static final int SWEEP_AT = 64;

    /**
     * Pending timers, and cancelled ones not yet taken out (at most half the queue, or
     * {@link #SWEEP_AT}): cancelling is constant time, as protocol timers are mostly cancelled.
     */
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private int cancelled;
    private long now;
    private long sequence;

    private final class Entry implements Comparable<Entry>, Timer {
        final long deadline;
        final long seq;
        final Runnable task;
        boolean pending = true;

        Entry(long deadline, long seq, Runnable task) {
            this.deadline = deadline;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public int compareTo(Entry o) {
            return deadline != o.deadline ? Long.compare(deadline, o.deadline) : Long.compare(seq, o.seq);
        }

        @Override
        public boolean cancel() {
            synchronized (VirtualClock.this) {
                if (!pending) {
                    return false;
                }
                pending = false;
                if (++cancelled > SWEEP_AT && cancelled > queue.size() / 2) {
                    queue.removeIf(e -> !e.pending);
                    cancelled = 0;
                }
                return true;
            }
        }

        @Override
        public boolean isPending() {
            synchronized (VirtualClock.this) {
                return pending;
            }
        }
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized Timer schedule(Runnable task, long delay, TimeUnit unit) {
        Entry e = new Entry(now + Math.max(0, unit.toNanos(delay)), sequence++, task);
        queue.add(e);
        return e;
    }

    /** Moves time forward by {@code amount}, running every timer due by then. Returns how many ran. */
    public int advance(long amount, TimeUnit unit) {
        long target;
        synchronized (this) {
            target = now + unit.toNanos(amount);
        }
        return advanceTo(target);
    }

    /** Moves time to {@code deadline} (never backwards), running due timers. Returns how many ran. */
    public int advanceTo(long deadline) {
        int ran = 0;
        while (true) {
            Entry next;
            synchronized (this) {
                next = head();
                if (next == null || next.deadline > deadline) {
                    now = Math.max(now, deadline);
                    return ran;
                }
                queue.poll();
                next.pending = false;
                now = Math.max(now, next.deadline);
            }
            // Run outside the lock: a task may schedule or cancel timers.
            next.task.run();
            ran++;
        }
    }

    /** Runs timers one deadline at a time until none is left; returns how many ran. */
    public int runAll() {
        int ran = 0;
        while (true) {
            long d;
            synchronized (this) {
                Entry next = head();
                if (next == null) {
                    return ran;
                }
                d = next.deadline;
            }
            ran += advanceTo(d);
        }
    }

    /** Number of pending timers. */
    public synchronized int pending() {
        return queue.size() - cancelled;
    }

    /** Deadline of the next timer, or -1 when none is pending. */
    public synchronized long nextDeadline() {
        Entry next = head();
        return next == null ? -1 : next.deadline;
    }

    /** The earliest pending timer, cancelled ones before it dropped; lock held. */
    private Entry head() {
        Entry e;
        while ((e = queue.peek()) != null && !e.pending) {
            queue.poll();
            cancelled--;
        }
        return e;
    }
}
