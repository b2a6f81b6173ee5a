package org.rdma.verbs;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A completion callback carried by a work request instead of a {@code wr_id}:
 * {@code struct ib_cqe}. CQs allocated with {@code ib_alloc_cq()} call {@link #done} for every
 * completion whose work request carried one.
 */
@FunctionalInterface
@ConsumerType
public interface IbCqe {
    /** {@code cqe->done(cq, wc)}; runs in the CQ's poll context. */
    void done(IbCq cq, Wc wc);
}
