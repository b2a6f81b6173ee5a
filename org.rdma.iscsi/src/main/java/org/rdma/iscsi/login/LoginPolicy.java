package org.rdma.iscsi.login;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.iscsi.pdu.LoginStatus;

/**
 * The target's decisions a {@link TargetLogin} asks for, so that it owns neither the configuration
 * nor the session table: LIO's iscsit_get_tiqn_for_login(), core_tpg_check_initiator_node_acl() with
 * iscsi_get_node_auth(), and iscsi_login_zero_tsih_s1()/iscsi_login_non_zero_tsih_s1(). Called on
 * the thread that drives the login; an exception thrown here fails the login with 0x0300 (target error).
 */
@ConsumerType
public interface LoginPolicy {

    /** The target a normal session names (RFC 7143 13.4): found, not found, removed or moved. */
    TargetLookup findTarget(String targetName);

    /**
     * Whether {@code initiatorName} may open a session of {@code type} on {@code targetName} (null in
     * a discovery session), how it must authenticate, and the values this side negotiates with.
     */
    AccessDecision authorize(String initiatorName, String targetName, SessionType type);

    /**
     * Checked once the initiator is authenticated (never before, so a forged ISID/TSIH learns
     * nothing): a non-zero TSIH must name a session of this initiator ({@link
     * LoginStatus#SESSION_DOES_NOT_EXIST} otherwise), and the target may refuse more sessions.
     *
     * @return null to go on, or the status the login fails with
     */
    LoginStatus checkSession(SessionIdentity session, int cid);

    /**
     * Commits the login just before the final response: a new session (TSIH 0 in {@code login})
     * gets its TSIH and command window, a connection joins its session. What the policy did here
     * holds once it returns an admission; nothing before this call needs undoing when a login fails.
     */
    Admission admit(LoginResult login);
}
