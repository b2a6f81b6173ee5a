package org.rdma.verbs;

/** {@code struct ib_wq_attr} ({@code ib_modify_wq()}). */
public final class WqAttr {
    /** {@code wq_state}. */
    public WqState wqState = WqState.RESET;
    /** {@code curr_wq_state}. */
    public WqState currWqState = WqState.RESET;
    /** {@code flags}. */
    public int flags;
    /** {@code flags_mask}. */
    public int flagsMask;
}
