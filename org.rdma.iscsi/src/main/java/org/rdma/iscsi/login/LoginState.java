package org.rdma.iscsi.login;

/** Where a login stands after a PDU (LIO's return codes of iscsi_target_do_login()). */
public enum LoginState {
    /** More Login PDUs are due. */
    IN_PROGRESS,
    /** The final Login Response passed: the connection is in the full feature phase. */
    FULL_FEATURE,
    /** The target answered with a redirection (Status-Class 1); the connection closes. */
    REDIRECTED,
    /** The login failed; the target has sent its last response, the connection closes. */
    FAILED
}
