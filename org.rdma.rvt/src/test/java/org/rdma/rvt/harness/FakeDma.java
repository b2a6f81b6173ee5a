package org.rdma.rvt.harness;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.spi.DmaRegion;
import org.rdma.verbs.spi.DmaSpace;

/** A real DMA address space for tests: buffers mapped at increasing page-aligned addresses. */
public final class FakeDma implements DmaSpace {
    private final List<DmaRegion> regions = new ArrayList<>();
    private DmaRegion[] snapshot = new DmaRegion[0];
    private long next = 0x1000_0000L;

    /** Maps {@code buf} (position to limit) and returns its DMA address. */
    public synchronized long map(ByteBuffer buf) {
        ByteBuffer s = buf.slice();
        long addr = next;
        next += (s.capacity() + 0xfff) & ~0xfffL;
        next += 0x1000;
        regions.add(new DmaRegion(addr, s.capacity(), s));
        snapshot = regions.toArray(new DmaRegion[0]);
        return addr;
    }

    /** Maps {@code buf} at a chosen address. */
    public synchronized void mapAt(long addr, ByteBuffer buf) {
        regions.add(new DmaRegion(addr, buf.slice().capacity(), buf.slice()));
        snapshot = regions.toArray(new DmaRegion[0]);
    }

    /** Removes the mapping at {@code addr}. */
    public synchronized void unmap(long addr) {
        regions.removeIf(r -> r.dmaAddr == addr);
        snapshot = regions.toArray(new DmaRegion[0]);
    }

    @Override
    public DmaRegion find(long addr, long length) {
        DmaRegion[] s = snapshot;
        for (int i = 0; i < s.length; i++) {
            if (s[i].contains(addr, length)) {
                return s[i];
            }
        }
        return null;
    }
}
