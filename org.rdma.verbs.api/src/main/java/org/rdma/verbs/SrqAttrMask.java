package org.rdma.verbs;

/** Bits of {@code ib_modify_srq()} mask ({@code enum ib_srq_attr_mask}). */
public final class SrqAttrMask {
    private SrqAttrMask() {
    }

    /** {@code IB_SRQ_MAX_WR}. */
    public static final int MAX_WR = 1;
    /** {@code IB_SRQ_LIMIT}. */
    public static final int LIMIT = 1 << 1;
}
