package org.rdma.scsi;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An additional sense code and qualifier pair (SPC-4 4.5.6, the T10 list in annex D), with the
 * T10 description for the pairs this platform uses; Linux's {@code ASC_*} / LIO's
 * {@code sense_detail_table}.
 *
 * @param asc the ADDITIONAL SENSE CODE, 0..255
 * @param ascq the ADDITIONAL SENSE CODE QUALIFIER, 0..255
 * @param description T10's words for the pair, or a hex form for a pair not listed here
 */
public record Asc(int asc, int ascq, String description) {
    public static final Asc NO_ADDITIONAL_SENSE_INFORMATION = new Asc(0x00, 0x00, "NO ADDITIONAL SENSE INFORMATION");
    public static final Asc LOGICAL_UNIT_NOT_READY_CAUSE_NOT_REPORTABLE =
            new Asc(0x04, 0x00, "LOGICAL UNIT NOT READY, CAUSE NOT REPORTABLE");
    public static final Asc LOGICAL_UNIT_NOT_READY_INITIALIZING_COMMAND_REQUIRED =
            new Asc(0x04, 0x02, "LOGICAL UNIT NOT READY, INITIALIZING COMMAND REQUIRED");
    public static final Asc LOGICAL_UNIT_COMMUNICATION_FAILURE = new Asc(0x08, 0x00, "LOGICAL UNIT COMMUNICATION FAILURE");
    public static final Asc WRITE_ERROR = new Asc(0x0C, 0x00, "WRITE ERROR");
    public static final Asc INVALID_FIELD_IN_COMMAND_INFORMATION_UNIT =
            new Asc(0x0E, 0x03, "INVALID FIELD IN COMMAND INFORMATION UNIT");
    public static final Asc LOGICAL_BLOCK_GUARD_CHECK_FAILED = new Asc(0x10, 0x01, "LOGICAL BLOCK GUARD CHECK FAILED");
    public static final Asc LOGICAL_BLOCK_APPLICATION_TAG_CHECK_FAILED =
            new Asc(0x10, 0x02, "LOGICAL BLOCK APPLICATION TAG CHECK FAILED");
    public static final Asc LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED =
            new Asc(0x10, 0x03, "LOGICAL BLOCK REFERENCE TAG CHECK FAILED");
    public static final Asc UNRECOVERED_READ_ERROR = new Asc(0x11, 0x00, "UNRECOVERED READ ERROR");
    public static final Asc PARAMETER_LIST_LENGTH_ERROR = new Asc(0x1A, 0x00, "PARAMETER LIST LENGTH ERROR");
    public static final Asc MISCOMPARE_DURING_VERIFY_OPERATION = new Asc(0x1D, 0x00, "MISCOMPARE DURING VERIFY OPERATION");
    public static final Asc INVALID_COMMAND_OPERATION_CODE = new Asc(0x20, 0x00, "INVALID COMMAND OPERATION CODE");
    public static final Asc LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE = new Asc(0x21, 0x00, "LOGICAL BLOCK ADDRESS OUT OF RANGE");
    public static final Asc INVALID_FIELD_IN_CDB = new Asc(0x24, 0x00, "INVALID FIELD IN CDB");
    public static final Asc LOGICAL_UNIT_NOT_SUPPORTED = new Asc(0x25, 0x00, "LOGICAL UNIT NOT SUPPORTED");
    public static final Asc INVALID_FIELD_IN_PARAMETER_LIST = new Asc(0x26, 0x00, "INVALID FIELD IN PARAMETER LIST");
    public static final Asc PARAMETER_NOT_SUPPORTED = new Asc(0x26, 0x01, "PARAMETER NOT SUPPORTED");
    public static final Asc PARAMETER_VALUE_INVALID = new Asc(0x26, 0x02, "PARAMETER VALUE INVALID");
    public static final Asc WRITE_PROTECTED = new Asc(0x27, 0x00, "WRITE PROTECTED");
    public static final Asc NOT_READY_TO_READY_CHANGE_MEDIUM_MAY_HAVE_CHANGED =
            new Asc(0x28, 0x00, "NOT READY TO READY CHANGE, MEDIUM MAY HAVE CHANGED");
    public static final Asc POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED =
            new Asc(0x29, 0x00, "POWER ON, RESET, OR BUS DEVICE RESET OCCURRED");
    public static final Asc POWER_ON_OCCURRED = new Asc(0x29, 0x01, "POWER ON OCCURRED");
    public static final Asc BUS_DEVICE_RESET_FUNCTION_OCCURRED = new Asc(0x29, 0x03, "BUS DEVICE RESET FUNCTION OCCURRED");
    public static final Asc I_T_NEXUS_LOSS_OCCURRED = new Asc(0x29, 0x07, "I_T NEXUS LOSS OCCURRED");
    public static final Asc PARAMETERS_CHANGED = new Asc(0x2A, 0x00, "PARAMETERS CHANGED");
    public static final Asc MODE_PARAMETERS_CHANGED = new Asc(0x2A, 0x01, "MODE PARAMETERS CHANGED");
    public static final Asc RESERVATIONS_PREEMPTED = new Asc(0x2A, 0x03, "RESERVATIONS PREEMPTED");
    public static final Asc RESERVATIONS_RELEASED = new Asc(0x2A, 0x04, "RESERVATIONS RELEASED");
    public static final Asc REGISTRATIONS_PREEMPTED = new Asc(0x2A, 0x05, "REGISTRATIONS PREEMPTED");
    public static final Asc CAPACITY_DATA_HAS_CHANGED = new Asc(0x2A, 0x09, "CAPACITY DATA HAS CHANGED");
    public static final Asc COMMAND_SEQUENCE_ERROR = new Asc(0x2C, 0x00, "COMMAND SEQUENCE ERROR");
    public static final Asc COMMANDS_CLEARED_BY_ANOTHER_INITIATOR = new Asc(0x2F, 0x00, "COMMANDS CLEARED BY ANOTHER INITIATOR");
    public static final Asc SAVING_PARAMETERS_NOT_SUPPORTED = new Asc(0x39, 0x00, "SAVING PARAMETERS NOT SUPPORTED");
    public static final Asc MEDIUM_NOT_PRESENT = new Asc(0x3A, 0x00, "MEDIUM NOT PRESENT");
    public static final Asc INQUIRY_DATA_HAS_CHANGED = new Asc(0x3F, 0x03, "INQUIRY DATA HAS CHANGED");
    public static final Asc REPORTED_LUNS_DATA_HAS_CHANGED = new Asc(0x3F, 0x0E, "REPORTED LUNS DATA HAS CHANGED");
    public static final Asc INTERNAL_TARGET_FAILURE = new Asc(0x44, 0x00, "INTERNAL TARGET FAILURE");
    public static final Asc INVALID_MESSAGE_ERROR = new Asc(0x49, 0x00, "INVALID MESSAGE ERROR");
    public static final Asc DATA_PHASE_ERROR = new Asc(0x4B, 0x00, "DATA PHASE ERROR");
    public static final Asc INVALID_TARGET_PORT_TRANSFER_TAG_RECEIVED =
            new Asc(0x4B, 0x01, "INVALID TARGET PORT TRANSFER TAG RECEIVED");
    public static final Asc TOO_MUCH_WRITE_DATA = new Asc(0x4B, 0x02, "TOO MUCH WRITE DATA");
    public static final Asc DATA_OFFSET_ERROR = new Asc(0x4B, 0x05, "DATA OFFSET ERROR");
    public static final Asc INITIATOR_RESPONSE_TIMEOUT = new Asc(0x4B, 0x06, "INITIATOR RESPONSE TIMEOUT");
    public static final Asc OVERLAPPED_COMMANDS_ATTEMPTED = new Asc(0x4E, 0x00, "OVERLAPPED COMMANDS ATTEMPTED");
    public static final Asc MEDIUM_REMOVAL_PREVENTED = new Asc(0x53, 0x02, "MEDIUM REMOVAL PREVENTED");
    public static final Asc INSUFFICIENT_RESOURCES = new Asc(0x55, 0x03, "INSUFFICIENT RESOURCES");
    public static final Asc INSUFFICIENT_REGISTRATION_RESOURCES = new Asc(0x55, 0x04, "INSUFFICIENT REGISTRATION RESOURCES");
    public static final Asc FAILURE_PREDICTION_THRESHOLD_EXCEEDED = new Asc(0x5D, 0x00, "FAILURE PREDICTION THRESHOLD EXCEEDED");

    private static final Map<Integer, Asc> KNOWN = Stream.of(Asc.class.getFields())
            .filter(f -> f.getType() == Asc.class).map(Asc::constant)
            .collect(Collectors.toUnmodifiableMap(a -> a.asc << 8 | a.ascq, Function.identity()));

    public Asc {
        if ((asc & ~0xFF) != 0 || (ascq & ~0xFF) != 0) {
            throw new IllegalArgumentException("EINVAL: ASC/ASCQ " + asc + "/" + ascq + " not bytes");
        }
    }

    private static Asc constant(java.lang.reflect.Field f) {
        try {
            return (Asc) f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The listed pair for these codes, or an unnamed one ("ASC 0xXX ASCQ 0xYY"). */
    public static Asc of(int asc, int ascq) {
        Asc known = KNOWN.get((asc & 0xFF) << 8 | (ascq & 0xFF));
        return known != null ? known
                : new Asc(asc & 0xFF, ascq & 0xFF, String.format("ASC 0x%02X ASCQ 0x%02X", asc & 0xFF, ascq & 0xFF));
    }

    /** Pairs are equal when their codes are: the description is derived. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Asc a && a.asc == asc && a.ascq == ascq;
    }

    @Override
    public int hashCode() {
        return asc << 8 | ascq;
    }

    @Override
    public String toString() {
        return description;
    }
}
