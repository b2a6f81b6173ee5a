package org.rdma.mad.sa;

/**
 * {@code struct ib_sa_client}: a user of the SA, registered with {@link SaService#registerClient}
 * and unregistered with {@link SaService#unregisterClient}, which waits until every query the
 * client started has called back.
 */
public final class SaClient {
    private int users;

    /** {@code ib_sa_client_get()}. */
    public synchronized void get() {
        users++;
    }

    /** {@code ib_sa_client_put()}. */
    public synchronized void put() {
        if (--users <= 0) {
            notifyAll();
        }
    }

    /** The current use count (1 while registered and idle). */
    public synchronized int users() {
        return users;
    }

    /** Waits until the use count reaches zero. */
    public synchronized void awaitIdle() {
        boolean interrupted = false;
        while (users > 0) {
            try {
                wait(100);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
