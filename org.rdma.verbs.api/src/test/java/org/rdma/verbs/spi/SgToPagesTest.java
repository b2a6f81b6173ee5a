package org.rdma.verbs.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.MrType;
import org.rdma.verbs.SgEntry;

/** {@code ib_sg_to_pages()} semantics, worked out by hand for 4 KiB pages. */
class SgToPagesTest {
    static final class Mr implements MrMapTarget {
        long iova = -1;
        long length = -1;

        @Override public MrType type() { return MrType.MEM_REG; }
        @Override public long iova() { return iova; }
        @Override public int pageSize() { return 4096; }
        @Override public void setIova(long iova) { this.iova = iova; }
        @Override public void setLength(long length) { this.length = length; }
        @Override public long length() { return length; }
    }

    static final class Pages implements SgToPages.PageSink {
        final int capacity;
        final List<Long> pages = new ArrayList<>();

        Pages(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public int setPage(long pageAddr) {
            if (pages.size() == capacity) {
                return -Errno.ENOMEM.value;
            }
            pages.add(pageAddr);
            return 0;
        }
    }

    private static SgEntry[] sg(long... addrLen) {
        SgEntry[] s = new SgEntry[addrLen.length / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = new SgEntry(addrLen[2 * i], (int) addrLen[2 * i + 1]);
        }
        return s;
    }

    @Test
    void alignedElementBecomesItsPages() {
        Mr mr = new Mr();
        Pages p = new Pages(8);
        assertEquals(1, SgToPages.sgToPages(mr, sg(0x10000, 0x2000), 1, null, p));
        assertEquals(List.of(0x10000L, 0x11000L), p.pages);
        assertEquals(0x10000, mr.iova);
        assertEquals(0x2000, mr.length);
    }

    @Test
    void unalignedStartEndingOnAPageBoundaryMayBeFollowedByAnyAlignedElement() {
        Mr mr = new Mr();
        Pages p = new Pages(8);
        assertEquals(2, SgToPages.sgToPages(mr, sg(0x10100, 0xf00, 0x20000, 0x1000), 2, null, p));
        assertEquals(List.of(0x10000L, 0x20000L), p.pages);
        assertEquals(0x10100, mr.iova);
        assertEquals(0x1f00, mr.length);
    }

    @Test
    void aGapEndsThePrefix() {
        Mr mr = new Mr();
        Pages p = new Pages(8);
        int[] off = {0};
        assertEquals(1, SgToPages.sgToPages(mr, sg(0x10000, 0x800, 0x20000, 0x1000), 2, off, p));
        assertEquals(List.of(0x10000L), p.pages);
        assertEquals(0x800, mr.length);
        assertEquals(0, off[0]);
    }

    @Test
    void aContiguousContinuationIsCoalesced() {
        Mr mr = new Mr();
        Pages p = new Pages(8);
        assertEquals(2, SgToPages.sgToPages(mr, sg(0x10000, 0x800, 0x10800, 0x1000), 2, null, p));
        assertEquals(List.of(0x10000L, 0x11000L), p.pages);
        assertEquals(0x1800, mr.length);
    }

    @Test
    void aStartingOffsetMovesTheIova() {
        Mr mr = new Mr();
        Pages p = new Pages(8);
        int[] off = {0x1800};
        assertEquals(1, SgToPages.sgToPages(mr, sg(0x10000, 0x2000), 1, off, p));
        assertEquals(List.of(0x11000L), p.pages);
        assertEquals(0x11800, mr.iova);
        assertEquals(0x800, mr.length);
        assertEquals(0, off[0]);
    }

    @Test
    void aFullPageListReportsWhereToResume() {
        Mr mr = new Mr();
        Pages p = new Pages(2);
        int[] off = {0};
        // Three pages, room for two: the element is cut at the start of the last page set,
        // which the next registration maps again.
        assertEquals(0, SgToPages.sgToPages(mr, sg(0x10000, 0x3000), 1, off, p));
        assertEquals(0x1000, off[0]);
        assertEquals(0x1000, mr.length);

        Pages q = new Pages(1);
        assertEquals(-Errno.ENOMEM.value, SgToPages.sgToPages(new Mr(), sg(0x10000, 0x2000), 1, new int[1], q));

        Pages r = new Pages(2);
        int[] off2 = {0};
        assertEquals(1, SgToPages.sgToPages(new Mr(), sg(0x10000, 0x1000, 0x20000, 0x3000), 2, off2, r));
        assertEquals(0, off2[0]);
    }

    @Test
    void invalidArguments() {
        assertEquals(-Errno.EINVAL.value, SgToPages.sgToPages(new Mr(), sg(0x10000, 0x1000), 0, null, new Pages(1)));
        assertEquals(-Errno.EINVAL.value, SgToPages.sgToPages(new Mr(), sg(0x10000, 0x1000), 1, new int[] {0x1001}, new Pages(1)));
    }
}
