package org.rdma.rvt.internal.mem;

import org.rdma.verbs.IbPd;
import org.rdma.verbs.spi.ProviderPd;

/** A protection domain ({@code struct rvt_pd}): an identity that MRs, MWs, AHs and QPs share. */
public final class RvtPd implements ProviderPd {
    /** The core's PD. */
    public final IbPd core;
    private final Runnable onDealloc;

    /** A PD for the core's {@code core}; {@code onDealloc} returns the device's count. */
    public RvtPd(IbPd core, Runnable onDealloc) {
        this.core = core;
        this.onDealloc = onDealloc;
    }

    @Override
    public void dealloc() {
        onDealloc.run();
    }
}
