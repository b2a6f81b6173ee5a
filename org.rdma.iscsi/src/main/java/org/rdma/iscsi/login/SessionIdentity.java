package org.rdma.iscsi.login;

/**
 * Who a session is (RFC 7143 4.4.1, 11.12.6-7): the initiator's ISID and the target's TSIH (0 until
 * the final Login Response of a new session assigns one), the two node names and the session type.
 * The target name is null in a discovery session that does not give one.
 */
public record SessionIdentity(long isid, int tsih, String initiatorName, String targetName, SessionType type) {

    public SessionIdentity {
        if ((isid & ~0xffffffffffffL) != 0 || tsih < 0 || tsih > 0xffff) {
            throw new IllegalArgumentException(String.format("EINVAL: ISID 0x%x or TSIH %d out of range", isid, tsih));
        }
    }

    /** The same identity with the TSIH the target assigned. */
    public SessionIdentity withTsih(int assigned) {
        return new SessionIdentity(isid, assigned, initiatorName, targetName, type);
    }
}
