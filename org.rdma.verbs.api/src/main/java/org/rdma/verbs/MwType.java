package org.rdma.verbs;

/** Mirrors {@code enum ib_mw_type}. */
public enum MwType {
    /** {@code IB_MW_TYPE_1}. */
    TYPE_1(1),
    /** {@code IB_MW_TYPE_2}. */
    TYPE_2(2);

    /** The kernel value. */
    public final int value;

    MwType(int value) {
        this.value = value;
    }
}
