package org.rdma.scsi;

/** The status codes of SAM-5 5.3.1 (table 33); Linux's {@code SAM_STAT_*}. */
public enum ScsiStatus {
    GOOD(0x00),
    CHECK_CONDITION(0x02),
    CONDITION_MET(0x04),
    BUSY(0x08),
    RESERVATION_CONFLICT(0x18),
    TASK_SET_FULL(0x28),
    ACA_ACTIVE(0x30),
    TASK_ABORTED(0x40);

    private final int code;

    ScsiStatus(int code) {
        this.code = code;
    }

    /** The status byte as it goes on the wire. */
    public int code() {
        return code;
    }

    /**
     * The status of a status byte.
     *
     * @throws IllegalArgumentException {@code EINVAL} for a code SAM-5 does not define (obsolete
     *         and reserved codes included)
     */
    public static ScsiStatus valueOf(int code) {
        for (ScsiStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("EINVAL: status 0x" + Integer.toHexString(code) + " is not a SAM-5 status");
    }
}
