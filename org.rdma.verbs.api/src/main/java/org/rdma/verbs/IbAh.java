package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/** An address handle: {@code struct ib_ah}. */
@ProviderType
public interface IbAh {
    /** {@code ah->device}. */
    IbDevice device();

    /** {@code ah->pd}. */
    IbPd pd();

    /** {@code rdma_query_ah()}: copies the attributes into {@code attr} (with a held SGID reference). */
    void query(AhAttr attr);

    /** {@code rdma_modify_ah()}. */
    void modify(AhAttr attr);

    /** {@code rdma_destroy_ah()}. */
    void destroy();
}
