package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/** A shared receive queue: {@code struct ib_srq}. */
@ProviderType
public interface IbSrq {
    /** {@code srq->device}. */
    IbDevice device();

    /** {@code srq->pd}. */
    IbPd pd();

    /** {@code srq->srq_context}. */
    Object context();

    /** {@code ib_modify_srq()} with {@link SrqAttrMask} bits. */
    void modify(SrqAttr attr, int mask);

    /** {@code ib_query_srq()}. */
    void query(SrqAttr attr);

    /** {@code ib_post_srq_recv()}: 0 or a negative errno with {@code badWr[0]} set. */
    int postSrqRecv(RecvWr wr, RecvWr[] badWr);

    /** {@code ib_destroy_srq()}: EBUSY while QPs use it. */
    void destroy();
}
