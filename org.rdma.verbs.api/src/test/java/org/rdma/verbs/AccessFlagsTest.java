package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@code ib_check_mr_access()}. */
class AccessFlagsTest {
    @Test
    void remoteWriteAndAtomicNeedLocalWrite() {
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> AccessFlags.checkMrAccess(AccessFlags.REMOTE_WRITE)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> AccessFlags.checkMrAccess(AccessFlags.REMOTE_ATOMIC)).errno());
        assertDoesNotThrow(() -> AccessFlags.checkMrAccess(AccessFlags.REMOTE_READ));
        assertDoesNotThrow(() -> AccessFlags.checkMrAccess(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                | AccessFlags.REMOTE_ATOMIC));
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> AccessFlags.checkMrAccess(1 << 29)).errno());
    }

    @Test
    void incRkeyWrapsTheKeyByteOnly() {
        assertEquals(0x12345601, IbMr.incRkey(0x12345600));
        assertEquals(0x12345600, IbMr.incRkey(0x123456ff));
    }
}
