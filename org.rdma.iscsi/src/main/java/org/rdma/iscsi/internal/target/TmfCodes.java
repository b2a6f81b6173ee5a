package org.rdma.iscsi.internal.target;

import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;

/**
 * iSCSI's Task Management Function codes (RFC 7143 11.5.1, RFC 7144 for the QUERY functions and
 * I_T NEXUS RESET) and response codes (RFC 7143 11.6.1, RFC 7144 for "Function succeeded") to and
 * from SAM-5 (LIO's {@code iscsit_convert_tmr_op()} and {@code iscsit_convert_tcm_tmr_rsp()}).
 */
final class TmfCodes {
    static final int ABORT_TASK = 1;
    static final int ABORT_TASK_SET = 2;
    static final int CLEAR_ACA = 3;
    static final int CLEAR_TASK_SET = 4;
    static final int LOGICAL_UNIT_RESET = 5;
    static final int TARGET_WARM_RESET = 6;
    static final int TARGET_COLD_RESET = 7;
    static final int TASK_REASSIGN = 8;
    static final int QUERY_TASK = 9;
    static final int QUERY_TASK_SET = 10;
    static final int I_T_NEXUS_RESET = 11;
    static final int QUERY_ASYNCHRONOUS_EVENT = 12;

    static final int FUNCTION_COMPLETE = 0;
    static final int TASK_DOES_NOT_EXIST = 1;
    static final int LUN_DOES_NOT_EXIST = 2;
    static final int TASK_STILL_ALLEGIANT = 3;
    static final int REASSIGNMENT_NOT_SUPPORTED = 4;
    static final int NOT_SUPPORTED = 5;
    static final int AUTHORIZATION_FAILED = 6;
    static final int FUNCTION_SUCCEEDED = 7;
    static final int FUNCTION_REJECTED = 255;

    private TmfCodes() {
    }

    /** The SAM-5 function of a code, or null (TASK REASSIGN and unknown codes). */
    static TmfFunction function(int code) {
        return switch (code) {
            case ABORT_TASK -> TmfFunction.ABORT_TASK;
            case ABORT_TASK_SET -> TmfFunction.ABORT_TASK_SET;
            case CLEAR_ACA -> TmfFunction.CLEAR_ACA;
            case CLEAR_TASK_SET -> TmfFunction.CLEAR_TASK_SET;
            case LOGICAL_UNIT_RESET -> TmfFunction.LOGICAL_UNIT_RESET;
            case TARGET_WARM_RESET, TARGET_COLD_RESET -> TmfFunction.TARGET_RESET;
            case QUERY_TASK -> TmfFunction.QUERY_TASK;
            case QUERY_TASK_SET -> TmfFunction.QUERY_TASK_SET;
            case I_T_NEXUS_RESET -> TmfFunction.I_T_NEXUS_RESET;
            case QUERY_ASYNCHRONOUS_EVENT -> TmfFunction.QUERY_ASYNCHRONOUS_EVENT;
            default -> null;
        };
    }

    /** The Response field for a SAM-5 service response. */
    static int response(TmfResponse r) {
        return switch (r) {
            case FUNCTION_COMPLETE -> FUNCTION_COMPLETE;
            case FUNCTION_SUCCEEDED -> FUNCTION_SUCCEEDED;
            case TASK_DOES_NOT_EXIST -> TASK_DOES_NOT_EXIST;
            case INCORRECT_LOGICAL_UNIT_NUMBER -> LUN_DOES_NOT_EXIST;
            case FUNCTION_NOT_SUPPORTED -> NOT_SUPPORTED;
            case FUNCTION_REJECTED, SERVICE_DELIVERY_OR_TARGET_FAILURE -> FUNCTION_REJECTED;
        };
    }
}
