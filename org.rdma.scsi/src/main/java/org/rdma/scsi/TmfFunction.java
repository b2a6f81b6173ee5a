package org.rdma.scsi;

/**
 * The task management functions of SAM-5 7 (LIO's {@code TMR_*}). Codes are the fabric's own
 * (iSCSI's Function field, SRP's TSK_MGMT_FUNC), so this enum carries none.
 */
public enum TmfFunction {
    /** 7.2: abort one task, named by its tag. */
    ABORT_TASK,
    /** 7.3: abort the I_T nexus's tasks on a LUN. */
    ABORT_TASK_SET,
    /** 7.4: clear an ACA condition. */
    CLEAR_ACA,
    /** 7.5: abort every task on a LUN, of every nexus. */
    CLEAR_TASK_SET,
    /** 7.6: I_T nexus reset. */
    I_T_NEXUS_RESET,
    /** 7.7: logical unit reset. */
    LOGICAL_UNIT_RESET,
    /** 7.8: whether a task exists. */
    QUERY_TASK,
    /** 7.9: whether the nexus has tasks on a LUN. */
    QUERY_TASK_SET,
    /** 7.10: whether a unit attention or deferred error is pending. */
    QUERY_ASYNCHRONOUS_EVENT,
    /** SAM-2's TARGET RESET (obsolete in SAM-5), still sent by iSCSI (TARGET WARM RESET). */
    TARGET_RESET
}
