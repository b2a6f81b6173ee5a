package org.rdma.verbs;

/** {@code struct ib_srq_attr}. */
public final class SrqAttr {
    /** {@code max_wr}. */
    public int maxWr;
    /** {@code max_sge}. */
    public int maxSge;
    /** {@code srq_limit}: arms the limit event when nonzero. */
    public int srqLimit;
}
