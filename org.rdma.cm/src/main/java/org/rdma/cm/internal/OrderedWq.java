package org.rdma.cm.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A connection manager's ordered work queue ({@code alloc_ordered_workqueue("ib_cm")} and
 * {@code "rdma_cm"}): the executor an embedder or test gives, which must run tasks one at a time
 * in order, or else a private daemon thread, which {@link #close()} stops.
 */
public final class OrderedWq implements Executor, AutoCloseable {
    private final Executor executor;
    private final ExecutorService owned;

    private OrderedWq(Executor executor, ExecutorService owned) {
        this.executor = executor;
        this.owned = owned;
    }

    /** {@code given}, or a private thread named {@code name} when it is null. */
    public static OrderedWq of(Executor given, String name) {
        if (given != null) {
            return new OrderedWq(given, null);
        }
        ExecutorService own = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        return new OrderedWq(own, own);
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }

    /** {@code destroy_workqueue()}: stops the private thread after the queued work; a given executor is left alone. */
    @Override
    public void close() {
        if (owned != null) {
            owned.shutdown();
            try {
                owned.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
