package org.rdma.target.fabric;

/** The direction of a command's data (SAM-5 5.4.3); LIO's {@code enum dma_data_direction}. */
public enum DataDirection {
    /** No data phase. */
    NONE,
    /** Data-in: from the target to the initiator (READ). LIO's {@code DMA_FROM_DEVICE}. */
    DATA_IN,
    /** Data-out: from the initiator to the target (WRITE). LIO's {@code DMA_TO_DEVICE}. */
    DATA_OUT
}
