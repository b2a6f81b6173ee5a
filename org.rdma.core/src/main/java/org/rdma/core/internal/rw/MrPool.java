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
    private final String what;
    private final AtomicInteger mrsUsed;
    private final ArrayDeque<IbMr> free = new ArrayDeque<>();
    private final Set<IbMr> all = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean destroyed;

    /** A list named {@code what} of a QP on {@code pd}; {@code mrsUsed} is the QP's {@code mrs_used}. */
    public MrPool(IbPd pd, String what, AtomicInteger mrsUsed) {
        this.pd = pd;
        this.what = what;
        this.mrsUsed = mrsUsed;
    }

    @Override
    public void init(int nr, MrType type, int maxNumSg, int maxNumMetaSg) {
        RdmaException.check(nr >= 0 && type != null, Errno.EINVAL, what + ": bad pool size " + nr + " or type");
        synchronized (this) {
            destroyed = false;
        }
        try {
            for (int i = 0; i < nr; i++) {
                IbMr mr = type == MrType.INTEGRITY ? pd.allocMrIntegrity(maxNumSg, maxNumMetaSg)
                        : pd.allocMr(type, maxNumSg);
                synchronized (this) {
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
        IbMr mr = free.pollFirst();
        if (mr != null) {
            mrsUsed.incrementAndGet();
        }
        return mr;
    }

    @Override
    public void put(IbMr mr) {
        synchronized (this) {
            if (mr != null && all.contains(mr)) {
                free.addFirst(mr);
                mrsUsed.decrementAndGet();
                return;
            }
            if (mr == null || destroyed) {
                return;
            }
        }
        throw new RdmaException(Errno.EINVAL, what + ": MR 0x" + Integer.toHexString(mr.lkey()) + " is not from this pool");
    }

    @Override
    public void destroy() {
        List<IbMr> doomed;
        synchronized (this) {
            destroyed = true;
            if (all.isEmpty()) {
                return; // the common case: a QP that never had MRs for rdma_rw
            }
            int taken = all.size() - free.size();
            if (taken > 0) {
                LOG.log(Level.WARNING, what + ": destroying the pool with " + taken + " MR(s) still taken");
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
                LOG.log(Level.WARNING, what + ": could not deregister MR 0x" + Integer.toHexString(mr.lkey()), e);
            }
        }
    }

    @Override
    public synchronized int size() {
        return free.size();
    }

    @Override
    public String toString() {
        return what;
    }
}
