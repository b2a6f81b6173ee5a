package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;

/** A driver's memory window ({@code ops.alloc_mw}). */
@ConsumerType
public interface ProviderMw {
    /** The rkey. */
    int rkey();

    /** {@code ops.dealloc_mw}. */
    void dealloc();
}
