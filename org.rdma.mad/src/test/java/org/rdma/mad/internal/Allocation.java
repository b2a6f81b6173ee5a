package org.rdma.mad.internal;

import java.lang.management.ManagementFactory;

/** Bytes the current thread allocated, for bounding what one piece of bad input may cost. */
final class Allocation {
    /** More than any one MAD needs, far less than a length field taken at its word could make. */
    static final long PER_MAD_LIMIT = 1 << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocation() {
    }

    static long ofThisThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
