package org.rdma.rvt.internal.qp;

import java.util.ArrayDeque;
import org.rdma.rvt.RvtPacket;

/**
 * Received packets waiting for one of a QP's state machines ({@code qp->req_pkts},
 * {@code qp->resp_pkts}). A packet that arrives while the QP's task is free is processed inline,
 * without keeping it; one that arrives while the task is busy is retained (and its payload made
 * independent of the sender when the sender may reuse it) and queued.
 *
 * <p>Concurrency. The inline slot belongs to the task's owner (it is only filled by
 * {@link #offerInline} with the task held and emptied by the task), so it needs no lock. The queue
 * is filled by any thread and emptied by the task owner under the queue's monitor; {@link #size},
 * written under the monitor and read without it, lets the task skip the monitor when nothing is
 * queued (a packet queued concurrently is seen by the task's next pass: whoever queues it runs the
 * task afterwards).
 */
final class PacketQueue {
    private final ArrayDeque<RvtPacket> queue = new ArrayDeque<>(64);
    /** Packets in {@link #queue}; written under the monitor. */
    private volatile int size;
    /** The packet taken inline; the task owner's. */
    private RvtPacket inline;

    /** With the task held: take {@code p} inline if nothing is queued before it. */
    boolean offerInline(RvtPacket p) {
        if (size == 0 && inline == null) {
            inline = p;
            return true;
        }
        return false;
    }

    /** Retains and queues {@code p}. */
    void add(RvtPacket p, boolean copyPayload) {
        p.retain();
        if (copyPayload || !p.payloadStable) {
            p.retainPayload();
        }
        synchronized (this) {
            queue.addLast(p);
            size = queue.size();
        }
    }

    /** With the task held: the next packet, or null. */
    RvtPacket poll() {
        RvtPacket p = inline;
        if (p != null) {
            return p;
        }
        if (size == 0) {
            return null;
        }
        synchronized (this) {
            p = queue.pollFirst();
            size = queue.size();
            return p;
        }
    }

    /** With the task held: the packet returned by {@link #poll} is processed. */
    void done(RvtPacket p) {
        if (p == inline) {
            inline = null;
            return;
        }
        p.release();
    }

    /** With the task held, before it is released: an inline packet still here is kept the regular way. */
    void keepInline(boolean copyPayload) {
        RvtPacket p = inline;
        if (p == null) {
            return;
        }
        inline = null;
        p.retain();
        if (copyPayload || !p.payloadStable) {
            p.retainPayload();
        }
        synchronized (this) {
            queue.addFirst(p);
            size = queue.size();
        }
    }

    /** With the task held: drops everything (reset, destroy). */
    void clear() {
        inline = null;
        while (true) {
            RvtPacket p;
            synchronized (this) {
                p = queue.pollFirst();
                size = queue.size();
            }
            if (p == null) {
                return;
            }
            p.release();
        }
    }
}
