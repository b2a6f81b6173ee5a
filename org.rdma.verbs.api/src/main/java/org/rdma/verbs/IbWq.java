package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/** A work queue (receive queue object): {@code struct ib_wq}. */
@ProviderType
public interface IbWq {
    /** {@code wq->device}. */
    IbDevice device();

    /** {@code wq->pd}. */
    IbPd pd();

    /** {@code wq->wq_num}. */
    int wqNum();

    /** {@code wq->state}. */
    WqState state();

    /** {@code ib_modify_wq()} with {@link WqAttrMask} bits; RESET->RDY->ERR as the kernel allows. */
    void modify(WqAttr attr, int mask);

    /** {@code ib_destroy_wq()}. */
    void destroy();
}
