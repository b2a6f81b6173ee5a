package org.rdma.scsi;

/**
 * The service responses of a task management function (SAM-5 7.1, table 39) and the two further
 * answers fabrics distinguish (LIO's {@code TMR_TASK_DOES_NOT_EXIST},
 * {@code TMR_TASK_MGMT_FUNCTION_NOT_SUPPORTED}).
 */
public enum TmfResponse {
    FUNCTION_COMPLETE,
    /** A QUERY function found what it asked about. */
    FUNCTION_SUCCEEDED,
    FUNCTION_REJECTED,
    INCORRECT_LOGICAL_UNIT_NUMBER,
    TASK_DOES_NOT_EXIST,
    FUNCTION_NOT_SUPPORTED,
    SERVICE_DELIVERY_OR_TARGET_FAILURE
}
