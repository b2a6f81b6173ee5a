package org.rdma.core.internal.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

class NameAllocatorTest {
    @Test
    void lowestFreeIndex() {
        assertEquals("mlx4_0", NameAllocator.allocate("mlx4_%d", Set.of()));
        assertEquals("mlx4_1", NameAllocator.allocate("mlx4_%d", Set.of("mlx4_0", "mlx4_2")));
        assertEquals("rxe3", NameAllocator.allocate("rxe%d", Set.of("rxe0", "rxe1", "rxe2")));
    }

    @Test
    void fixedNamesMustBeFree() {
        assertEquals("ibp0s9", NameAllocator.allocate("ibp0s9", Set.of("mlx4_0")));
        assertEquals(Errno.EEXIST, assertThrows(RdmaException.class,
                () -> NameAllocator.allocate("ibp0s9", Set.of("ibp0s9"))).errno());
    }

    @Test
    void templates() {
        assertTrue(NameAllocator.validTemplate("mlx4_%d"));
        assertTrue(NameAllocator.validTemplate("fixed"));
        assertFalse(NameAllocator.validTemplate(""));
        assertFalse(NameAllocator.validTemplate(null));
        assertFalse(NameAllocator.validTemplate("a%d%d"));
        assertFalse(NameAllocator.validTemplate("a%s"));
        assertFalse(NameAllocator.validTemplate("has space%d"));
        assertFalse(NameAllocator.validTemplate("x".repeat(65)));
    }
}
