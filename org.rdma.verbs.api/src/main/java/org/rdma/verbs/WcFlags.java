package org.rdma.verbs;

/** Bits of {@code ib_wc.wc_flags} ({@code enum ib_wc_flags}). */
public final class WcFlags {
    private WcFlags() {
    }

    public static final int GRH = 1;
    public static final int WITH_IMM = 1 << 1;
    public static final int WITH_INVALIDATE = 1 << 2;
    public static final int IP_CSUM_OK = 1 << 3;
    public static final int WITH_SMAC = 1 << 4;
    public static final int WITH_VLAN = 1 << 5;
    public static final int WITH_NETWORK_HDR_TYPE = 1 << 6;
}
