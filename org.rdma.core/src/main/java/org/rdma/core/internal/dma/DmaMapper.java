package org.rdma.core.internal.dma;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.DmaRegion;
import org.rdma.verbs.spi.DmaSpace;

/**
 * A device's DMA address space ({@code ib_dma_map_single()}): each mapping gets its own
 * page-aligned address range with a guard page after it. Lookups are lock-free binary searches
 * over a copy-on-write array, so the datapath never allocates or blocks.
 */
public final class DmaMapper implements DmaSpace {
    /** Mappings start here so that 0 is never a valid DMA address. */
    static final long BASE = 0x1_0000_0000L;
    static final long PAGE = 4096;

    private volatile DmaRegion[] regions = new DmaRegion[0];
    private long next = BASE;

    /** Maps {@code buffer}'s position..limit; returns the DMA address. */
    public synchronized long map(ByteBuffer buffer) {
        int len = buffer.remaining();
        RdmaException.check(len > 0, Errno.EINVAL, "cannot DMA-map an empty buffer");
        long addr = next;
        next = (addr + len + PAGE + PAGE - 1) & ~(PAGE - 1);
        DmaRegion r = new DmaRegion(addr, len, buffer.slice());
        DmaRegion[] cur = regions;
        DmaRegion[] grown = Arrays.copyOf(cur, cur.length + 1);
        grown[cur.length] = r;
        regions = grown;
        return addr;
    }

    /** Removes the mapping that starts at {@code addr}; ENOENT if there is none. */
    public synchronized void unmap(long addr) {
        DmaRegion[] cur = regions;
        for (int i = 0; i < cur.length; i++) {
            if (cur[i].dmaAddr == addr) {
                DmaRegion[] shrunk = new DmaRegion[cur.length - 1];
                System.arraycopy(cur, 0, shrunk, 0, i);
                System.arraycopy(cur, i + 1, shrunk, i, cur.length - i - 1);
                regions = shrunk;
                return;
            }
        }
        throw new RdmaException(Errno.ENOENT, "no DMA mapping at 0x" + Long.toHexString(addr));
    }

    /** Drops every mapping (device removal). */
    public synchronized void clear() {
        regions = new DmaRegion[0];
    }

    /** Number of live mappings. */
    public int size() {
        return regions.length;
    }

    @Override
    public DmaRegion find(long addr, long length) {
        DmaRegion[] r = regions;
        int lo = 0;
        int hi = r.length - 1;
        // Addresses only grow, so the array is sorted by dmaAddr.
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            DmaRegion m = r[mid];
            if (addr < m.dmaAddr) {
                hi = mid - 1;
            } else if (addr >= m.dmaAddr + m.length) {
                lo = mid + 1;
            } else {
                return m.contains(addr, length) ? m : null;
            }
        }
        return null;
    }
}
