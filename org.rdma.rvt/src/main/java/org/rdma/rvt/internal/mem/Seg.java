package org.rdma.rvt.internal.mem;

import java.nio.ByteBuffer;

/** One contiguous piece of memory a translation produced: a buffer, an absolute index, a length. */
public final class Seg {
    /** The buffer. */
    public ByteBuffer buf;
    /** Absolute index of the first byte. */
    public int index;
    /** Bytes. */
    public int len;

    /** Sets all fields. */
    public Seg set(ByteBuffer buf, int index, int len) {
        this.buf = buf;
        this.index = index;
        this.len = len;
        return this;
    }
}
