package org.rdma.verbs;

/** Mirrors {@code enum ib_poll_context}: where {@code ib_alloc_cq()} runs completion callbacks. */
public enum PollContext {
    /** {@code IB_POLL_DIRECT}: the consumer polls with {@code ib_process_cq_direct()}. */
    DIRECT,
    /** {@code IB_POLL_SOFTIRQ}: a dedicated polling thread per completion vector. */
    SOFTIRQ,
    /** {@code IB_POLL_WORKQUEUE}: an executor (bounded workqueue). */
    WORKQUEUE,
    /** {@code IB_POLL_UNBOUND_WORKQUEUE}: an unbound executor. */
    UNBOUND_WORKQUEUE
}
