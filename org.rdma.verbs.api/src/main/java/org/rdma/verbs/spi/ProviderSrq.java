package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SrqAttr;

/** A driver's shared receive queue ({@code ops.create_srq}). */
@ConsumerType
public interface ProviderSrq {
    /** {@code ops.modify_srq}. */
    void modify(SrqAttr attr, int mask);

    /** {@code ops.query_srq}. */
    void query(SrqAttr attr);

    /** {@code ops.post_srq_recv}. */
    int postSrqRecv(RecvWr wr, RecvWr[] badWr);

    /** {@code ops.destroy_srq}. */
    void destroy();
}
