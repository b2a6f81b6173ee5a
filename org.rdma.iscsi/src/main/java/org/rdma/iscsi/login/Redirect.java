package org.rdma.iscsi.login;

import org.rdma.iscsi.pdu.LoginStatus;

/**
 * A redirection (RFC 7143 11.13.5, Status-Class 1): the TargetAddress the initiator should log in
 * to instead ({@code domainname[:port][,portal-group-tag]}, 13.8), temporarily or for good.
 */
public record Redirect(String targetAddress, boolean permanent) {

    public Redirect {
        if (targetAddress == null || targetAddress.isEmpty()) {
            throw new IllegalArgumentException("EINVAL: a redirection needs a TargetAddress");
        }
    }

    /** 0x0102 for a permanent move, 0x0101 for a temporary one. */
    public LoginStatus status() {
        return permanent ? LoginStatus.TARGET_MOVED_PERMANENTLY : LoginStatus.TARGET_MOVED_TEMPORARILY;
    }
}
