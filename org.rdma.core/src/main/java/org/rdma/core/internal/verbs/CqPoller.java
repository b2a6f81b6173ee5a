package org.rdma.core.internal.verbs;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.Wc;

/**
 * The polling work of a CQ allocated with a softirq or workqueue context ({@code ib_poll_handler},
 * {@code ib_cq_poll_work}): process up to a budget, then re-arm and poll again if completions
 * were missed. At most one pass runs at a time; {@link #stop()} is a fence.
 */
final class CqPoller implements Runnable {
    private static final int POLL_FLAGS = CqNotifyFlags.NEXT_COMP | CqNotifyFlags.REPORT_MISSED_EVENTS;

    private final CoreCq cq;
    private final Executor executor;
    private final int budget;
    private final Wc[] wcs = Wc.array(IbCq.POLL_BATCH);
    private final AtomicBoolean queued = new AtomicBoolean();
    private final ReentrantLock running = new ReentrantLock();
    private volatile boolean stopped;

    CqPoller(CoreCq cq, Executor executor, int budget) {
        this.cq = cq;
        this.executor = executor;
        this.budget = budget;
    }

    /** {@code queue_work()}/{@code irq_poll_sched()}: a no-op while a pass is already queued. */
    void schedule() {
        if (!stopped && queued.compareAndSet(false, true)) {
            try {
                executor.execute(this);
            } catch (RejectedExecutionException e) {
                queued.set(false);
            }
        }
    }

    @Override
    public void run() {
        running.lock();
        try {
            queued.set(false);
            if (stopped) {
                return;
            }
            int completed = cq.process(budget, wcs);
            if (completed >= budget || cq.reqNotifyCq(POLL_FLAGS) > 0) {
                schedule();
            }
        } finally {
            running.unlock();
        }
    }

    /** No pass runs after this returns; then delivers what is left on the caller's thread. */
    void stop() {
        stopped = true;
        running.lock();
        try {
            cq.process(-1, wcs);
        } finally {
            running.unlock();
        }
    }
}
