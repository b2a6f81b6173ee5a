package org.rdma.scsi;

/** The sense keys of SPC-4 4.5.6 (table 45); code 0xC is obsolete and kept so decoding is total. */
public enum SenseKey {
    NO_SENSE, RECOVERED_ERROR, NOT_READY, MEDIUM_ERROR, HARDWARE_ERROR, ILLEGAL_REQUEST, UNIT_ATTENTION,
    DATA_PROTECT, BLANK_CHECK, VENDOR_SPECIFIC, COPY_ABORTED, ABORTED_COMMAND, OBSOLETE_C, VOLUME_OVERFLOW,
    MISCOMPARE, COMPLETED;

    private static final SenseKey[] BY_CODE = values();

    /** The 4-bit code of SPC-4 table 45. */
    public int code() {
        return ordinal();
    }

    /** The sense key of the low four bits of {@code code}. */
    public static SenseKey of(int code) {
        return BY_CODE[code & 0xF];
    }
}
