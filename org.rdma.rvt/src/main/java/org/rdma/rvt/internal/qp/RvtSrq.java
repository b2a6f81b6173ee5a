package org.rdma.rvt.internal.qp;

import org.rdma.verbs.Errno;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SrqAttr;
import org.rdma.verbs.SrqAttrMask;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.ProviderSrq;
import org.rdma.rvt.internal.mem.RvtPd;
import org.rdma.verbs.spi.Upcalls;

/**
 * A shared receive queue ({@code struct rvt_srq}) with the limit event: when taking an entry
 * leaves fewer than {@code srq_limit}, SRQ_LIMIT_REACHED is raised once and the limit disarmed.
 */
public final class RvtSrq implements ProviderSrq {
    final IbSrq core;
    final RvtPd pd;
    private final DeviceContext ctx;
    final RecvQueue rq;
    private final Runnable onDestroy;
    private int limit;

    RvtSrq(IbSrq core, RvtPd pd, DeviceContext ctx, int maxWr, int maxSge, Runnable onDestroy) {
        this.core = core;
        this.pd = pd;
        this.ctx = ctx;
        this.rq = new RecvQueue(maxWr, maxSge);
        this.onDestroy = onDestroy;
    }

    /** Takes an entry for a QP's responder; raises the limit event when the ring runs low. */
    boolean take(Rwqe into) {
        boolean event = false;
        boolean ok;
        synchronized (this) {
            ok = rq.take(into);
            if (ok && limit > 0 && rq.count() < limit) {
                limit = 0;
                event = true;
            }
        }
        if (event) {
            Upcalls u = Upcalls.enter();
            u.event(ctx, IbEvent.srq(IbEventType.SRQ_LIMIT_REACHED, core));
            u.exit();
        }
        return ok;
    }

    @Override
    public synchronized void modify(SrqAttr attr, int mask) {
        if ((mask & SrqAttrMask.MAX_WR) != 0) {
            RdmaException.check(rq.setMaxWr(attr.maxWr), Errno.EINVAL,
                    "SRQ max_wr " + attr.maxWr + " outside " + rq.count() + ".." + rq.maxWr());
        }
        if ((mask & SrqAttrMask.LIMIT) != 0) {
            RdmaException.check(attr.srqLimit >= 0 && attr.srqLimit <= rq.maxWr(), Errno.EINVAL,
                    "SRQ limit " + attr.srqLimit + " > max_wr " + rq.maxWr());
            limit = attr.srqLimit;
        }
    }

    @Override
    public synchronized void query(SrqAttr attr) {
        attr.maxWr = rq.maxWr();
        attr.maxSge = rq.maxSge();
        attr.srqLimit = limit;
    }

    @Override
    public int postSrqRecv(RecvWr wr, RecvWr[] badWr) {
        for (RecvWr w = wr; w != null; w = w.next) {
            int ret = rq.post(w);
            if (ret != 0) {
                if (badWr != null) {
                    badWr[0] = w;
                }
                return ret;
            }
        }
        return 0;
    }

    @Override
    public void destroy() {
        onDestroy.run();
    }
}
