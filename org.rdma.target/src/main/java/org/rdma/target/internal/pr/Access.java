package org.rdma.target.internal.pr;

/**
 * How a command stands towards reservations, the rows of SPC-4 table 53 and of SBC-3's table of
 * block commands in the presence of reservations. The command table gives each command one.
 */
public enum Access {
    /** Never conflicts, not even with another nexus's SPC-2 reservation: INQUIRY, REPORT LUNS, REQUEST SENSE. */
    UNRESERVED,
    /**
     * Allowed through every persistent reservation type ("Allowed" in every column: TEST UNIT
     * READY, READ CAPACITY, LOG SENSE, PREVENT ALLOW MEDIUM REMOVAL with PREVENT zero, START STOP
     * UNIT starting the unit), but conflicting with another nexus's SPC-2 reservation.
     */
    ALLOWED,
    /** Reads the medium or the device's state: allowed through write exclusive types, not exclusive access ones. */
    READ,
    /** Changes the medium or the device's state: only the holder, or registrants where they have access. */
    WRITE,
    /** RESERVE and RELEASE (6/10): their own rules, with compatible reservation handling (SPC-4 5.12.3). */
    RESERVE_RELEASE,
    /** PERSISTENT RESERVE IN/OUT: their own rules; conflict with any SPC-2 reservation. */
    PERSISTENT
}
