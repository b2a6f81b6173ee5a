package org.rdma.verbs;

/** Bits of {@code ib_send_wr.send_flags} ({@code enum ib_send_flags}). */
public final class SendFlags {
    private SendFlags() {
    }

    public static final int FENCE = 1;
    public static final int SIGNALED = 1 << 1;
    public static final int SOLICITED = 1 << 2;
    public static final int INLINE = 1 << 3;
    public static final int IP_CSUM = 1 << 4;
}
