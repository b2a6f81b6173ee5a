package org.rdma.verbs;

/** Mirrors {@code enum ib_mw_type}. */
public enum MwType {
    TYPE_1(1), TYPE_2(2);

    /** The kernel value. */
    public final int value;

    MwType(int value) {
        this.value = value;
    }
}
