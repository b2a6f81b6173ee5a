package org.rdma.verbs;

/** Bits of {@code ib_modify_srq()} mask ({@code enum ib_srq_attr_mask}). */
public final class SrqAttrMask {
    private SrqAttrMask() {
    }

    public static final int MAX_WR = 1;
    public static final int LIMIT = 1 << 1;
}
