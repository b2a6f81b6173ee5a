package org.rdma.itest.driver;

import java.util.function.Consumer;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.spi.ProviderCq;

/**
 * A completion queue as a ring of {@link Wc}. {@link #reqNotifyCq} arms it; the next completion
 * added to an armed CQ (a solicited one if armed with {@code SOLICITED}) disarms it and calls
 * {@code DeviceContext.cqComplete(cq)} once, outside the CQ lock. Overflow raises {@code CQ_ERR}.
 */
public final class TestCq implements ProviderCq {
    private static final int DISARMED = 0;
    private static final int ARMED_NEXT = 1;
    private static final int ARMED_SOLICITED = 2;

    private final TestProvider provider;
    private final IbCq core;
    private final Wc[] ring;
    private int head;
    private int count;
    private int armed = DISARMED;
    private boolean destroyed;
    private int notifications;
    private int overflows;

    TestCq(TestProvider provider, IbCq core, int cqe) {
        this.provider = provider;
        this.core = core;
        this.ring = Wc.array(Math.max(1, cqe));
    }

    /** The core's CQ this ring belongs to. */
    public IbCq core() {
        return core;
    }

    @Override
    public int cqe() {
        return ring.length;
    }

    @Override
    public synchronized int pollCq(int n, Wc[] wc) {
        int k = Math.min(Math.min(n, count), wc.length);
        for (int i = 0; i < k; i++) {
            wc[i].copyFrom(ring[head]);
            head = (head + 1) % ring.length;
            count--;
        }
        return k;
    }

    @Override
    public int reqNotifyCq(int flags) {
        synchronized (this) {
            armed = (flags & CqNotifyFlags.SOLICITED_MASK) == CqNotifyFlags.SOLICITED ? ARMED_SOLICITED : ARMED_NEXT;
            if ((flags & CqNotifyFlags.REPORT_MISSED_EVENTS) != 0 && count > 0) {
                return 1;
            }
        }
        return 0;
    }

    /**
     * Adds one completion filled by {@code fill}. Returns false (and raises CQ_ERR) if the ring
     * is full, or if the CQ was destroyed.
     */
    boolean push(Consumer<Wc> fill, boolean solicited) {
        boolean notify;
        boolean overflow = false;
        synchronized (this) {
            if (destroyed) {
                return false;
            }
            if (count == ring.length) {
                overflows++;
                overflow = true;
                notify = false;
            } else {
                Wc slot = ring[(head + count) % ring.length];
                slot.clear();
                fill.accept(slot);
                count++;
                notify = armed == ARMED_NEXT || (armed == ARMED_SOLICITED && solicited);
                if (notify) {
                    armed = DISARMED;
                    notifications++;
                }
            }
        }
        if (overflow) {
            provider.dispatch(IbEvent.cq(IbEventType.CQ_ERR, core));
            return false;
        }
        if (notify) {
            provider.context().cqComplete(core);
        }
        return true;
    }

    /** Completions waiting to be polled. */
    public synchronized int depth() {
        return count;
    }

    /** How often this CQ called {@code cqComplete}. */
    public synchronized int notifications() {
        return notifications;
    }

    /** How many completions did not fit. */
    public synchronized int overflows() {
        return overflows;
    }

    @Override
    public void destroy() {
        synchronized (this) {
            destroyed = true;
            count = 0;
        }
        provider.destroyed(this, "cq");
    }
}
