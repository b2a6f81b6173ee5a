package org.rdma.rvt.internal.qp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * 64-bit atomic operands in memory: in the host's byte order, as an HCA reads and writes them,
 * whatever order the Java buffer object is set to.
 */
final class Atomics {
    private Atomics() {
    }

    static long get(ByteBuffer b, int index) {
        long v = b.getLong(index);
        return b.order() == ByteOrder.nativeOrder() ? v : Long.reverseBytes(v);
    }

    static void put(ByteBuffer b, int index, long v) {
        b.putLong(index, b.order() == ByteOrder.nativeOrder() ? v : Long.reverseBytes(v));
    }
}
