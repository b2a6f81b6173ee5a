package org.rdma.verbs;

/** {@code struct ib_wq_init_attr} ({@code ib_create_wq()}); the only type is {@code IB_WQT_RQ}. */
public final class WqInitAttr {
    /** {@code wq_context}. */
    public Object wqContext;
    /** {@code max_wr}. */
    public int maxWr;
    /** {@code max_sge}. */
    public int maxSge;
    /** {@code cq}. */
    public IbCq cq;
    /** {@code event_handler}. */
    public IbEventHandler eventHandler;
    /** {@code create_flags}. */
    public int createFlags;
}
