package org.rdma.verbs.spi;

import java.nio.ByteBuffer;

/**
 * One mapping of the core's DMA address space ({@code ib_dma_map_single()}): addresses
 * {@code [dmaAddr, dmaAddr + length)} are bytes {@code [0, length)} of {@link #buffer}
 * (a slice of the mapped buffer, position 0).
 */
public final class DmaRegion {
    /** First DMA address. */
    public final long dmaAddr;
    /** Length in bytes. */
    public final int length;
    /** The memory; use absolute get/put, never its position. */
    public final ByteBuffer buffer;

    /** A region. */
    public DmaRegion(long dmaAddr, int length, ByteBuffer buffer) {
        this.dmaAddr = dmaAddr;
        this.length = length;
        this.buffer = buffer;
    }

    /** Whether {@code [addr, addr + len)} lies inside this region. */
    public boolean contains(long addr, long len) {
        return addr >= dmaAddr && len >= 0 && addr + len <= dmaAddr + length;
    }
}
