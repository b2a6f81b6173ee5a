package org.rdma.verbs.rw;

/** Mirrors {@code enum dma_data_direction}: which way a transfer moves the local buffer's bytes. */
public enum DmaDataDirection {
    /** {@code DMA_BIDIRECTIONAL}: not a valid {@code rdma_rw} direction. */
    BIDIRECTIONAL,
    /** {@code DMA_TO_DEVICE}: the local buffer is sent, an RDMA WRITE to the peer. */
    TO_DEVICE,
    /** {@code DMA_FROM_DEVICE}: the local buffer is filled, an RDMA READ from the peer. */
    FROM_DEVICE,
    /** {@code DMA_NONE}: not a valid {@code rdma_rw} direction. */
    NONE
}
