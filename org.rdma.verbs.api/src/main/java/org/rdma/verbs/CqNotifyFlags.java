package org.rdma.verbs;

/** Bits of {@code ib_req_notify_cq()} flags ({@code enum ib_cq_notify_flags}). */
public final class CqNotifyFlags {
    private CqNotifyFlags() {
    }

    /** {@code IB_CQ_SOLICITED}. */
    public static final int SOLICITED = 1;
    /** {@code IB_CQ_NEXT_COMP}. */
    public static final int NEXT_COMP = 1 << 1;
    /** {@code IB_CQ_SOLICITED_MASK}. */
    public static final int SOLICITED_MASK = SOLICITED | NEXT_COMP;
    /** {@code IB_CQ_REPORT_MISSED_EVENTS}. */
    public static final int REPORT_MISSED_EVENTS = 1 << 2;
}
