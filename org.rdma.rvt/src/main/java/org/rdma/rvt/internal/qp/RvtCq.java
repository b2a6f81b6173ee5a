package org.rdma.rvt.internal.qp;

import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.ProviderCq;
import org.rdma.verbs.spi.Upcalls;

/**
 * A completion queue ({@code struct rvt_cq}): a ring of preallocated {@link Wc} guarded by the
 * object's monitor. Arming follows {@code rvt_req_notify_cq()}/{@code rvt_cq_enter()}: NEXT_COMP
 * fires on any completion, SOLICITED on a solicited or an error completion, each arm fires
 * {@link DeviceContext#cqComplete} once (delivered as a deferred upcall, outside every lock).
 */
public final class RvtCq implements ProviderCq {
    private final IbCq core;
    private final DeviceContext ctx;
    private final Runnable onDestroy;
    private Wc[] ring;
    private int head;
    private int count;
    private int notify;
    private boolean destroyed;

    RvtCq(IbCq core, DeviceContext ctx, int cqe, Runnable onDestroy) {
        this.core = core;
        this.ctx = ctx;
        this.onDestroy = onDestroy;
        this.ring = Wc.array(cqe);
    }

    /** The core's CQ. */
    public IbCq core() {
        return core;
    }

    @Override
    public synchronized int cqe() {
        return ring.length;
    }

    /**
     * {@code rvt_cq_enter()}: copies {@code wc} into the ring. Returns false when the ring is full
     * (the CQ raises CQ_ERR and the caller moves its QP to ERR).
     */
    boolean enter(Wc wc, boolean solicited) {
        boolean full;
        boolean fire = false;
        // One hold of the monitor: full or not is decided where the completion goes in.
        synchronized (this) {
            if (destroyed) {
                return true;
            }
            full = count == ring.length;
            if (!full) {
                ring[wrap(head + count)].copyFrom(wc);
                count++;
                fire = notify == CqNotifyFlags.NEXT_COMP
                        || (notify == CqNotifyFlags.SOLICITED && (solicited || wc.status != WcStatus.SUCCESS));
                if (fire) {
                    notify = 0;
                }
            }
        }
        if (full) {
            Upcalls u = Upcalls.enter();
            u.event(ctx, IbEvent.cq(IbEventType.CQ_ERR, core));
            u.exit();
            return false;
        }
        if (fire) {
            Upcalls u = Upcalls.enter();
            u.cqComplete(ctx, core);
            u.exit();
        }
        return true;
    }

    /** A ring index from one below twice the ring's length (a compare, not a division). */
    private int wrap(int i) {
        return i >= ring.length ? i - ring.length : i;
    }

    @Override
    public synchronized int pollCq(int n, Wc[] wc) {
        int polled = 0;
        int max = Math.min(n, wc.length);
        while (polled < max && count > 0) {
            wc[polled++].copyFrom(ring[head]);
            head = wrap(head + 1);
            count--;
        }
        return polled;
    }

    @Override
    public synchronized int reqNotifyCq(int flags) {
        if (notify != CqNotifyFlags.NEXT_COMP) {
            notify = flags & CqNotifyFlags.SOLICITED_MASK;
        }
        return (flags & CqNotifyFlags.REPORT_MISSED_EVENTS) != 0 && count > 0 ? 1 : 0;
    }

    @Override
    public synchronized void resize(int cqe) {
        RdmaException.check(cqe >= count, Errno.EINVAL, "CQ holds " + count + " completions, more than " + cqe);
        Wc[] next = Wc.array(cqe);
        for (int i = 0; i < count; i++) {
            next[i].copyFrom(ring[(head + i) % ring.length]);
        }
        ring = next;
        head = 0;
    }

    @Override
    public void destroy() {
        synchronized (this) {
            destroyed = true;
        }
        onDestroy.run();
    }
}
