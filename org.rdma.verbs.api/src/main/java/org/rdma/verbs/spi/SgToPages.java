package org.rdma.verbs.spi;

import org.rdma.verbs.Errno;
import org.rdma.verbs.SgEntry;

/**
 * {@code ib_sg_to_pages()}: the core helper drivers use in {@code ops.map_mr_sg} to turn the
 * largest acceptable prefix of a DMA-mapped SG list into a page list.
 */
public final class SgToPages {
    private SgToPages() {
    }

    /** {@code set_page}: appends one page address; returns 0, or a negative errno when the list is full. */
    @FunctionalInterface
    public interface PageSink {
        /** Records the page starting at {@code pageAddr}. */
        int setPage(long pageAddr);
    }

    /**
     * Converts a prefix of {@code sgl[0..nents)} into pages of {@code mr.pageSize()}, calling
     * {@code setPage} for each. Elements may be merged only where the previous one ends exactly
     * where the next begins, or both meet at page boundaries; the first gap ends the prefix.
     * Sets {@code mr.iova} to the first element's address plus {@code sgOffset[0]} and
     * {@code mr.length} to the bytes mapped.
     *
     * @return the number of elements mapped (an element cut short by a full page list counts
     *     only if mapping started in it); {@code -EINVAL} for an empty list or an offset beyond
     *     the first element, or {@code setPage}'s error when not even one page fit. When
     *     {@code sgOffset} is given, {@code sgOffset[0]} becomes the offset into the first
     *     element not fully mapped (0 when all were).
     */
    public static int sgToPages(MrMapTarget mr, SgEntry[] sgl, int nents, int[] sgOffset, PageSink setPage) {
        int offset = sgOffset != null ? sgOffset[0] : 0;
        if (nents <= 0 || offset > sgl[0].dmaLength) {
            return -Errno.EINVAL.value;
        }
        long pageSize = mr.pageSize();
        long pageMask = ~(pageSize - 1);
        long lastEnd = 0;
        long lastPageOff = 0;
        long mapped = 0;
        mr.setIova(sgl[0].dmaAddress + offset);
        mr.setLength(0);

        int i;
        for (i = 0; i < nents; i++) {
            SgEntry sg = sgl[i];
            long dmaAddr = sg.dmaAddress + offset;
            long prevAddr = dmaAddr;
            long dmaLen = (sg.dmaLength & 0xffff_ffffL) - offset;
            long end = dmaAddr + dmaLen;
            long pageAddr = dmaAddr & pageMask;
            boolean coalesce = false;

            if (i > 0 && (lastPageOff != 0 || pageAddr != dmaAddr)) {
                // Not page aligned on both sides: only a contiguous continuation is acceptable.
                if (lastEnd != dmaAddr) {
                    break;
                }
                coalesce = true;
            }
            do {
                if (!coalesce) {
                    int ret = setPage.setPage(pageAddr);
                    if (ret < 0) {
                        long partial = prevAddr - sg.dmaAddress;
                        mapped += prevAddr - dmaAddr;
                        mr.setLength(mapped);
                        if (sgOffset != null) {
                            sgOffset[0] = (int) partial;
                        }
                        return i > 0 || partial > 0 ? i : ret;
                    }
                    prevAddr = pageAddr;
                }
                coalesce = false;
                pageAddr += pageSize;
            } while (pageAddr < end);

            mapped += dmaLen;
            mr.setLength(mapped);
            lastEnd = end;
            lastPageOff = end & ~pageMask;
            offset = 0;
        }
        if (sgOffset != null) {
            sgOffset[0] = 0;
        }
        return i;
    }
}
