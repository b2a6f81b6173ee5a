package org.rdma.rvt.internal.mem;

import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.MwType;

/**
 * Protection checks on every memory access ({@code rvt_lkey_ok()}, {@code rvt_rkey_ok()}): the
 * key must name a live region whose current key matches all 32 bits, in the QP's PD (a type 2
 * window: bound to this QP), with the access rights asked for, and the whole range in bounds.
 * Callers check before they move a byte.
 */
public final class Mem {
    private final KeyTable keys;
    private final RvtMr globalDma;
    private final int globalKey;

    /**
     * Checks over {@code keys}; {@code globalDma}, when not null, is the device-wide local DMA
     * region answering to {@code globalKey} in every PD ({@code IBK_LOCAL_DMA_LKEY}).
     */
    public Mem(KeyTable keys, RvtMr globalDma, int globalKey) {
        this.keys = keys;
        this.globalDma = globalDma;
        this.globalKey = globalKey;
    }

    /** The key table. */
    public KeyTable keys() {
        return keys;
    }

    /**
     * {@code rvt_lkey_ok()}: the region behind {@code lkey} if it may be accessed locally over
     * {@code [va, va + len)} with {@code access} ({@link AccessFlags#LOCAL_WRITE} or 0), else null.
     */
    public RvtMr lkeyOk(RvtPd pd, int lkey, long va, long len, int access) {
        if (globalDma != null && lkey == globalKey) {
            return globalDma.inBounds(va, len) ? globalDma : null;
        }
        Object o = keys.lookup(lkey);
        if (!(o instanceof RvtMr)) {
            return null;
        }
        RvtMr mr = (RvtMr) o;
        if (mr.key != lkey || mr.state != RvtMr.VALID || mr.pd != pd || (mr.access & access) != access
                || !mr.inBounds(va, len)) {
            return null;
        }
        return mr;
    }

    /**
     * {@code rvt_rkey_ok()}: the region to access for a remote request over {@code [va, va + len)}
     * needing {@code access} (a REMOTE_* bit) through {@code rkey}, an MR or a window; else null.
     */
    public RvtMr rkeyOk(RvtPd pd, Object qp, int rkey, long va, long len, int access) {
        return rkeyOk(keys.lookup(rkey), pd, qp, rkey, va, len, access);
    }

    /**
     * {@link #rkeyOk(RvtPd, Object, int, long, long, int)} of the region or window {@code o} that
     * {@link #lookup(int) lookup(rkey)} returned earlier: a message's later packets check it again
     * without the lookup. That is the same check: a key's slot holds another object only after
     * this one was freed, which leaves it in a state no check accepts.
     */
    public RvtMr rkeyOk(Object o, RvtPd pd, Object qp, int rkey, long va, long len, int access) {
        if (o instanceof RvtMr) {
            RvtMr mr = (RvtMr) o;
            if (mr.key != rkey || mr.state != RvtMr.VALID || mr.pd != pd || (mr.access & access) != access
                    || !mr.inBounds(va, len)) {
                return null;
            }
            return mr;
        }
        if (o instanceof RvtMw) {
            RvtMw mw = (RvtMw) o;
            RvtMr mr = mw.mr;
            if (mw.rkey != rkey || mw.state != RvtMw.VALID || mr == null || mr.state != RvtMr.VALID
                    || (mw.access & access) != access) {
                return null;
            }
            if (mw.type == MwType.TYPE_1 ? mw.pd != pd : mw.qp != qp) {
                return null;
            }
            long start = mw.addr;
            if (len != 0 && (va < start || len > mw.length || va - start > mw.length - len)) {
                return null;
            }
            return mr;
        }
        return null;
    }

    /** The region (MR) or window behind a key, for invalidation; null if none. */
    public Object lookup(int key) {
        return keys.lookup(key);
    }
}
