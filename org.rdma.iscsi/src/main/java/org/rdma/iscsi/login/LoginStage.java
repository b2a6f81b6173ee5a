package org.rdma.iscsi.login;

/** The login stages as the CSG and NSG fields of Login PDUs code them (RFC 7143 6.3, 11.12.3). */
public enum LoginStage {
    SECURITY_NEGOTIATION(0),
    LOGIN_OPERATIONAL_NEGOTIATION(1),
    FULL_FEATURE_PHASE(3);

    private final int code;

    LoginStage(int code) {
        this.code = code;
    }

    /** The 2-bit stage code. */
    public int code() {
        return code;
    }

    /** The stage with this code, or null for the reserved code 2 (or anything else). */
    public static LoginStage valueOf(int code) {
        for (LoginStage s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
