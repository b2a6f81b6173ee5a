package org.rdma.core.internal.registry;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import org.rdma.verbs.IbClient;

/**
 * A registered client: its {@code client_id} (registration order), service id, and the use
 * count that makes {@code ib_unregister_client()} a fence ({@code client->uses} and
 * {@code uses_zero}): each device context holds one use from before its add runs until after
 * its remove returned.
 */
final class ClientEntry {
    private static final System.Logger LOG = System.getLogger(ClientEntry.class.getName());

    final IbClient client;
    final int id;
    final long serviceId;
    final String name;
    /** Cleared under the registration lock: no add starts once it is false. */
    volatile boolean registered = true;

    private int uses;
    /** This client's callbacks on the current thread's stack. */
    private final ThreadLocal<int[]> running = ThreadLocal.withInitial(() -> new int[1]);

    ClientEntry(IbClient client, int id, long serviceId, String name) {
        this.client = client;
        this.id = id;
        this.serviceId = serviceId;
        this.name = name;
    }

    /** A device context of this client now exists. */
    synchronized void get() {
        uses++;
    }

    /** A device context of this client is gone. */
    synchronized void put() {
        uses--;
        notifyAll();
    }

    /** Marks a callback of this client as running on the current thread, until {@link #exit()}. */
    void enter() {
        running.get()[0]++;
    }

    void exit() {
        running.get()[0]--;
    }

    /**
     * {@code wait_for_completion(&client->uses_zero)}: waits until no context of this client is
     * left, except those whose callback is on the calling thread's own stack, so that a client
     * that unregisters itself from its own {@code remove} does not wait for itself; that one
     * callback finishes after the unregistration returns.
     */
    void awaitUnused() {
        int own = running.get()[0];
        boolean interrupted = false;
        synchronized (this) {
            long warnAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (uses > own) {
                try {
                    wait(1000);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (uses > own && System.nanoTime() - warnAt > 0) {
                    LOG.log(Level.WARNING, "unregistering client {0} waits for {1} callback(s) on other threads", name, uses - own);
                    warnAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
