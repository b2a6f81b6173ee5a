package org.rdma.iscsi.login;

import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.text.OperationalParameters;

/**
 * The answer of {@link LoginPolicy#admit}: refused with a status (0x0302 out of resources, 0x0206
 * too many connections, 0x020A when the session went away meanwhile), or admitted with the TSIH and
 * the command window the final Login Response carries; a connection that joins a session also
 * gets the session's parameters, of which its own login negotiated only the connection's keys.
 */
public record Admission(LoginStatus refusal, int tsih, int expCmdSn, int maxCmdSn,
        OperationalParameters sessionParameters) {

    /** The login fails with {@code status}. */
    public static Admission refuse(LoginStatus status) {
        return new Admission(status, 0, 0, 0, null);
    }

    /** A new session with the non-zero {@code tsih}. */
    public static Admission newSession(int tsih, int expCmdSn, int maxCmdSn) {
        return new Admission(null, tsih, expCmdSn, maxCmdSn, null);
    }

    /** A connection added to session {@code tsih}, whose parameters are {@code session}. */
    public static Admission addConnection(int tsih, int expCmdSn, int maxCmdSn, OperationalParameters session) {
        return new Admission(null, tsih, expCmdSn, maxCmdSn, session);
    }
}
