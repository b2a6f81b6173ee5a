package org.rdma.iscsi.login;

import org.rdma.iscsi.text.OperationalParameters;

/**
 * What a login established (the state LIO's iscsi_post_login_handler() takes over): the session's
 * identity with its TSIH, the negotiated parameters, the connection's CID, the command window of
 * the final response (ExpCmdSN, MaxCmdSN), the StatSN of the next response on this connection,
 * and the target's declarations (TargetPortalGroupTag, -1 when not declared; TargetAlias or null).
 */
public record LoginResult(SessionIdentity session, OperationalParameters parameters, int cid, int expCmdSn,
        int maxCmdSn, int statSn, int targetPortalGroupTag, String targetAlias) {
}
