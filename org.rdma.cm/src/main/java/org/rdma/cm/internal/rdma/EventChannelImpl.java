package org.rdma.cm.internal.rdma;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaEventChannel;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * An event channel: librdmacm's {@code struct rdma_event_channel} with the kernel side of ucma
 * ({@code ucma_event_handler()}, {@code ucma_get_event()}): the events of its ids in order, the
 * backlog of its listeners (a connect request beyond it is refused with {@code -ENOMEM}, which
 * drops the REQ so the peer retries; reading one frees its slot), and the count of events read
 * and not acknowledged, which keeps ids and the channel from being destroyed.
 */
final class EventChannelImpl implements RdmaEventChannel {
    private final Cma cma;
    /** The bundle that made the channel: the owner of its ids. */
    final String owner;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<RdmaCmEvent> queue = new ArrayDeque<>();
    private final Set<CmaId> ids = new LinkedHashSet<>();
    private int unacked;
    private boolean destroyed;

    EventChannelImpl(Cma cma, String owner) {
        this.cma = cma;
        this.owner = owner;
    }

    void attach(CmaId id) {
        lock.lock();
        try {
            RdmaException.check(!destroyed, Errno.EINVAL, "the event channel is destroyed");
            ids.add(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code ucma_event_handler()}: queues {@code event}; a connect request takes a slot of its
     * listener's backlog or is refused with {@code -ENOMEM}.
     */
    int enqueue(CmaId id, RdmaCmEvent event) {
        if (event.event() == RdmaCmEventType.CONNECT_REQUEST && event.listenId() instanceof CmaId l) {
            synchronized (l) {
                if (l.backlogUsed >= l.backlog) {
                    return Errno.ENOMEM.negative();
                }
                l.backlogUsed++;
            }
        }
        lock.lock();
        try {
            queue.add(event);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        return 0;
    }

    /** {@code rdma_get_cm_event()}. */
    RdmaCmEvent get(long timeoutMs) throws InterruptedException {
        RdmaCmEvent ev;
        lock.lock();
        try {
            long left = TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMs));
            while (queue.isEmpty()) {
                if (timeoutMs >= 0 && left <= 0) {
                    throw new RdmaException(Errno.EAGAIN, "rdma_get_cm_event: no event within " + timeoutMs + " ms");
                }
                if (timeoutMs < 0) {
                    arrived.await();
                } else {
                    left = arrived.awaitNanos(left);
                }
            }
            ev = queue.poll();
            unacked++;
        } finally {
            lock.unlock();
        }
        CmaId owner = ackOwner(ev);
        synchronized (owner) {
            owner.unacked++;
        }
        if (ev.event() == RdmaCmEventType.CONNECT_REQUEST && ev.listenId() instanceof CmaId l) {
            synchronized (l) {
                l.backlogUsed--;
            }
        }
        cma.readEvents.put(ev, this);
        return ev;
    }

    /** librdmacm counts a connect request against its listener, other events against their id. */
    private static CmaId ackOwner(RdmaCmEvent ev) {
        return ev.event() == RdmaCmEventType.CONNECT_REQUEST && ev.listenId() instanceof CmaId l ? l : (CmaId) ev.id();
    }

    /** {@code rdma_ack_cm_event()}. */
    void ack(RdmaCmEvent ev) {
        CmaId owner = ackOwner(ev);
        synchronized (owner) {
            owner.unacked--;
        }
        lock.lock();
        try {
            unacked--;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The id leaves the channel (destroyed): its unread events are dropped, and the ids of the
     * connect requests it had queued as a listener are returned for the caller to destroy
     * ({@code ucma_cleanup_ctx_events()}).
     */
    List<CmaId> detach(CmaId id) {
        List<CmaId> orphans = new ArrayList<>();
        lock.lock();
        try {
            ids.remove(id);
            for (Iterator<RdmaCmEvent> it = queue.iterator(); it.hasNext();) {
                RdmaCmEvent ev = it.next();
                boolean request = ev.event() == RdmaCmEventType.CONNECT_REQUEST;
                if (ev.id() == id || request && ev.listenId() == id) {
                    it.remove();
                    if (request && ev.listenId() instanceof CmaId l) {
                        synchronized (l) {
                            l.backlogUsed--;
                        }
                        if (ev.id() != id) {
                            orphans.add((CmaId) ev.id());
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        return orphans;
    }

    /** {@code rdma_migrate_id()}: the id and its unread events move to {@code to}. */
    void migrate(CmaId id, EventChannelImpl to) {
        if (to == this) {
            return;
        }
        List<RdmaCmEvent> moving = new ArrayList<>();
        lock.lock();
        try {
            ids.remove(id);
            for (Iterator<RdmaCmEvent> it = queue.iterator(); it.hasNext();) {
                RdmaCmEvent ev = it.next();
                if (ev.id() == id) {
                    it.remove();
                    moving.add(ev);
                }
            }
        } finally {
            lock.unlock();
        }
        to.lock.lock();
        try {
            RdmaException.check(!to.destroyed, Errno.EINVAL, "rdma_migrate_id: the target channel is destroyed");
            to.ids.add(id);
            to.queue.addAll(moving);
            if (!moving.isEmpty()) {
                to.arrived.signalAll();
            }
        } finally {
            to.lock.unlock();
        }
        id.channel = to;
    }

    /** {@code rdma_destroy_event_channel()}. */
    void destroy() {
        lock.lock();
        try {
            Cma.check(ids.isEmpty(), Errno.EBUSY, () -> "rdma_destroy_event_channel: " + ids.size()
                    + " id(s) still report to the channel");
            Cma.check(unacked == 0, Errno.EBUSY, () -> "rdma_destroy_event_channel: " + unacked
                    + " event(s) not acknowledged");
            destroyed = true;
            queue.clear();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int pending() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }
}
