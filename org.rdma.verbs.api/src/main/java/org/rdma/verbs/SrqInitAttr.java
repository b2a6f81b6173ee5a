package org.rdma.verbs;

/** {@code struct ib_srq_init_attr} ({@code ib_create_srq()}). */
public final class SrqInitAttr {
    /** {@code event_handler}. */
    public IbEventHandler eventHandler;
    /** {@code srq_context}. */
    public Object srqContext;
    /** {@code attr}: requested sizes; updated with the actual ones. */
    public final SrqAttr attr = new SrqAttr();
}
