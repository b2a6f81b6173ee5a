package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RangeSetTest {
    @Test
    void rangesMergeAndOverlapsAreRefused() {
        RangeSet r = new RangeSet();
        assertTrue(r.add(0, 0), "nothing is no overlap");
        assertTrue(r.add(0, 512));
        assertTrue(r.add(1024, 512));
        assertFalse(r.covers(0, 1536));
        assertFalse(r.add(256, 512), "overlaps the first");
        assertFalse(r.add(1000, 100), "overlaps the second");
        assertTrue(r.add(512, 512));
        assertTrue(r.covers(0, 1536));
        assertFalse(r.add(0, 1), "inside the merged range");
        assertEquals(1536, r.total());
    }
}
