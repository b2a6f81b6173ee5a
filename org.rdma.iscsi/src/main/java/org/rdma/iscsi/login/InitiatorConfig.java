package org.rdma.iscsi.login;

import java.util.EnumMap;
import java.util.Map;
import org.rdma.iscsi.text.ChapAuthenticator.Credentials;
import org.rdma.iscsi.text.Key;

/**
 * What an {@link InitiatorLogin} asks for (open-iscsi's node record, libiscsi's context): the
 * session's identity (TSIH 0 for a new session, the session's for a connection added to it), the
 * initiator's alias (or null), the connection's CID, the ITT, CmdSN and ExpStatSN its Login
 * Requests carry, the operational keys it offers with its values (RFC 7143 13; the keys absent are
 * left at their defaults, MaxRecvDataSegmentLength is always declared), and CHAP: its own name and
 * secret (null: only AuthMethod=None is offered) and the target's for mutual CHAP (null: one-way).
 * With mutual CHAP only CHAP is offered, so a target cannot skip proving itself.
 */
public record InitiatorConfig(SessionIdentity session, String initiatorAlias, int cid, int itt, int cmdSn,
        int expStatSn, Map<Key, String> keys, Credentials chap, Credentials mutualChap) {

    public InitiatorConfig {
        if (session.initiatorName() == null || session.initiatorName().isEmpty()
                || session.type() == SessionType.NORMAL && session.targetName() == null) {
            throw new IllegalArgumentException("EINVAL: a login needs an initiator name, and a normal session a target name");
        }
        if (mutualChap != null && chap == null) {
            throw new IllegalArgumentException("EINVAL: mutual CHAP without the initiator's own CHAP credentials");
        }
        if (cid < 0 || cid > 0xffff) {
            throw new IllegalArgumentException("EINVAL: CID " + cid);
        }
        keys = Map.copyOf(keys);
    }

    /** A login without CHAP, CID, ITT, CmdSN and ExpStatSN 0. */
    public static InitiatorConfig of(SessionIdentity session, Map<Key, String> keys) {
        return new InitiatorConfig(session, null, 0, 0, 0, 0, keys, null, null);
    }

    /** The same login with CHAP. */
    public InitiatorConfig withChap(Credentials own, Credentials target) {
        return new InitiatorConfig(session, initiatorAlias, cid, itt, cmdSn, expStatSn, keys, own, target);
    }

    /** The keys in {@link Key} order, so that requests do not depend on a map's iteration order. */
    Map<Key, String> orderedKeys() {
        return keys.isEmpty() ? Map.of() : new EnumMap<>(keys);
    }

    /** The AuthMethod offer (RFC 7143 12.1). */
    String authMethods() {
        return chap == null ? "None" : mutualChap != null ? "CHAP" : "CHAP,None";
    }
}
