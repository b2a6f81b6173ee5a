package org.rdma.verbs;

/** Bits of MR/MW/QP access ({@code enum ib_access_flags}). */
public final class AccessFlags {
    private AccessFlags() {
    }

    /** {@code IB_ACCESS_LOCAL_WRITE}. */
    public static final int LOCAL_WRITE = 1;
    /** {@code IB_ACCESS_REMOTE_WRITE}. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** {@code IB_ACCESS_REMOTE_READ}. */
    public static final int REMOTE_READ = 1 << 2;
    /** {@code IB_ACCESS_REMOTE_ATOMIC}. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** {@code IB_ACCESS_MW_BIND}. */
    public static final int MW_BIND = 1 << 4;
    /** {@code IB_ACCESS_ZERO_BASED}. */
    public static final int ZERO_BASED = 1 << 5;
    /** {@code IB_ACCESS_ON_DEMAND}. */
    public static final int ON_DEMAND = 1 << 6;
    /** {@code IB_ACCESS_HUGETLB}. */
    public static final int HUGETLB = 1 << 7;
    /** {@code IB_ACCESS_RELAXED_ORDERING}. */
    public static final int RELAXED_ORDERING = 1 << 20;

    /** Every bit a registration may carry. */
    public static final int SUPPORTED = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC
            | MW_BIND | ZERO_BASED | ON_DEMAND | HUGETLB | RELAXED_ORDERING;

    /**
     * Remote write or atomic access requires local write, as {@code ib_check_mr_access()}
     * enforces (IBTA o10-36.2.2).
     */
    public static void checkMrAccess(int flags) {
        RdmaException.check((flags & ~SUPPORTED) == 0, Errno.EINVAL,
                "unsupported access flags 0x" + Integer.toHexString(flags & ~SUPPORTED));
        if ((flags & (REMOTE_WRITE | REMOTE_ATOMIC)) != 0) {
            RdmaException.check((flags & LOCAL_WRITE) != 0, Errno.EINVAL,
                    "remote write/atomic access requires IB_ACCESS_LOCAL_WRITE");
        }
    }
}
