package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;

/** A driver's protection domain ({@code ops.alloc_pd}/{@code ops.dealloc_pd}). */
@ConsumerType
public interface ProviderPd {
    /** {@code ops.dealloc_pd}. */
    void dealloc();
}
