package org.rdma.iscsi.login;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.text.ChapAuthenticator.Credentials;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.OperationalParameters;

/**
 * A target's configuration and session table for login tests: targets by name, access by initiator
 * name (allowed without authentication unless set), sessions by TSIH; every call is recorded.
 */
final class TestPolicy implements LoginPolicy {
    static final String TARGET = "iqn.2003-01.org.rdma:t1";
    static final String INITIATOR = "iqn.2005-03.org.open-iscsi:h1";
    static final Credentials INITIATOR_CHAP = cred("h1user", "initiatorsecret1");
    static final Credentials TARGET_CHAP = cred("t1user", "targetsecret123");
    /** The target's negotiation values (LIO's TPG parameters). */
    static final Map<Key, String> KEYS = Map.of(
            Key.HEADER_DIGEST, "CRC32C,None",
            Key.DATA_DIGEST, "None",
            Key.MAX_CONNECTIONS, "4",
            Key.INITIAL_R2T, "No",
            Key.IMMEDIATE_DATA, "Yes",
            Key.MAX_RECV_DATA_SEGMENT_LENGTH, "65536",
            Key.MAX_BURST_LENGTH, "1048576",
            Key.FIRST_BURST_LENGTH, "262144",
            Key.MAX_OUTSTANDING_R2T, "8");
    static final int DEPTH = 32;

    final Map<String, TargetLookup> targets = new HashMap<>(Map.of(TARGET, TargetLookup.found(1, "disk target")));
    final Map<String, AccessDecision> access = new HashMap<>();
    AccessDecision discovery = AccessDecision.allow(KEYS);
    final Map<Integer, OperationalParameters> sessions = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    int nextTsih = 0x1234;
    LoginStatus sessionRefusal;
    Admission admission;
    RuntimeException fault;

    static Credentials cred(String name, String secret) {
        return new Credentials(name, secret.getBytes(StandardCharsets.US_ASCII));
    }

    private void call(String c) {
        calls.add(c);
        if (fault != null) {
            throw fault;
        }
    }

    @Override
    public TargetLookup findTarget(String targetName) {
        call("findTarget " + targetName);
        return targets.getOrDefault(targetName, TargetLookup.notFound());
    }

    @Override
    public AccessDecision authorize(String initiatorName, String targetName, SessionType type) {
        call("authorize " + initiatorName + " " + targetName + " " + type);
        return type == SessionType.DISCOVERY ? discovery : access.getOrDefault(initiatorName, AccessDecision.allow(KEYS));
    }

    @Override
    public LoginStatus checkSession(SessionIdentity session, int cid) {
        call("checkSession " + session.tsih());
        if (session.tsih() != 0 && !sessions.containsKey(session.tsih())) {
            return LoginStatus.SESSION_DOES_NOT_EXIST;
        }
        return sessionRefusal;
    }

    @Override
    public Admission admit(LoginResult login) {
        call("admit " + login.session().tsih());
        if (admission != null) {
            return admission;
        }
        int tsih = login.session().tsih();
        if (tsih != 0) {
            return Admission.addConnection(tsih, login.expCmdSn(), login.expCmdSn() + DEPTH - 1, sessions.get(tsih));
        }
        sessions.put(nextTsih, login.parameters());
        return Admission.newSession(nextTsih++, login.expCmdSn(), login.expCmdSn() + DEPTH - 1);
    }
}
