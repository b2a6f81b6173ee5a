package org.rdma.verbs;

/** Mirrors {@code enum ib_wc_status} and {@code ib_wc_status_msg()}. */
public enum WcStatus {
    SUCCESS("success"), LOC_LEN_ERR("local length error"), LOC_QP_OP_ERR("local QP operation error"),
    LOC_EEC_OP_ERR("local EE context operation error"), LOC_PROT_ERR("local protection error"),
    WR_FLUSH_ERR("WR flushed"), MW_BIND_ERR("memory bind operation error"),
    BAD_RESP_ERR("bad response error"), LOC_ACCESS_ERR("local access error"),
    REM_INV_REQ_ERR("remote invalid request error"), REM_ACCESS_ERR("remote access error"),
    REM_OP_ERR("remote operation error"), RETRY_EXC_ERR("transport retry counter exceeded"),
    RNR_RETRY_EXC_ERR("RNR retry counter exceeded"), LOC_RDD_VIOL_ERR("local RDD violation error"),
    REM_INV_RD_REQ_ERR("remote invalid RD request"), REM_ABORT_ERR("operation aborted"),
    INV_EECN_ERR("invalid EE context number"), INV_EEC_STATE_ERR("invalid EE context state"),
    FATAL_ERR("fatal error"), RESP_TIMEOUT_ERR("response timeout error"),
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
