package org.rdma.iscsi.login;

/** The SessionType key's values (RFC 7143 13.21); Normal is the default. */
public enum SessionType {
    DISCOVERY("Discovery"),
    NORMAL("Normal");

    private final String keyValue;

    SessionType(String keyValue) {
        this.keyValue = keyValue;
    }

    /** The value as the SessionType key carries it. */
    public String keyValue() {
        return keyValue;
    }

    /** The type a SessionType value names, or null. */
    public static SessionType of(String keyValue) {
        for (SessionType t : values()) {
            if (t.keyValue.equals(keyValue)) {
                return t;
            }
        }
        return null;
    }
}
