package org.rdma.target.internal.pr;

/**
 * The persistent reservation types (SPC-4 6.16.3, table 206); LIO's {@code PR_TYPE_*}.
 */
public enum PrType {
    WRITE_EXCLUSIVE(0x1),
    EXCLUSIVE_ACCESS(0x3),
    WRITE_EXCLUSIVE_REGISTRANTS_ONLY(0x5),
    EXCLUSIVE_ACCESS_REGISTRANTS_ONLY(0x6),
    WRITE_EXCLUSIVE_ALL_REGISTRANTS(0x7),
    EXCLUSIVE_ACCESS_ALL_REGISTRANTS(0x8);

    private final int code;

    PrType(int code) {
        this.code = code;
    }

    /** The TYPE field value. */
    public int code() {
        return code;
    }

    /** The type of a TYPE field, or null for an undefined one. */
    public static PrType of(int code) {
        for (PrType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }

    /** Only writes are reserved: reads pass for every nexus. */
    public boolean writeExclusive() {
        return this == WRITE_EXCLUSIVE || this == WRITE_EXCLUSIVE_REGISTRANTS_ONLY || this == WRITE_EXCLUSIVE_ALL_REGISTRANTS;
    }

    /** Registered nexuses have access as the holder has (registrants only and all registrants). */
    public boolean registrantsHaveAccess() {
        return this != WRITE_EXCLUSIVE && this != EXCLUSIVE_ACCESS;
    }

    /** Every registered nexus is a reservation holder (SPC-4 5.12.10). */
    public boolean allRegistrants() {
        return this == WRITE_EXCLUSIVE_ALL_REGISTRANTS || this == EXCLUSIVE_ACCESS_ALL_REGISTRANTS;
    }
}
