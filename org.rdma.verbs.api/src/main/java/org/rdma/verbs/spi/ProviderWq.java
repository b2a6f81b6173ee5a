package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.WqAttr;

/** A driver's work queue ({@code ops.create_wq}). */
@ConsumerType
public interface ProviderWq {
    /** {@code wq_num}. */
    int wqNum();

    /** {@code ops.modify_wq}; the core has checked the state transition. */
    void modify(WqAttr attr, int mask);

    /** {@code ops.destroy_wq}. */
    void destroy();
}
