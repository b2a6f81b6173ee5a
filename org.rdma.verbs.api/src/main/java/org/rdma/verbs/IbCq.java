package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/** A completion queue: {@code struct ib_cq}. */
@ProviderType
public interface IbCq {
    /** {@code IB_POLL_BATCH}: completions polled per pass by the core's poll contexts. */
    int POLL_BATCH = 16;
    /** {@code IB_POLL_BUDGET_IRQ}: completions handled per softirq-context pass before yielding. */
    int POLL_BUDGET_IRQ = 256;
    /** {@code IB_POLL_BUDGET_WORKQUEUE}: completions per workqueue pass before requeueing. */
    int POLL_BUDGET_WORKQUEUE = 65536;

    /** {@code cq->device}. */
    IbDevice device();

    /** {@code cq->cqe}: the number of entries. */
    int cqe();

    /** {@code cq->cq_context}. */
    Object context();

    /** {@code cq->poll_ctx}; {@code null} for CQs from {@link IbDevice#createCq}. */
    PollContext pollContext();

    /** {@code cq->comp_vector}. */
    int compVector();

    /**
     * {@code ib_poll_cq()}: moves up to {@code numEntries} completions into {@code wc[0..]}.
     * Returns how many, or a negative errno.
     */
    int pollCq(int numEntries, Wc[] wc);

    /**
     * {@code ib_req_notify_cq()}: arms the completion handler. With
     * {@link CqNotifyFlags#REPORT_MISSED_EVENTS} returns a positive value if completions
     * may have been missed; otherwise 0, or a negative errno.
     */
    int reqNotifyCq(int flags);

    /** {@code ib_resize_cq()}. */
    void resize(int cqe);

    /**
     * {@code ib_process_cq_direct()}: for {@link PollContext#DIRECT} CQs, polls up to
     * {@code budget} completions (-1: all) and calls their {@link IbCqe}; returns how many.
     */
    int processCqDirect(int budget);

    /** {@code ib_free_cq()}: frees a CQ from {@link IbDevice#allocCq}. */
    void free();

    /** {@code ib_destroy_cq()}: destroys a CQ from {@link IbDevice#createCq}; EBUSY while in use. */
    void destroy();
}
