package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.rdma.iscsi.login.Link.pairs;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.text.FixedRandom;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.OperationalParameters;

/**
 * Whole logins between {@link InitiatorLogin} and {@link TargetLogin} in memory, through the PDU
 * writer and readers: what goes over the wire in each exchange, what both sides end with, and what
 * the policy was asked in which order.
 */
class LoginTest {
    static final long ISID = 0x00023d000001L;
    /** The initiator's offers, as open-iscsi makes them. */
    static final Map<Key, String> KEYS = Map.ofEntries(
            Map.entry(Key.HEADER_DIGEST, "None"),
            Map.entry(Key.DATA_DIGEST, "None"),
            Map.entry(Key.MAX_CONNECTIONS, "1"),
            Map.entry(Key.INITIAL_R2T, "No"),
            Map.entry(Key.IMMEDIATE_DATA, "Yes"),
            Map.entry(Key.MAX_RECV_DATA_SEGMENT_LENGTH, "262144"),
            Map.entry(Key.MAX_BURST_LENGTH, "16776192"),
            Map.entry(Key.FIRST_BURST_LENGTH, "262144"),
            Map.entry(Key.DEFAULT_TIME2WAIT, "2"),
            Map.entry(Key.DEFAULT_TIME2RETAIN, "0"),
            Map.entry(Key.MAX_OUTSTANDING_R2T, "1"),
            Map.entry(Key.DATA_PDU_IN_ORDER, "Yes"),
            Map.entry(Key.DATA_SEQUENCE_IN_ORDER, "Yes"),
            Map.entry(Key.ERROR_RECOVERY_LEVEL, "0"));
    static final String OFFERS = "[HeaderDigest=None, DataDigest=None, MaxConnections=1, InitialR2T=No, "
            + "ImmediateData=Yes, MaxBurstLength=16776192, FirstBurstLength=262144, DefaultTime2Wait=2, "
            + "DefaultTime2Retain=0, MaxOutstandingR2T=1, DataPDUInOrder=Yes, DataSequenceInOrder=Yes, "
            + "ErrorRecoveryLevel=0, MaxRecvDataSegmentLength=262144]";
    static final String ANSWERS = "[HeaderDigest=None, DataDigest=None, MaxConnections=1, InitialR2T=No, "
            + "ImmediateData=Yes, MaxBurstLength=1048576, FirstBurstLength=262144, DefaultTime2Wait=2, "
            + "DefaultTime2Retain=0, MaxOutstandingR2T=1, DataPDUInOrder=Yes, DataSequenceInOrder=Yes, "
            + "ErrorRecoveryLevel=0, MaxRecvDataSegmentLength=65536]";

    final TestPolicy policy = new TestPolicy();
    final Link link = new Link();
    final TargetLogin target = new TargetLogin(policy, new FixedRandom(), 0x5000);

    static SessionIdentity normal() {
        return new SessionIdentity(ISID, 0, TestPolicy.INITIATOR, TestPolicy.TARGET, SessionType.NORMAL);
    }

    static InitiatorConfig config() {
        return new InitiatorConfig(normal(), null, 1, 0x10, 0x20, 0, KEYS, null, null);
    }

    /** The parameters both sides must end with; {@code recv}/{@code xmit} as the side sees them. */
    static OperationalParameters expected(int recv, int xmit, String authMethod) {
        return new OperationalParameters(false, false, 1, false, true, recv, xmit, 1048576, 262144, 2, 0, 1,
                true, true, 0, false, "RFC3720", 1, TestPolicy.INITIATOR, null, TestPolicy.TARGET, authMethod);
    }

    private List<String> request(int n) {
        return pairs(link.atTarget, link.requests.get(n));
    }

    private List<String> response(int n) {
        return pairs(link.atInitiator, link.responses.get(n));
    }

    private Bhs responseHeader(int n) {
        return Link.read(link.atInitiator, link.responses.get(n)).bhs();
    }

    private void assertBothAgree(InitiatorLogin i, String authMethod) {
        LoginResult t = target.result();
        LoginResult r = i.result();
        assertEquals(expected(65536, 262144, authMethod), t.parameters());
        assertEquals(expected(262144, 65536, authMethod), r.parameters(), "the same values, the lengths mirrored");
        SessionIdentity assigned = normal().withTsih(0x1234);
        assertEquals(assigned, t.session());
        assertEquals(assigned, r.session());
        assertEquals(1, r.targetPortalGroupTag());
        assertEquals("disk target", r.targetAlias());
        assertEquals(new LoginResult(assigned, t.parameters(), 1, 0x20, 0x20 + TestPolicy.DEPTH - 1,
                0x5000 + link.responses.size(), 1, "disk target"), t);
        assertEquals(t.statSn(), r.statSn(), "the next StatSN both expect");
        assertEquals(t.expCmdSn(), r.expCmdSn());
        assertEquals(t.maxCmdSn(), r.maxCmdSn());
    }

    @Test
    void noAuthentication() {
        InitiatorLogin i = new InitiatorLogin(config(), new Random(1));
        assertEquals(LoginState.FULL_FEATURE, link.run(i, target));
        assertEquals(LoginState.FULL_FEATURE, target.state());
        assertEquals(List.of("InitiatorName=" + TestPolicy.INITIATOR, "SessionType=Normal",
                "TargetName=" + TestPolicy.TARGET, "AuthMethod=None"), request(0));
        assertEquals(List.of("AuthMethod=None", "TargetPortalGroupTag=1", "TargetAlias=disk target"), response(0));
        assertEquals(OFFERS, request(1).toString());
        assertEquals(ANSWERS, response(1).toString());
        assertEquals(2, link.responses.size());
        Bhs last = responseHeader(1);
        assertEquals(0x1234, last.tsih(), "the TSIH only in the final response");
        assertEquals(0, responseHeader(0).tsih());
        assertEquals(List.of("findTarget " + TestPolicy.TARGET, "authorize " + TestPolicy.INITIATOR + " "
                + TestPolicy.TARGET + " NORMAL", "checkSession 0", "admit 0"), policy.calls);
        assertBothAgree(i, "None");
    }

    @Test
    void chapOneWay() {
        policy.access.put(TestPolicy.INITIATOR, AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP, null, true));
        InitiatorLogin i = new InitiatorLogin(config().withChap(TestPolicy.INITIATOR_CHAP, null), new Random(1));
        assertEquals(LoginState.FULL_FEATURE, link.run(i, target));
        assertEquals("AuthMethod=CHAP,None", request(0).get(3));
        assertEquals(List.of("AuthMethod=CHAP", "TargetPortalGroupTag=1", "TargetAlias=disk target"), response(0));
        assertEquals(List.of("CHAP_A=5"), request(1));
        assertEquals(List.of("CHAP_A=5", "CHAP_I=42", "CHAP_C=" + FixedRandom.CHALLENGE), response(1));
        // MD5 over identifier 42, "initiatorsecret1" and 00..0f, computed apart
        assertEquals(List.of("CHAP_N=h1user", "CHAP_R=0xa5cd4c4cc5e63021e6da5072644eb7bf"), request(2));
        assertEquals(List.of(), response(2));
        boolean[] transit = {true, false, true, true};
        for (int n = 0; n < 4; n++) {
            assertEquals(transit[n], Link.read(link.atTarget, link.requests.get(n)).bhs().transit(),
                    "T=0 only when asking for the challenge, request " + n);
        }
        int[][] tCsgNsg = {{0, 0, 0}, {0, 0, 0}, {1, 0, 1}, {1, 1, 3}};
        for (int n = 0; n < 4; n++) {
            Bhs h = responseHeader(n);
            assertEquals(List.of(tCsgNsg[n][0] == 1, tCsgNsg[n][1], tCsgNsg[n][2]),
                    List.of(h.transit(), h.csg(), h.nsg()), "response " + n);
        }
        assertEquals("checkSession 0", policy.calls.get(2), "the session is checked after authentication");
        assertBothAgree(i, "CHAP");
    }

    @Test
    void chapMutual() {
        policy.access.put(TestPolicy.INITIATOR, AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP,
                TestPolicy.TARGET_CHAP, false));
        InitiatorLogin i = new InitiatorLogin(config().withChap(TestPolicy.INITIATOR_CHAP, TestPolicy.TARGET_CHAP),
                new Random(9));
        assertEquals(LoginState.FULL_FEATURE, link.run(i, target));
        assertEquals("AuthMethod=CHAP", request(0).get(3), "mutual CHAP offers nothing else");
        List<String> answer = request(2);
        assertEquals(List.of("CHAP_N", "CHAP_R", "CHAP_I", "CHAP_C"),
                answer.stream().map(s -> s.substring(0, s.indexOf('='))).toList());
        List<String> proof = response(2);
        assertEquals("CHAP_N=t1user", proof.get(0));
        assertEquals(2, proof.size());
        assertEquals(List.of(true, 0, 1), List.of(responseHeader(2).transit(), responseHeader(2).csg(),
                responseHeader(2).nsg()), "the target proves itself in the response that leaves the stage");
        assertBothAgree(i, "CHAP");
    }

    @Test
    void wrongChapSecretFailsAtTheTargetWith0201() {
        policy.access.put(TestPolicy.INITIATOR, AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP, null, true));
        InitiatorLogin i = new InitiatorLogin(config().withChap(TestPolicy.cred("h1user", "wrongsecret12"), null),
                new Random(1));
        assertEquals(LoginState.FAILED, link.run(i, target));
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, target.failure().status());
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, i.failure().status());
        assertEquals(List.of("findTarget " + TestPolicy.TARGET, "authorize " + TestPolicy.INITIATOR + " "
                + TestPolicy.TARGET + " NORMAL"), policy.calls, "no session is looked at for an unauthenticated initiator");
    }

    @Test
    void aTargetThatCannotProveItselfFailsAtTheInitiator() {
        policy.access.put(TestPolicy.INITIATOR, AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP,
                TestPolicy.cred("t1user", "anothersecret1"), false));
        InitiatorLogin i = new InitiatorLogin(config().withChap(TestPolicy.INITIATOR_CHAP, TestPolicy.TARGET_CHAP),
                new Random(9));
        assertEquals(LoginState.FAILED, link.run(i, target));
        assertNull(i.failure().status(), "the initiator found the fault itself and closes the connection");
        assertEquals("EPROTO: EACCES: the target's CHAP_N or CHAP_R does not match: it did not prove itself",
                i.failure().reason());
        assertEquals(LoginState.IN_PROGRESS, target.state(), "the target only sees the connection close");
    }

    @Test
    void discoverySession() {
        SessionIdentity id = new SessionIdentity(ISID, 0, TestPolicy.INITIATOR, null, SessionType.DISCOVERY);
        InitiatorLogin i = new InitiatorLogin(InitiatorConfig.of(id, KEYS), new Random(1));
        assertEquals(LoginState.FULL_FEATURE, link.run(i, target));
        assertEquals(List.of("InitiatorName=" + TestPolicy.INITIATOR, "SessionType=Discovery", "AuthMethod=None"),
                request(0));
        assertEquals(List.of("AuthMethod=None"), response(0), "no portal group tag outside a normal session");
        assertEquals("[HeaderDigest=None, DataDigest=None, DefaultTime2Wait=2, DefaultTime2Retain=0, "
                + "ErrorRecoveryLevel=0, MaxRecvDataSegmentLength=262144]", request(1).toString(),
                "the keys irrelevant in discovery are not offered");
        assertEquals(List.of("authorize " + TestPolicy.INITIATOR + " null DISCOVERY", "checkSession 0", "admit 0"),
                policy.calls);
        assertEquals(true, i.result().parameters().discovery());
        assertEquals(true, target.result().parameters().discovery());
        assertEquals(-1, i.result().targetPortalGroupTag());
    }

    @Test
    void redirectionIsReported() {
        policy.targets.put(TestPolicy.TARGET, TargetLookup.moved(new Redirect("10.0.0.2:3260,1", false)));
        InitiatorLogin i = new InitiatorLogin(config(), new Random(1));
        assertEquals(LoginState.REDIRECTED, link.run(i, target));
        assertEquals(new Redirect("10.0.0.2:3260,1", false), i.redirect());
        assertEquals(LoginState.REDIRECTED, target.state());
        assertEquals(List.of("TargetAddress=10.0.0.2:3260,1"), response(0));
        Bhs h = responseHeader(0);
        assertEquals(List.of(1, 1), List.of(h.statusClass(), h.statusDetail()));
        policy.targets.put(TestPolicy.TARGET, TargetLookup.moved(new Redirect("[fe80::1]:3260", true)));
        Link again = new Link();
        InitiatorLogin j = new InitiatorLogin(config(), new Random(1));
        assertEquals(LoginState.REDIRECTED, again.run(j, new TargetLogin(policy, new Random(), 0)));
        assertEquals(new Redirect("[fe80::1]:3260", true), j.redirect());
        assertEquals(LoginStatus.TARGET_MOVED_PERMANENTLY, j.failure().status());
    }

    @Test
    void aSecondConnectionJoinsTheSession() {
        assertEquals(LoginState.FULL_FEATURE, link.run(new InitiatorLogin(config(), new Random(1)), target));
        SessionIdentity joining = normal().withTsih(0x1234);
        InitiatorConfig second = new InitiatorConfig(joining, null, 2, 0x11, 0x21, 0,
                Map.of(Key.HEADER_DIGEST, "CRC32C", Key.MAX_RECV_DATA_SEGMENT_LENGTH, "16384",
                        Key.MAX_BURST_LENGTH, "4096"), null, null);
        Link link2 = new Link();
        TargetLogin t2 = new TargetLogin(policy, new Random(), 0x7000);
        InitiatorLogin i2 = new InitiatorLogin(second, new Random(1));
        assertEquals(LoginState.FULL_FEATURE, link2.run(i2, t2));
        assertEquals("[HeaderDigest=CRC32C, MaxRecvDataSegmentLength=16384]",
                pairs(link2.atTarget, link2.requests.get(1)).toString(), "no leading-only key on a second connection");
        OperationalParameters p = t2.result().parameters();
        assertEquals(true, p.headerDigest());
        assertEquals(16384, p.maxXmitDataSegmentLength());
        assertEquals(1048576, p.maxBurstLength(), "the session's value");
        assertEquals(joining, t2.result().session());
        assertEquals(joining, i2.result().session());
        for (byte[] rsp : link2.responses) {
            assertEquals(0x1234, Link.read(link2.atInitiator, rsp).bhs().tsih());
        }
    }
}
