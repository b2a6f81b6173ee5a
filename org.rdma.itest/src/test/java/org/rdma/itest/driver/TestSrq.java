package org.rdma.itest.driver;

import java.util.ArrayDeque;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SrqAttr;
import org.rdma.verbs.SrqAttrMask;
import org.rdma.verbs.spi.ProviderSrq;

/**
 * A shared receive queue: receives wait here until a QP attached to it takes one. When armed with
 * a limit, taking a receive that leaves fewer than the limit raises {@code SRQ_LIMIT_REACHED} once.
 */
public final class TestSrq implements ProviderSrq {
    private final TestProvider provider;
    private final IbSrq core;
    private final ArrayDeque<PendingWr> queue = new ArrayDeque<>();
    private int maxWr;
    private final int maxSge;
    private int limit;

    TestSrq(TestProvider provider, IbSrq core, SrqAttr attr) {
        this.provider = provider;
        this.core = core;
        this.maxWr = Math.max(1, attr.maxWr);
        this.maxSge = Math.max(1, attr.maxSge);
    }

    /** The core's SRQ. */
    public IbSrq core() {
        return core;
    }

    /** Receives waiting. */
    public synchronized int depth() {
        return queue.size();
    }

    @Override
    public synchronized void modify(SrqAttr attr, int mask) {
        if ((mask & SrqAttrMask.MAX_WR) != 0) {
            maxWr = attr.maxWr;
        }
        if ((mask & SrqAttrMask.LIMIT) != 0) {
            limit = attr.srqLimit;
        }
    }

    @Override
    public synchronized void query(SrqAttr attr) {
        attr.maxWr = maxWr;
        attr.maxSge = maxSge;
        attr.srqLimit = limit;
    }

    @Override
    public int postSrqRecv(RecvWr wr, RecvWr[] badWr) {
        synchronized (this) {
            for (RecvWr w = wr; w != null; w = w.next) {
                if (w.numSge > maxSge || queue.size() >= maxWr) {
                    if (badWr != null && badWr.length > 0) {
                        badWr[0] = w;
                    }
                    return w.numSge > maxSge ? -Errno.EINVAL.value : -Errno.ENOMEM.value;
                }
                queue.add(new PendingWr(w.wrId, w.wrCqe, null, 0, true, false));
            }
        }
        return 0;
    }

    PendingWr take() {
        PendingWr p;
        boolean fire = false;
        synchronized (this) {
            p = queue.poll();
            if (p != null && limit > 0 && queue.size() < limit) {
                limit = 0;
                fire = true;
            }
        }
        if (fire) {
            provider.dispatch(IbEvent.srq(IbEventType.SRQ_LIMIT_REACHED, core));
        }
        return p;
    }

    @Override
    public void destroy() {
        synchronized (this) {
            queue.clear();
        }
        provider.destroyed(this, "srq");
    }
}
