package org.rdma.sm.testkit;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * A queue executor for tests: work queued by completions, the MAD layer, the SM or the CM waits
 * until {@link #drain()} runs it on the test's thread, so nothing runs behind the test's back.
 * In {@link #inline} mode (teardown) work runs as soon as it is queued.
 */
public final class Pump implements Executor {
    private final ArrayDeque<Runnable> q = new ArrayDeque<>();
    private boolean running;
    /** Run work at once instead of queueing it. */
    public volatile boolean inline;

    @Override
    public void execute(Runnable r) {
        synchronized (this) {
            q.add(r);
            if (!inline || running) {
                return;
            }
        }
        drain();
    }

    /** Runs queued work, and what it queues, until nothing is left; a no-op when called from inside. */
    public void drain() {
        synchronized (this) {
            if (running) {
                return;
            }
            running = true;
        }
        try {
            while (true) {
                Runnable n;
                synchronized (this) {
                    n = q.poll();
                    if (n == null) {
                        // Under the poll's lock: work queued from now on finds nobody running.
                        running = false;
                        return;
                    }
                }
                n.run();
            }
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                running = false;
            }
            throw e;
        }
    }

    /** Work waiting to run. */
    public synchronized int pending() {
        return q.size();
    }
}
