package org.rdma.rvt.internal.qp;

import java.util.ArrayDeque;
import org.rdma.rvt.RvtPacket;

/**
 * Received packets waiting for one of a QP's state machines ({@code qp->req_pkts},
 * {@code qp->resp_pkts}). A packet that arrives while the QP's task is free is processed inline,
 * without keeping it; one that arrives while the task is busy is retained (and its payload made
 * independent of the sender when the sender may reuse it) and queued.
 */
final class PacketQueue {
    private final ArrayDeque<RvtPacket> queue = new ArrayDeque<>(64);
    private RvtPacket inline;

    /** With the task held: take {@code p} inline if nothing is queued before it. */
    synchronized boolean offerInline(RvtPacket p) {
        if (queue.isEmpty() && inline == null) {
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
        }
    }

    /** The next packet, or null. */
    synchronized RvtPacket poll() {
        if (inline != null) {
            return inline;
        }
        return queue.pollFirst();
    }

    /** The packet returned by {@link #poll} is processed. */
    void done(RvtPacket p) {
        synchronized (this) {
            if (p == inline) {
                inline = null;
                return;
            }
        }
        p.release();
    }

    /** Before the task is released: an inline packet still here is kept the regular way. */
    void keepInline(boolean copyPayload) {
        RvtPacket p;
        synchronized (this) {
            p = inline;
            inline = null;
        }
        if (p != null) {
            p.retain();
            if (copyPayload || !p.payloadStable) {
                p.retainPayload();
            }
            synchronized (this) {
                queue.addFirst(p);
            }
        }
    }

    /** Drops everything (reset, destroy). */
    void clear() {
        while (true) {
            RvtPacket p;
            synchronized (this) {
                if (inline != null) {
                    inline = null;
                    continue;
                }
                p = queue.pollFirst();
            }
            if (p == null) {
                return;
            }
            p.release();
        }
    }
}
