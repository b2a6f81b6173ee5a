package org.rdma.verbs;

/** Bits of {@code ib_wc.wc_flags} ({@code enum ib_wc_flags}). */
public final class WcFlags {
    private WcFlags() {
    }

    /** {@code IB_WC_GRH}. */
    public static final int GRH = 1;
    /** {@code IB_WC_WITH_IMM}. */
    public static final int WITH_IMM = 1 << 1;
    /** {@code IB_WC_WITH_INVALIDATE}. */
    public static final int WITH_INVALIDATE = 1 << 2;
    /** {@code IB_WC_IP_CSUM_OK}. */
    public static final int IP_CSUM_OK = 1 << 3;
    /** {@code IB_WC_WITH_SMAC}. */
    public static final int WITH_SMAC = 1 << 4;
    /** {@code IB_WC_WITH_VLAN}. */
    public static final int WITH_VLAN = 1 << 5;
    /** {@code IB_WC_WITH_NETWORK_HDR_TYPE}. */
    public static final int WITH_NETWORK_HDR_TYPE = 1 << 6;
}
