package org.rdma.core.internal.verbs;

import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCompHandler;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEventHandler;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.spi.ProviderCq;

/**
 * {@code struct ib_cq} with the poll contexts of {@code drivers/infiniband/core/cq.c}:
 * {@code ib_alloc_cq()} CQs deliver completions to each request's {@code wr_cqe}, polled
 * directly, on the completion vector's softirq thread or on a workqueue; {@code ib_create_cq()}
 * CQs call the consumer's completion handler and leave polling to it.
 */
final class CoreCq extends CoreObject<ProviderCq> implements IbCq {
    private static final System.Logger LOG = System.getLogger(CoreCq.class.getName());
    /** {@code IB_POLL_BATCH_DIRECT}: smaller batches for direct polling. */
    private static final int POLL_BATCH_DIRECT = 8;

    private final Object context;
    private final PollContext pollCtx;
    private final int compVector;
    private final IbCompHandler compHandler;
    private CqPoller poller;
    private final Wc[] directWcs;
    private final ReentrantLock directLock;
    private boolean warnedNoCqe;

    private CoreCq(CoreDevice dev, Object context, PollContext pollCtx, int compVector,
            IbCompHandler compHandler, IbEventHandler eventHandler) {
        super(dev, eventHandler);
        this.context = context;
        this.pollCtx = pollCtx;
        this.compVector = compVector;
        this.compHandler = compHandler;
        this.directWcs = pollCtx == PollContext.DIRECT ? Wc.array(POLL_BATCH_DIRECT) : null;
        this.directLock = pollCtx == PollContext.DIRECT ? new ReentrantLock() : null;
    }

    static CoreCq create(CoreDevice dev, Object context, CqInitAttr attr, PollContext pollCtx,
            IbCompHandler compHandler, IbEventHandler eventHandler, String owner) {
        int vectors = Math.max(1, dev.attrsRef().numCompVectors);
        RdmaException.check(attr.compVector >= 0 && attr.compVector < vectors, Errno.EINVAL,
                dev.name() + ": completion vector " + attr.compVector + " outside 0.." + (vectors - 1));
        RdmaException.check(attr.cqe > 0 && attr.cqe <= Math.max(1, dev.attrsRef().maxCqe), Errno.EINVAL,
                dev.name() + ": CQ size " + attr.cqe + " outside 1.." + dev.attrsRef().maxCqe);
        CoreCq cq = new CoreCq(dev, context, pollCtx, attr.compVector, compHandler, eventHandler);
        cq.provider = dev.provider.createCq(cq, attr);
        if (pollCtx == PollContext.SOFTIRQ) {
            cq.poller = new CqPoller(cq, dev.softirq(attr.compVector), POLL_BUDGET_IRQ);
        } else if (pollCtx == PollContext.WORKQUEUE) {
            cq.poller = new CqPoller(cq, dev.services().compWorkqueue(), POLL_BUDGET_WORKQUEUE);
        } else if (pollCtx == PollContext.UNBOUND_WORKQUEUE) {
            cq.poller = new CqPoller(cq, dev.services().compUnboundWorkqueue(), POLL_BUDGET_WORKQUEUE);
        }
        cq.track(Restrack.Type.CQ, owner, cq::resAttrs);
        if (cq.poller != null) {
            cq.provider.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        }
        return cq;
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dev", dev.name());
        m.put("cqn", Long.toString(resId()));
        m.put("cqe", Integer.toString(provider.cqe()));
        m.put("users", Integer.toString(usecnt.get()));
        m.put("poll-ctx", pollCtx == null ? "-" : pollCtx.name());
        m.put("comp-vector", Integer.toString(compVector));
        return m;
    }

    /** The driver's completion upcall ({@code cq->comp_handler}). */
    void complete() {
        if (poller != null) {
            poller.schedule();
        } else if (compHandler != null && !isDestroyed()) {
            compHandler.complete(this);
        }
    }

    /** {@code __ib_process_cq()}: polls in batches up to {@code budget} (-1: all), calling each {@code wr_cqe}. */
    int process(int budget, Wc[] wcs) {
        int batch = wcs.length;
        int completed = 0;
        int n;
        while ((n = provider.pollCq(budget < 0 ? batch : Math.min(batch, budget - completed), wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                Wc wc = wcs[i];
                if (wc.wrCqe != null) {
                    try {
                        wc.wrCqe.done(this, wc);
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, dev.name() + ": completion callback failed for " + wc, e);
                    }
                } else if (wc.status == WcStatus.SUCCESS && !warnedNoCqe) {
                    warnedNoCqe = true;
                    LOG.log(Level.WARNING, "{0}: successful completion without wr_cqe on a CQ from ib_alloc_cq", dev.name());
                }
            }
            completed += n;
            if (n != batch || (budget != -1 && completed >= budget)) {
                break;
            }
        }
        return completed;
    }

    @Override
    public IbDevice device() {
        return dev;
    }

    @Override
    public int cqe() {
        return provider.cqe();
    }

    @Override
    public Object context() {
        return context;
    }

    @Override
    public PollContext pollContext() {
        return pollCtx;
    }

    @Override
    public int compVector() {
        return compVector;
    }

    @Override
    public int pollCq(int numEntries, Wc[] wc) {
        return provider.pollCq(Math.min(numEntries, wc.length), wc);
    }

    @Override
    public int reqNotifyCq(int flags) {
        return provider.reqNotifyCq(flags);
    }

    @Override
    public void resize(int cqe) {
        RdmaException.check(cqe > 0 && cqe <= dev.attrsRef().maxCqe, Errno.EINVAL,
                dev.name() + ": CQ size " + cqe + " outside 1.." + dev.attrsRef().maxCqe);
        provider.resize(cqe);
    }

    @Override
    public int processCqDirect(int budget) {
        RdmaException.check(pollCtx == PollContext.DIRECT, Errno.EINVAL,
                "ib_process_cq_direct on a CQ with poll context " + pollCtx);
        directLock.lock();
        try {
            return process(budget, directWcs);
        } finally {
            directLock.unlock();
        }
    }

    @Override
    public void free() {
        RdmaException.check(pollCtx != null, Errno.EINVAL, "ib_free_cq on a CQ from ib_create_cq: use destroy");
        release();
    }

    @Override
    public void destroy() {
        RdmaException.check(pollCtx == null, Errno.EINVAL, "ib_destroy_cq on a CQ from ib_alloc_cq: use free");
        release();
    }

    private void release() {
        if (!beginDestroy("CQ")) {
            return;
        }
        if (poller != null) {
            poller.stop();
        }
        provider.destroy();
        untrack();
    }

    @Override
    void forceDestroy() {
        release();
    }

    @Override
    int cleanupRank() {
        return 8;
    }

    @Override
    public String toString() {
        return dev.name() + " cq " + resId();
    }
}
