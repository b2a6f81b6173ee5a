package org.rdma.mad.internal.sa;

import java.lang.System.Logger.Level;
import org.rdma.verbs.IbAh;

/**
 * {@code struct ib_sa_sm_ah}: the address handle of a port's SM, shared by every query on the
 * port (a {@code kref}: the port holds one reference, each query in flight one more) and dropped
 * on the port events after which the SM's LID or SL may differ ({@code update_sm_ah()}); the AH
 * is destroyed with the last reference ({@code free_sm_ah()}).
 */
final class SmAh {
    private static final System.Logger LOG = System.getLogger(SmAh.class.getName());

    final IbAh ah;
    private int refs = 1;

    SmAh(IbAh ah) {
        this.ah = ah;
    }

    /** {@code kref_get()}. */
    synchronized void get() {
        refs++;
    }

    /** {@code kref_put(..., free_sm_ah)}. */
    void put() {
        synchronized (this) {
            if (--refs > 0) {
                return;
            }
        }
        try {
            ah.destroy();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "SM AH destroy failed: {0}", e.getMessage());
        }
    }
}
