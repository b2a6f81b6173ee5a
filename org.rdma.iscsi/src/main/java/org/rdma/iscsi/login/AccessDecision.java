package org.rdma.iscsi.login;

import java.util.Map;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.text.ChapAuthenticator.Credentials;
import org.rdma.iscsi.text.Key;

/**
 * The answer of {@link LoginPolicy#authorize}: refused with a status (0x0202 when an ACL denies the
 * initiator, 0x0209 for a session type the portal does not serve), or allowed with the values the
 * target negotiates with (LIO's TPG parameter list) and its authentication: whether CHAP must be
 * used, the initiator's CHAP name and secret (null: CHAP is not offered), and the target's own for
 * mutual CHAP (null: mutual CHAP is refused).
 */
public record AccessDecision(LoginStatus refusal, Map<Key, String> keys, boolean authenticationRequired,
        Credentials chap, Credentials mutualChap) {

    public AccessDecision {
        keys = Map.copyOf(keys);
        if (authenticationRequired && chap == null) {
            throw new IllegalArgumentException("EINVAL: authentication required without CHAP credentials");
        }
    }

    /** The login fails with {@code status}. */
    public static AccessDecision refuse(LoginStatus status) {
        return new AccessDecision(status, Map.of(), false, null, null);
    }

    /** Allowed without authentication. */
    public static AccessDecision allow(Map<Key, String> keys) {
        return new AccessDecision(null, keys, false, null, null);
    }

    /** Allowed with CHAP, required or offered beside None. */
    public static AccessDecision chap(Map<Key, String> keys, Credentials chap, Credentials mutualChap,
            boolean required) {
        return new AccessDecision(null, keys, required, chap, mutualChap);
    }

    /** The AuthMethod values the target accepts (RFC 7143 12.1): CHAP, None or both. */
    String authMethods() {
        return chap == null ? "None" : authenticationRequired ? "CHAP" : "CHAP,None";
    }
}
