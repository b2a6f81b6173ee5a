package org.rdma.rvt.internal.mem;

import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.MwType;
import org.rdma.verbs.spi.ProviderMw;

/**
 * A memory window ({@code struct rxe_mw}): a remotely accessible range of an MR, bound by a
 * BIND_MW work request. Type 1 windows belong to the PD; type 2 windows are bound to one QP and
 * invalidated by local invalidate or send with invalidate.
 */
public final class RvtMw implements ProviderMw {
    /** Not bound. */
    public static final int FREE = 0;
    /** Bound and usable. */
    public static final int VALID = 1;
    /** Deallocated. */
    public static final int ZOMBIE = 2;

    /** The type. */
    public final MwType type;
    /** The PD. */
    public final RvtPd pd;
    private final KeyTable keys;

    /** The current rkey. */
    public volatile int rkey;
    /** The state. */
    public volatile int state = FREE;
    /** The MR it is bound to. */
    public volatile RvtMr mr;
    /** Bound range start. */
    public volatile long addr;
    /** Bound range length. */
    public volatile long length;
    /** Window access flags. */
    public volatile int access;
    /** Called once when the window is deallocated (the device's count). */
    public Runnable onDealloc;
    /** The QP a type 2 window is bound to (the transport's QP object). */
    public volatile Object qp;

    /** A window of {@code type} in {@code pd}. */
    public RvtMw(MwType type, RvtPd pd, KeyTable keys) {
        this.type = type;
        this.pd = pd;
        this.keys = keys;
        this.rkey = keys.reserve();
        keys.publish(rkey, this);
    }

    @Override
    public int rkey() {
        return rkey;
    }

    /**
     * Executes a bind ({@code rxe_bind_mw()}): checks C10-72..75 and o10-37.2.x as the kernel does;
     * {@code mr} null or {@code len} 0 unbinds a type 1 window. Returns false on any violation.
     */
    public synchronized boolean bind(Object bindQp, RvtPd qpPd, int mwRkey, int newRkey, RvtMr target, long va,
            long len, int mwAccess) {
        if (state == ZOMBIE || mwRkey != rkey || (newRkey & 0xffffff00) != (rkey & 0xffffff00) || qpPd != pd) {
            return false;
        }
        if (type == MwType.TYPE_2) {
            if (state != FREE || target == null || len == 0) {
                return false;
            }
        }
        if (target != null && len > 0) {
            if (target.state != RvtMr.VALID || target.pd != pd
                    || (target.access & AccessFlags.ZERO_BASED) != 0
                    || (target.access & AccessFlags.MW_BIND) == 0
                    || ((mwAccess & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0
                            && (target.access & AccessFlags.LOCAL_WRITE) == 0)
                    || !target.inBounds(va, len)) {
                return false;
            }
        }
        unbindLocked();
        rkey = newRkey;
        if (target == null || len == 0) {
            return true;
        }
        target.boundMws.incrementAndGet();
        mr = target;
        addr = va;
        length = len;
        access = mwAccess;
        qp = type == MwType.TYPE_2 ? bindQp : null;
        state = VALID;
        return true;
    }

    /** Invalidates a type 2 window ({@code rxe_invalidate_mw()}). */
    public synchronized boolean invalidate(int key) {
        if (type != MwType.TYPE_2 || key != rkey || state != VALID) {
            return false;
        }
        unbindLocked();
        return true;
    }

    private void unbindLocked() {
        RvtMr old = mr;
        if (old != null) {
            old.boundMws.decrementAndGet();
        }
        mr = null;
        qp = null;
        length = 0;
        if (state == VALID) {
            state = FREE;
        }
    }

    @Override
    public synchronized void dealloc() {
        if (state == ZOMBIE) {
            return;
        }
        unbindLocked();
        state = ZOMBIE;
        keys.remove(rkey);
        if (onDealloc != null) {
            onDealloc.run();
        }
    }
}
