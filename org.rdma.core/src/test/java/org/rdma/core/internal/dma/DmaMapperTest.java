package org.rdma.core.internal.dma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.DmaRegion;

class DmaMapperTest {
    @Test
    void mappingsArePageAlignedAndTranslate() {
        DmaMapper m = new DmaMapper();
        ByteBuffer a = ByteBuffer.allocateDirect(5000);
        ByteBuffer b = ByteBuffer.allocate(100);
        b.position(10);
        long da = m.map(a);
        long db = m.map(b);
        assertEquals(0, da % 4096);
        assertEquals(0, db % 4096);
        assertNotEquals(0, da);
        // A guard page separates mappings, so an overrun never lands in a neighbour.
        assertEquals(da + 8192 + 4096, db);
        DmaRegion r = m.find(da + 4999, 1);
        assertEquals(da, r.dmaAddr);
        assertNull(m.find(da + 4999, 2));
        assertNull(m.find(da + 5000, 1));
        DmaRegion rb = m.find(db, 90);
        assertEquals(90, rb.length);
        b.put(10, (byte) 42);
        assertEquals(42, rb.buffer.get(0));
    }

    @Test
    void unmapRemovesOnlyThatMapping() {
        DmaMapper m = new DmaMapper();
        long x = m.map(ByteBuffer.allocate(10));
        long y = m.map(ByteBuffer.allocate(10));
        DmaRegion ry = m.find(y, 10);
        m.unmap(x);
        assertNull(m.find(x, 1));
        assertSame(ry, m.find(y, 10));
        assertEquals(Errno.ENOENT, assertThrows(RdmaException.class, () -> m.unmap(x)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> m.map(ByteBuffer.allocate(0))).errno());
        m.clear();
        assertEquals(0, m.size());
    }
}
