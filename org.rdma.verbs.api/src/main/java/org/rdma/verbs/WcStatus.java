package org.rdma.verbs;

/** Mirrors {@code enum ib_wc_status} and {@code ib_wc_status_msg()}. */
public enum WcStatus {
    /** {@code IB_WC_SUCCESS}. */
    SUCCESS("success"),
    /** {@code IB_WC_LOC_LEN_ERR}. */
    LOC_LEN_ERR("local length error"),
    /** {@code IB_WC_LOC_QP_OP_ERR}. */
    LOC_QP_OP_ERR("local QP operation error"),
    /** {@code IB_WC_LOC_EEC_OP_ERR}. */
    LOC_EEC_OP_ERR("local EE context operation error"),
    /** {@code IB_WC_LOC_PROT_ERR}. */
    LOC_PROT_ERR("local protection error"),
    /** {@code IB_WC_WR_FLUSH_ERR}. */
    WR_FLUSH_ERR("WR flushed"),
    /** {@code IB_WC_MW_BIND_ERR}. */
    MW_BIND_ERR("memory bind operation error"),
    /** {@code IB_WC_BAD_RESP_ERR}. */
    BAD_RESP_ERR("bad response error"),
    /** {@code IB_WC_LOC_ACCESS_ERR}. */
    LOC_ACCESS_ERR("local access error"),
    /** {@code IB_WC_REM_INV_REQ_ERR}. */
    REM_INV_REQ_ERR("remote invalid request error"),
    /** {@code IB_WC_REM_ACCESS_ERR}. */
    REM_ACCESS_ERR("remote access error"),
    /** {@code IB_WC_REM_OP_ERR}. */
    REM_OP_ERR("remote operation error"),
    /** {@code IB_WC_RETRY_EXC_ERR}. */
    RETRY_EXC_ERR("transport retry counter exceeded"),
    /** {@code IB_WC_RNR_RETRY_EXC_ERR}. */
    RNR_RETRY_EXC_ERR("RNR retry counter exceeded"),
    /** {@code IB_WC_LOC_RDD_VIOL_ERR}. */
    LOC_RDD_VIOL_ERR("local RDD violation error"),
    /** {@code IB_WC_REM_INV_RD_REQ_ERR}. */
    REM_INV_RD_REQ_ERR("remote invalid RD request"),
    /** {@code IB_WC_REM_ABORT_ERR}. */
    REM_ABORT_ERR("operation aborted"),
    /** {@code IB_WC_INV_EECN_ERR}. */
    INV_EECN_ERR("invalid EE context number"),
    /** {@code IB_WC_INV_EEC_STATE_ERR}. */
    INV_EEC_STATE_ERR("invalid EE context state"),
    /** {@code IB_WC_FATAL_ERR}. */
    FATAL_ERR("fatal error"),
    /** {@code IB_WC_RESP_TIMEOUT_ERR}. */
    RESP_TIMEOUT_ERR("response timeout error"),
    /** {@code IB_WC_GENERAL_ERR}. */
    GENERAL_ERR("general error");

    private final String message;

    WcStatus(String message) {
        this.message = message;
    }

    /** The text {@code ib_wc_status_msg()} returns. */
    public String message() {
        return message;
    }
}
