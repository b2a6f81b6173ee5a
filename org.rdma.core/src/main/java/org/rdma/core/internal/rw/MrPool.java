package org.rdma.core.internal.rw;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMrPool;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.MrType;
import org.rdma.verbs.RdmaException;

/**
 * One of a QP's MR lists ({@code drivers/infiniband/core/mr_pool.c}). Free MRs are taken and
 * returned at the head, as the kernel's list is used; {@code this} plays {@code qp->mr_lock}.
 * The pool also remembers the MRs that are taken, so that destroying it leaves none behind.
 * MRs are allocated and deregistered outside the lock.
 */
public final class MrPool implements IbMrPool {
    private static final System.Logger LOG = System.getLogger(MrPool.class.getName());

    private final IbPd pd;
    /** The list's name ({@code rdma_mrs}, {@code sig_mrs}); messages add the device's. */
    private final String what;
    private final AtomicInteger mrsUsed;
    /** Made when {@link #init} first fills the pool: most QPs never take MRs for rdma_rw. */
    private ArrayDeque<IbMr> free;
    private Set<IbMr> all;
    private boolean destroyed;

    /**
     * A list named {@code what} of a QP on {@code pd}; {@code mrsUsed} is the QP's {@code mrs_used}.
     * Every QP has two: the device's name joins the list's only in messages, not per QP.
     */
    public MrPool(IbPd pd, String what, AtomicInteger mrsUsed) {
        this.pd = pd;
        this.what = what;
        this.mrsUsed = mrsUsed;
    }

    @Override
    public void init(int nr, MrType type, int maxNumSg, int maxNumMetaSg) {
        RdmaException.check(nr >= 0 && type != null, Errno.EINVAL, this + ": bad pool size " + nr + " or type");
        synchronized (this) {
            destroyed = false;
        }
        try {
            for (int i = 0; i < nr; i++) {
                IbMr mr = type == MrType.INTEGRITY ? pd.allocMrIntegrity(maxNumSg, maxNumMetaSg)
                        : pd.allocMr(type, maxNumSg);
                synchronized (this) {
                    if (all == null) {
                        free = new ArrayDeque<>();
                        all = Collections.newSetFromMap(new IdentityHashMap<>());
                    }
                    free.addLast(mr);
                    all.add(mr);
                }
            }
        } catch (RuntimeException e) {
            destroy();
            throw e;
        }
    }

    @Override
    public synchronized IbMr get() {
        IbMr mr = free == null ? null : free.pollFirst();
        if (mr != null) {
            mrsUsed.incrementAndGet();
        }
        return mr;
    }

    @Override
    public void put(IbMr mr) {
        synchronized (this) {
            if (mr != null && all != null && all.contains(mr)) {
                free.addFirst(mr);
                mrsUsed.decrementAndGet();
                return;
            }
            if (mr == null || destroyed) {
                return;
            }
        }
        throw new RdmaException(Errno.EINVAL, this + ": MR 0x" + Integer.toHexString(mr.lkey()) + " is not from this pool");
    }

    @Override
    public void destroy() {
        List<IbMr> doomed;
        synchronized (this) {
            destroyed = true;
            if (all == null || all.isEmpty()) {
                return; // the common case: a QP that never had MRs for rdma_rw
            }
            int taken = all.size() - free.size();
            if (taken > 0) {
                LOG.log(Level.WARNING, this + ": destroying the pool with " + taken + " MR(s) still taken");
                mrsUsed.addAndGet(-taken);
            }
            doomed = new ArrayList<>(all);
            all.clear();
            free.clear();
        }
        for (IbMr mr : doomed) {
            try {
                mr.dereg();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, this + ": could not deregister MR 0x" + Integer.toHexString(mr.lkey()), e);
            }
        }
    }

    @Override
    public synchronized int size() {
        return free == null ? 0 : free.size();
    }

    @Override
    public String toString() {
        return pd.device().name() + " " + what;
    }
}
