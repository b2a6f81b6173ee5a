package org.rdma.verbs;

/** Bits of {@code ib_send_wr.send_flags} ({@code enum ib_send_flags}). */
public final class SendFlags {
    private SendFlags() {
    }

    /** {@code IB_SEND_FENCE}. */
    public static final int FENCE = 1;
    /** {@code IB_SEND_SIGNALED}. */
    public static final int SIGNALED = 1 << 1;
    /** {@code IB_SEND_SOLICITED}. */
    public static final int SOLICITED = 1 << 2;
    /** {@code IB_SEND_INLINE}. */
    public static final int INLINE = 1 << 3;
    /** {@code IB_SEND_IP_CSUM}. */
    public static final int IP_CSUM = 1 << 4;
}
