package org.rdma.verbs.spi;

import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbEvent;

/**
 * Consumer upcalls (completion handlers and asynchronous events) deferred until the calling thread
 * runs no transport task any more. A synchronous driver can chain a requester into a peer's
 * responder and back; consumer code that posts, polls or modifies from a handler must never run
 * inside such a chain, so every upcall is queued per thread and delivered when the outermost task
 * (or verb) on the thread has finished. Never allocates once the queue has grown to its working
 * size.
 *
 * <p>The kernel gets the same effect from context: rxe and rdmavt run completion handlers from
 * their completion tasklet ({@code rxe_cq_post()} schedules {@code comp_handler}), never from
 * inside the requester or responder. It lives in the SPI, not in a driver bundle, because its
 * per-thread state outlives any driver: a thread-local value of a driver's class would pin that
 * driver's old class loader on every thread that ever ran it, each time the driver is reloaded.
 */
public final class Upcalls {
    private static final System.Logger LOG = System.getLogger(Upcalls.class.getName());
    private static final ThreadLocal<Upcalls> CURRENT = ThreadLocal.withInitial(Upcalls::new);

    private int depth;
    private DeviceContext[] ctxs = new DeviceContext[16];
    private Object[] args = new Object[16];
    private int head;
    private int count;

    private Upcalls() {
    }

    /**
     * Marks the start of transport work on this thread (a driver's {@code rxe_do_task()} or verb);
     * pair with {@link #exit()}.
     */
    public static Upcalls enter() {
        Upcalls u = CURRENT.get();
        u.depth++;
        return u;
    }

    /** Ends transport work; the outermost exit delivers the queued upcalls ({@code ib_cq->comp_handler}, events). */
    public void exit() {
        if (depth == 1 && count > 0) {
            drain();
        }
        depth--;
    }

    /** Queues {@code ctx.cqComplete(cq)}: the CQ's {@code comp_handler} upcall. */
    public void cqComplete(DeviceContext ctx, IbCq cq) {
        add(ctx, cq);
    }

    /** Queues {@code ctx.dispatchEvent(event)}: {@code ib_dispatch_event()}. */
    public void event(DeviceContext ctx, IbEvent event) {
        add(ctx, event);
    }

    private void add(DeviceContext ctx, Object arg) {
        if (ctx == null) {
            return;
        }
        if (count == ctxs.length) {
            grow();
        }
        int i = (head + count) % ctxs.length;
        ctxs[i] = ctx;
        args[i] = arg;
        count++;
    }

    private void grow() {
        int n = ctxs.length * 2;
        DeviceContext[] c = new DeviceContext[n];
        Object[] a = new Object[n];
        for (int i = 0; i < count; i++) {
            c[i] = ctxs[(head + i) % ctxs.length];
            a[i] = args[(head + i) % ctxs.length];
        }
        ctxs = c;
        args = a;
        head = 0;
    }

    private void drain() {
        while (count > 0) {
            DeviceContext ctx = ctxs[head];
            Object arg = args[head];
            ctxs[head] = null;
            args[head] = null;
            head = (head + 1) % ctxs.length;
            count--;
            try {
                if (arg instanceof IbCq) {
                    ctx.cqComplete((IbCq) arg);
                } else {
                    ctx.dispatchEvent((IbEvent) arg);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "consumer upcall failed", e);
            }
        }
    }
}
