package org.rdma.iscsi.login;

import org.rdma.iscsi.pdu.LoginStatus;

/**
 * What {@link LoginPolicy#findTarget} found: the target with its portal group tag and alias, or the
 * login's end (LIO's iscsit_get_tiqn_for_login() and its redirection of a TPG that moved).
 */
public record TargetLookup(LoginStatus status, int targetPortalGroupTag, String targetAlias, Redirect redirect) {

    /** The target serves this portal in group {@code tpgt}; {@code alias} may be null. */
    public static TargetLookup found(int tpgt, String alias) {
        if (tpgt < 0 || tpgt > 0xffff) {
            throw new IllegalArgumentException("EINVAL: portal group tag " + tpgt);
        }
        return new TargetLookup(LoginStatus.SUCCESS, tpgt, alias, null);
    }

    /** No such target (0x0203). */
    public static TargetLookup notFound() {
        return new TargetLookup(LoginStatus.NOT_FOUND, -1, null, null);
    }

    /** The target existed and was removed (0x0204). */
    public static TargetLookup removed() {
        return new TargetLookup(LoginStatus.TARGET_REMOVED, -1, null, null);
    }

    /** The target is served elsewhere (0x0101 or 0x0102 with TargetAddress). */
    public static TargetLookup moved(Redirect redirect) {
        return new TargetLookup(redirect.status(), -1, null, redirect);
    }
}
