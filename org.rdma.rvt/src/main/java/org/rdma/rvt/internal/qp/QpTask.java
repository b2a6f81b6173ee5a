package org.rdma.rvt.internal.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.rdma.verbs.spi.Upcalls;

/**
 * rxe-style task execution ({@code rxe_task.c}) for one QP: {@link #run()} does the work inline
 * unless another caller is already doing it, in which case it only marks the work to be done again
 * and returns, so a packet delivered back into a busy QP never recurses or deadlocks. Verbs that
 * change QP state take the task exclusively with {@link #lock()} ({@code rxe_disable_task()}).
 *
 * <p>Concurrency. One atomic word holds both "taken" ({@code BUSY}) and "run once more"
 * ({@code PENDING}, only ever set while taken), so taking the task is one compare-and-set and
 * releasing it is one more: the release fails exactly when another thread marked work meanwhile,
 * and the holder then runs again instead of leaving it behind. {@link #schedule()}, called only by
 * the holder, needs no atomic at all: it sets a field the holder alone reads.
 */
final class QpTask {
    private static final int BUSY = 1;
    private static final int PENDING = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(QpTask.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Runnable work;
    /** 0, BUSY, or BUSY | PENDING. */
    private volatile int state;
    /** {@link #schedule()} was called; the holder's alone (handed on by the acquire and release of {@link #state}). */
    private boolean again;

    QpTask(Runnable work) {
        this.work = work;
    }

    /** Runs the work now, or makes the current runner run it once more. */
    void run() {
        Upcalls u = Upcalls.enter();
        try {
            if (acquireOrMark()) {
                runAndRelease();
            }
        } finally {
            u.exit();
        }
    }

    /** Takes the task (true), or marks it PENDING for its holder (false). */
    private boolean acquireOrMark() {
        while (true) {
            int s = state;
            if (s == 0) {
                if (STATE.compareAndSet(this, 0, BUSY)) {
                    return true;
                }
            } else if (STATE.compareAndSet(this, s, s | PENDING)) {
                // A write even when PENDING is set already: what the caller published before it
                // then happens-before the holder's failed release, which reads this word.
                return false;
            }
        }
    }

    /** Takes the task if it is free (the caller then calls {@link #runAcquired()}). */
    boolean tryAcquire() {
        return state == 0 && STATE.compareAndSet(this, 0, BUSY);
    }

    /** Runs the work with the task already taken by {@link #tryAcquire()}, then releases it. */
    void runAcquired() {
        runAndRelease();
    }

    /**
     * With the task taken by {@link #tryAcquire()}: runs {@code part}, a share of the work the
     * caller knows to be all there is to do, then releases the task; only when {@code part}
     * {@linkplain #schedule() scheduled} more, or another thread marked the task meanwhile, does the
     * whole work run before the release.
     */
    void runAcquired(Runnable part) {
        try {
            again = false;
            part.run();
        } catch (Throwable t) {
            again = false;
            state = 0;
            throw t;
        }
        if (again || !release()) {
            runAndRelease();
        }
    }

    /** With the task held: runs the work until nobody asks for more, then releases the task. */
    private void runAndRelease() {
        try {
            do {
                do {
                    again = false;
                    work.run();
                } while (again);
            } while (!release());
        } catch (Throwable t) {
            again = false;
            state = 0;
            throw t;
        }
    }

    /**
     * Releases the task, or, when another thread marked it PENDING meanwhile, keeps it with the
     * mark cleared and returns false: the holder must run the work again.
     */
    private boolean release() {
        if (STATE.compareAndSet(this, BUSY, 0)) {
            return true;
        }
        // A volatile store (a full fence), not a release store: the work that follows must not
        // read the queues before the mark is cleared, or a packet queued in between, whose
        // PENDING this store then erases, would be left behind.
        state = BUSY;
        return false;
    }

    /** With the task held: run the work once more before releasing it. */
    void schedule() {
        again = true;
    }

    /**
     * With the task held, at the start of a pass of the work that serves everything scheduled so
     * far: forgets those marks, so they do not cost a whole further run of the work.
     */
    void scheduledServed() {
        again = false;
    }

    /** Takes the task exclusively, waiting for a running pass to end. Pair with {@link #unlock(Upcalls)}. */
    Upcalls lock() {
        Upcalls u = Upcalls.enter();
        while (!STATE.compareAndSet(this, 0, BUSY)) {
            Thread.onSpinWait();
        }
        return u;
    }

    /** Releases the task, running first what was scheduled or marked meanwhile. */
    void unlock(Upcalls u) {
        try {
            if (again || !release()) {
                runAndRelease();
            }
        } finally {
            u.exit();
        }
    }
}
