package org.rdma.target.fabric;

/**
 * The CHAP secrets of a login (LIO's {@code struct iscsi_node_auth}): what the initiator must
 * answer with, and, for mutual CHAP, what the target answers the initiator's challenge with.
 *
 * @param userid the name the initiator sends (CHAP_N)
 * @param password the secret the initiator proves
 * @param mutualUserid the name the target sends back; empty for one-way CHAP
 * @param mutualPassword the secret the target proves; empty for one-way CHAP
 */
public record ChapCredentials(String userid, String password, String mutualUserid, String mutualPassword) {
    /** No secret set: CHAP cannot succeed. */
    public static final ChapCredentials NONE = new ChapCredentials("", "", "", "");

    /** Whether one-way CHAP can succeed (both the userid and the password are set). */
    public boolean isSet() {
        return !userid.isEmpty() && !password.isEmpty();
    }

    /** Whether the target authenticates itself too (LIO's {@code authenticate_target}). */
    public boolean mutual() {
        return !mutualUserid.isEmpty() && !mutualPassword.isEmpty();
    }

    /** Keeps the secrets out of logs. */
    @Override
    public String toString() {
        return "ChapCredentials[userid=" + userid + (mutual() ? ", mutual userid=" + mutualUserid : "") + "]";
    }
}
