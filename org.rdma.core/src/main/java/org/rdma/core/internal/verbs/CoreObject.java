package org.rdma.core.internal.verbs;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventHandler;
import org.rdma.verbs.RdmaException;

/**
 * What every core verbs object has: its device, the driver's object, a use count of the objects
 * that depend on it ({@code usecnt}), its restrack entry, and a once-only destroy.
 */
abstract class CoreObject<P> {
    private static final System.Logger LOG = System.getLogger(CoreObject.class.getName());

    final CoreDevice dev;
    /** The consumer's handler of this object's asynchronous events, or null. */
    final IbEventHandler eventHandler;
    P provider;
    private Restrack.Entry res;
    final AtomicInteger usecnt = new AtomicInteger();
    private final AtomicBoolean destroyed = new AtomicBoolean();

    CoreObject(CoreDevice dev) {
        this(dev, null);
    }

    CoreObject(CoreDevice dev, IbEventHandler eventHandler) {
        this.dev = dev;
        this.eventHandler = eventHandler;
    }

    /** Delivers a QP/CQ/SRQ/WQ event to the handler given at creation ({@code qp->event_handler}). */
    final void event(IbEvent event) {
        if (eventHandler != null) {
            try {
                eventHandler.handle(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, dev.name() + ": event handler failed on " + event, e);
            }
        }
    }

    /** Publishes the complete object to the resource tracker, where device removal finds it too. */
    final void track(Restrack.Type type, String owner, Supplier<Map<String, String>> attrs) {
        res = dev.restrack.add(type, owner, attrs, this);
    }

    final long resId() {
        return res == null ? -1 : res.id();
    }

    /**
     * Claims the destruction: fails with EBUSY while dependants exist, returns false if another
     * thread already destroyed the object.
     */
    final boolean beginDestroy(String what) {
        if (usecnt.get() > 0) {
            throw new RdmaException(Errno.EBUSY, dev.name() + ": " + what + " is still used by "
                    + usecnt.get() + " object(s)");
        }
        return destroyed.compareAndSet(false, true);
    }

    final void untrack() {
        dev.restrack.del(res);
    }

    final boolean isDestroyed() {
        return destroyed.get();
    }

    /** Destroys the object during device removal, whatever its users did. */
    abstract void forceDestroy();

    /** Cleanup rank during device removal: lower goes first (QPs before CQs before PDs). */
    abstract int cleanupRank();

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
