package org.rdma.verbs;

/** Bits of {@code ib_modify_wq()} mask ({@code enum ib_wq_attr_mask}). */
public final class WqAttrMask {
    private WqAttrMask() {
    }

    /** {@code IB_WQ_STATE}. */
    public static final int STATE = 1;
    /** {@code IB_WQ_CUR_STATE}. */
    public static final int CUR_STATE = 1 << 1;
    /** {@code IB_WQ_FLAGS}. */
    public static final int FLAGS = 1 << 2;
}
