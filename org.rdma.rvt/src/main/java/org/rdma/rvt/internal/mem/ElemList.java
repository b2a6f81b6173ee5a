package org.rdma.rvt.internal.mem;

import java.nio.ByteBuffer;
import org.rdma.verbs.Errno;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.spi.DmaRegion;
import org.rdma.verbs.spi.DmaSpace;

/**
 * A mapped scatter/gather list kept element by element (a KLM list: no alignment rules), as one
 * linear byte range translated through the core's DMA space. Sequential access is cheap: the
 * element of the last lookup is remembered.
 */
final class ElemList {
    private final DmaSpace dma;
    private final long[] addr;
    private final int[] len;
    private int n;
    private long total;
    private int lastIdx;
    private long lastStart;

    ElemList(DmaSpace dma, int capacity) {
        this.dma = dma;
        this.addr = new long[Math.max(0, capacity)];
        this.len = new int[Math.max(0, capacity)];
    }

    /** Elements mapped. */
    int count() {
        return n;
    }

    /** Bytes mapped. */
    long total() {
        return total;
    }

    /**
     * Maps all of {@code sg[0..nents)}, the first from {@code offset} bytes in: 0, {@code -ENOMEM}
     * when they do not fit, {@code -EINVAL} for an offset beyond the first element.
     */
    int map(SgEntry[] sg, int nents, int offset) {
        n = 0;
        total = 0;
        lastIdx = 0;
        lastStart = 0;
        if (nents == 0) {
            return 0;
        }
        if (nents > addr.length) {
            return -Errno.ENOMEM.value;
        }
        if (offset < 0 || offset > sg[0].dmaLength) {
            return -Errno.EINVAL.value;
        }
        for (int i = 0; i < nents; i++) {
            int skip = i == 0 ? offset : 0;
            addr[i] = sg[i].dmaAddress + skip;
            len[i] = sg[i].dmaLength - skip;
            total += len[i] & 0xffff_ffffL;
        }
        n = nents;
        return 0;
    }

    /** The largest piece of {@code [off, off + max)} that is contiguous in one buffer; false if unmapped. */
    boolean piece(long off, int max, Seg out) {
        if (off < 0 || off >= total) {
            return false;
        }
        int i = 0;
        long start = 0;
        if (off >= lastStart && lastIdx < n) {
            i = lastIdx;
            start = lastStart;
        }
        while (off >= start + (len[i] & 0xffff_ffffL)) {
            start += len[i] & 0xffff_ffffL;
            i++;
        }
        lastIdx = i;
        lastStart = start;
        long within = off - start;
        long a = addr[i] + within;
        DmaRegion r = dma.find(a, 1);
        if (r == null) {
            return false;
        }
        long avail = Math.min((len[i] & 0xffff_ffffL) - within, r.dmaAddr + r.length - a);
        out.set(r.buffer, (int) (a - r.dmaAddr), (int) Math.min(max, avail));
        return true;
    }

    /** Copies {@code count} bytes at {@code off} into {@code dst[di..]}. */
    boolean copyOut(long off, ByteBuffer dst, int di, int count, Seg seg) {
        while (count > 0) {
            if (!piece(off, count, seg)) {
                return false;
            }
            dst.put(di, seg.buf, seg.index, seg.len);
            off += seg.len;
            di += seg.len;
            count -= seg.len;
        }
        return true;
    }

    /** Copies {@code count} bytes from {@code src[si..]} to {@code off}. */
    boolean copyIn(long off, ByteBuffer src, int si, int count, Seg seg) {
        while (count > 0) {
            if (!piece(off, count, seg)) {
                return false;
            }
            seg.buf.put(seg.index, src, si, seg.len);
            off += seg.len;
            si += seg.len;
            count -= seg.len;
        }
        return true;
    }
}
