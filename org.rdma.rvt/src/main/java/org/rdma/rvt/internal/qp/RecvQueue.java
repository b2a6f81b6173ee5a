package org.rdma.rvt.internal.qp;

import org.rdma.verbs.Errno;
import org.rdma.verbs.RecvWr;

/**
 * A receive ring ({@code struct rvt_rq}) of preallocated entries, used by QPs and SRQs. Posting
 * copies the consumer's request into the next entry; the responder takes entries in order
 * ({@code rvt_get_rwqe()}), copying them out so the slot is free at once.
 */
final class RecvQueue {
    private final Rwqe[] ring;
    private final int maxSge;
    private int maxWr;
    private int head;
    /** Entries posted and not taken; written under the monitor, read without it by {@link #count()}. */
    private volatile int count;

    RecvQueue(int maxWr, int maxSge) {
        this.ring = new Rwqe[Math.max(1, maxWr)];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Rwqe(maxSge);
        }
        this.maxSge = maxSge;
        this.maxWr = ring.length;
    }

    int maxWr() {
        return maxWr;
    }

    private boolean closed;

    int maxSge() {
        return maxSge;
    }

    /** Refuses every later post (the QP is being destroyed); what is queued can still be flushed. */
    synchronized void close() {
        closed = true;
    }

    /** Posts one request; 0, -EINVAL (closed, or too many SGEs) or -ENOMEM (full). */
    synchronized int post(RecvWr wr) {
        if (closed || wr.numSge > maxSge || wr.numSge < 0 || wr.numSge > wr.sgList.length) {
            return -Errno.EINVAL.value;
        }
        if (count == maxWr) {
            return -Errno.ENOMEM.value;
        }
        ring[(head + count) % ring.length].copyFrom(wr);
        count++;
        return 0;
    }

    /** Takes the oldest entry into {@code into}; false when empty. Returns with the count left in {@link #count()}. */
    synchronized boolean take(Rwqe into) {
        if (count == 0) {
            return false;
        }
        into.copyFrom(ring[head]);
        head = (head + 1) % ring.length;
        count--;
        return true;
    }

    /** The entries queued now (for the ACK credits): a snapshot, no lock needed. */
    int count() {
        return count;
    }

    synchronized void clear() {
        head = 0;
        count = 0;
    }

    /** Changes the usable size (SRQ resize within the allocated ring). */
    synchronized boolean setMaxWr(int n) {
        if (n < count || n > ring.length) {
            return false;
        }
        maxWr = n;
        return true;
    }
}
