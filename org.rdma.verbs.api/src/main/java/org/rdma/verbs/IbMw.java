package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/** A memory window: {@code struct ib_mw}. */
@ProviderType
public interface IbMw {
    /** {@code mw->device}. */
    IbDevice device();

    /** {@code mw->pd}. */
    IbPd pd();

    /** {@code mw->type}. */
    MwType type();

    /** {@code mw->rkey}. */
    int rkey();

    /** {@code ib_dealloc_mw()}. */
    void dealloc();
}
