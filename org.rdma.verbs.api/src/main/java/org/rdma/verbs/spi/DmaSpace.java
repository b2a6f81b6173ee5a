package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ProviderType;

/** The core's DMA address space, as drivers translate addresses through it (the IOMMU's role). */
@ProviderType
public interface DmaSpace {
    /** The region that holds all of {@code [addr, addr + length)}, or {@code null}. Never allocates. */
    DmaRegion find(long addr, long length);
}
