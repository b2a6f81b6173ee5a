package org.rdma.verbs;

/**
 * One scatter/gather element: {@code struct ib_sge}. {@link #addr} is an address in the space
 * of {@link #lkey}: an MR's IOVA range, or a DMA address for the PD's {@code local_dma_lkey}.
 */
public final class Sge {
    /** {@code addr}. */
    public long addr;
    /** {@code length}. */
    public int length;
    /** {@code lkey}. */
    public int lkey;

    /** An empty element. */
    public Sge() {
    }

    /** The element {@code (addr, length, lkey)}. */
    public Sge(long addr, int length, int lkey) {
        set(addr, length, lkey);
    }

    /** Sets all three fields (for reuse on the datapath). */
    public Sge set(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }
}
