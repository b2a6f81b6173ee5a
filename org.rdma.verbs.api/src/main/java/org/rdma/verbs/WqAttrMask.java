package org.rdma.verbs;

/** Bits of {@code ib_modify_wq()} mask ({@code enum ib_wq_attr_mask}). */
public final class WqAttrMask {
    private WqAttrMask() {
    }

    public static final int STATE = 1;
    public static final int CUR_STATE = 1 << 1;
    public static final int FLAGS = 1 << 2;
}
