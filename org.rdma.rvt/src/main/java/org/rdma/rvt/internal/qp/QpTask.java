package org.rdma.rvt.internal.qp;

import java.util.concurrent.atomic.AtomicBoolean;
import org.rdma.verbs.spi.Upcalls;

/**
 * rxe-style task execution ({@code rxe_task.c}) for one QP: {@link #run()} does the work inline
 * unless another caller is already doing it, in which case it only marks the work to be done again
 * and returns, so a packet delivered back into a busy QP never recurses or deadlocks. Verbs that
 * change QP state take the task exclusively with {@link #lock()} ({@code rxe_disable_task()}).
 */
final class QpTask {
    private final AtomicBoolean busy = new AtomicBoolean();
    private final Runnable work;
    private volatile boolean pending;

    QpTask(Runnable work) {
        this.work = work;
    }

    /** Runs the work now, or makes the current runner run it once more. */
    void run() {
        pending = true;
        Upcalls u = Upcalls.enter();
        try {
            while (pending && busy.compareAndSet(false, true)) {
                try {
                    while (pending) {
                        pending = false;
                        work.run();
                    }
                } finally {
                    busy.set(false);
                }
            }
        } finally {
            u.exit();
        }
    }

    /** Takes the task if it is free (the caller then calls {@link #runAcquired()}). */
    boolean tryAcquire() {
        return busy.compareAndSet(false, true);
    }

    /** Runs the work with the task already taken by {@link #tryAcquire()}, then releases it. */
    void runAcquired() {
        try {
            do {
                pending = false;
                work.run();
            } while (pending);
        } finally {
            busy.set(false);
        }
        while (pending && busy.compareAndSet(false, true)) {
            try {
                while (pending) {
                    pending = false;
                    work.run();
                }
            } finally {
                busy.set(false);
            }
        }
    }

    /** Marks work to do without running it (the caller holds the task or will run it). */
    void schedule() {
        pending = true;
    }

    /** Takes the task exclusively, waiting for a running pass to end. Pair with {@link #unlock()}. */
    Upcalls lock() {
        Upcalls u = Upcalls.enter();
        while (!busy.compareAndSet(false, true)) {
            Thread.onSpinWait();
        }
        return u;
    }

    /** Releases the task and runs what was marked meanwhile. */
    void unlock(Upcalls u) {
        busy.set(false);
        try {
            if (pending) {
                run();
            }
        } finally {
            u.exit();
        }
    }
}
