package org.rdma.iscsi.login;

import org.rdma.iscsi.pdu.LoginStatus;

/**
 * Why a login failed: the status the target sent (RFC 7143 11.13.5), or null when the initiator
 * itself found the target's response at fault and closes the connection; and a reason for logs.
 */
public record LoginFailure(LoginStatus status, String reason) {
}
