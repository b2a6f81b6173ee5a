package org.rdma.verbs;

/**
 * One DMA-mapped scatterlist element: {@code struct scatterlist} after {@code dma_map_sg()}
 * ({@code sg_dma_address()}, {@code sg_dma_len()}). DMA addresses come from
 * {@link IbDevice#dmaMapSingle}.
 */
public final class SgEntry {
    /** {@code sg_dma_address(sg)}. */
    public long dmaAddress;
    /** {@code sg_dma_len(sg)}. */
    public int dmaLength;

    /** An empty element. */
    public SgEntry() {
    }

    /** The element {@code (dmaAddress, dmaLength)}. */
    public SgEntry(long dmaAddress, int dmaLength) {
        this.dmaAddress = dmaAddress;
        this.dmaLength = dmaLength;
    }
}
