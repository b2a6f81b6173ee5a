package org.rdma.verbs;

/** CQ creation attributes: {@code struct ib_cq_init_attr}. */
public final class CqInitAttr {
    /** {@code cqe}: minimum number of entries. */
    public int cqe;
    /** {@code comp_vector}. */
    public int compVector;
    /** {@code flags}. */
    public int flags;

    /** Attributes for {@code cqe} entries on {@code compVector}. */
    public static CqInitAttr of(int cqe, int compVector) {
        CqInitAttr a = new CqInitAttr();
        a.cqe = cqe;
        a.compVector = compVector;
        return a;
    }
}
