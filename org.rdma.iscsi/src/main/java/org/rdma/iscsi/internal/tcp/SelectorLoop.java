package org.rdma.iscsi.internal.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One selector thread: it serves the readiness of many channels, runs tasks handed to it from
 * other threads, and, on the loop that has one, calls a periodic task about once a second (the
 * engine's timers). No thread per connection.
 */
final class SelectorLoop implements Runnable {
    private static final Logger LOG = Logger.getLogger(SelectorLoop.class.getName());
    private static final long TICK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** What a registered channel's attachment does when the selector says it is ready. */
    interface Ready {
        void ready(SelectionKey key) throws IOException;

        /** The channel failed with {@code e} while being served. */
        void failed(IOException e);
    }

    private final Selector selector;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Runnable periodic;
    private final Thread thread;
    private volatile boolean running = true;

    SelectorLoop(String name, Runnable periodic) {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("EIO: no selector", e);
        }
        this.periodic = periodic;
        thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Runs {@code task} on the loop's thread. */
    void execute(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    /** Registers {@code ch} (on the loop's thread: call through {@link #execute}). */
    SelectionKey register(SelectableChannel ch, int ops, Ready attachment) throws ClosedChannelException {
        return ch.register(selector, ops, attachment);
    }

    /** Wakes the selector so a changed interest set takes effect. */
    void wakeup() {
        selector.wakeup();
    }

    void stop() {
        running = false;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        long nextTick = System.nanoTime() + TICK_NANOS;
        while (running) {
            try {
                selector.select(TimeUnit.NANOSECONDS.toMillis(TICK_NANOS));
            } catch (IOException e) {
                LOG.log(Level.SEVERE, "selector failed", e);
                break;
            }
            for (Runnable t; (t = tasks.poll()) != null;) {
                runSafely(t);
            }
            for (var it = selector.selectedKeys().iterator(); it.hasNext();) {
                SelectionKey k = it.next();
                it.remove();
                Ready r = (Ready) k.attachment();
                try {
                    if (k.isValid()) {
                        r.ready(k);
                    }
                } catch (IOException e) {
                    r.failed(e);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "a channel's handler failed", e);
                    r.failed(new IOException(e));
                }
            }
            if (periodic != null && System.nanoTime() - nextTick >= 0) {
                nextTick = System.nanoTime() + TICK_NANOS;
                runSafely(periodic);
            }
        }
        for (SelectionKey k : selector.keys()) {
            try {
                k.channel().close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static void runSafely(Runnable t) {
        try {
            t.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a selector task failed", e);
        }
    }
}
