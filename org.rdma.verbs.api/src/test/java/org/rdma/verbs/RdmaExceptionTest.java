package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RdmaExceptionTest {
    @Test
    void aFailureSaysItsErrnoFirstAndWhere() {
        RdmaException e = assertThrows(RdmaException.class, () -> RdmaException.check(false, Errno.EBUSY, "in use"));
        assertEquals(Errno.EBUSY, e.errno());
        assertEquals("EBUSY: in use", e.getMessage());
        assertTrue(e.getStackTrace().length > 0);
    }

    @Test
    void aMissCostsNothingUntilItsMessageIsRead() {
        AtomicInteger built = new AtomicInteger();
        RdmaException e = RdmaException.miss(Errno.ENOENT, () -> {
            built.incrementAndGet();
            return "GID fe80::1 not found";
        });
        assertEquals(0, built.get(), "no message until someone asks");
        assertEquals(0, e.getStackTrace().length, "no stack trace for a lookup that found nothing");
        assertEquals(Errno.ENOENT, e.errno());
        assertEquals("ENOENT: GID fe80::1 not found", e.getMessage());
        assertEquals(RdmaException.class.getName() + ": ENOENT: GID fe80::1 not found", e.toString());
        assertEquals(2, built.get());
    }
}
