package org.rdma.mad.internal;

import java.lang.management.ManagementFactory;

/** Bytes the current thread allocated, for bounding what one piece of bad input may cost. */
final class Allocation {
    /**
     * More than one MAD needs even when its first use loads and instruments classes (a few MB
     * under the fuzzer's agent), far less than a 32-bit length field taken at its word makes.
     */
    static final long PER_MAD_LIMIT = 64 << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocation() {
    }

    static long ofThisThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
