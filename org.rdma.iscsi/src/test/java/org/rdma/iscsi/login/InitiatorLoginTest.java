package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.iscsi.login.Link.text;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.text.FixedRandom;

/**
 * The initiator's login against Login Responses written by hand: every way a target's response
 * can be at fault ends the login with a reason and no further request, a refusal reports the
 * target's status, a redirection its TargetAddress; offers of the target are answered.
 */
class InitiatorLoginTest {
    static final String[] ANSWERS = LoginTest.ANSWERS.substring(1, LoginTest.ANSWERS.length() - 1).split(", ");

    final Link link = new Link();
    InitiatorLogin login = new InitiatorLogin(LoginTest.config(), new Random(1));

    InitiatorLoginTest() {
        login.start(link.writer, link.out);
        link.requests.add(link.take());
    }

    /** A Login Response's header for the login of {@link LoginTest#config()}. */
    static Consumer<Bhs> rsp(boolean t, int csg, int nsg) {
        return h -> h.transit(t).csg(csg).nsg(nsg).isid(LoginTest.ISID).itt(0x10).statSn(0x5000).expCmdSn(0x20)
                .maxCmdSn(0x20);
    }

    private LoginState answer(Consumer<Bhs> fields, String... pairs) {
        return answer(fields, text(pairs));
    }

    private LoginState answer(Consumer<Bhs> fields, byte[] t) {
        fields.accept(link.writer.begin(link.out, Opcode.LOGIN_RESPONSE));
        link.writer.finish(t.length == 0 ? null : ByteBuffer.wrap(t));
        byte[] pdu = link.take();
        link.responses.add(pdu);
        PduReader r = Link.read(link.atInitiator, pdu);
        LoginState s = login.receive(r.bhs(), r.data(), link.writer, link.out);
        if (link.out.position() > 0) {
            link.requests.add(link.take());
        }
        return s;
    }

    private Bhs lastRequest() {
        return Link.read(link.atTarget, link.requests.get(link.requests.size() - 1)).bhs();
    }

    private List<String> lastRequestText() {
        return Link.pairs(link.atTarget, link.requests.get(link.requests.size() - 1));
    }

    /** Through the security stage to the operational one. */
    private void secured() {
        assertEquals(LoginState.IN_PROGRESS, answer(rsp(true, 0, 1), "AuthMethod=None", "TargetPortalGroupTag=1"));
    }

    private void assertFault(String reason) {
        assertEquals(LoginState.FAILED, login.state());
        assertNull(login.failure().status(), "the initiator found the fault: it closes the connection");
        assertTrue(login.failure().reason().startsWith("EPROTO: "), login.failure().reason());
        assertTrue(login.failure().reason().contains(reason), login.failure().reason());
        int requests = link.requests.size();
        assertThrows(IllegalStateException.class, () -> answer(rsp(false, 1, 0)));
        assertEquals(requests, link.requests.size(), "no request after a failure");
    }

    private static String[] with(String... more) {
        List<String> l = new ArrayList<>(Arrays.asList(ANSWERS));
        l.addAll(List.of(more));
        return l.toArray(String[]::new);
    }

    private static String[] without(String key) {
        return Arrays.stream(ANSWERS).filter(a -> !a.startsWith(key + "=")).toArray(String[]::new);
    }

    @Test
    void theFinalResponseEndsTheLogin() {
        secured();
        assertEquals(LoginState.FULL_FEATURE, answer(rsp(true, 1, 3).andThen(h -> h.tsih(9)), ANSWERS));
        assertEquals(9, login.result().session().tsih());
        assertEquals(0x5001, login.result().statSn());
    }

    // ------------------------------------------------------------------ answers

    @Test
    void aValueOutsideTheOfferFails() {
        secured();
        String[] answers = with();
        answers[5] = "MaxBurstLength=16777215";
        answer(rsp(true, 1, 3).andThen(h -> h.tsih(9)), answers);
        assertFault("MaxBurstLength=16777215 does not answer the offer 16776192");
    }

    @Test
    void aListAnswerNeverOfferedFails() {
        answer(rsp(true, 0, 1), "AuthMethod=CHAP");
        assertFault("AuthMethod=CHAP does not answer the offer None");
    }

    @Test
    void aMissingAnswerFailsWhenTheTargetEndsTheStage() {
        secured();
        answer(rsp(true, 1, 3).andThen(h -> h.tsih(9)), without("MaxOutstandingR2T"));
        assertFault("without answering MaxOutstandingR2T");
    }

    @Test
    void noAnswerToAuthMethodFailsWhenTheTargetLeavesTheSecurityStage() {
        answer(rsp(true, 0, 1), "TargetPortalGroupTag=1");
        assertFault("without answering AuthMethod=None");
    }

    @Test
    void anAnswerToAKeyNeverOfferedFails() {
        answer(rsp(false, 0, 0), "AuthMethod=None", "MaxConnections=Reject");
        assertFault("MaxConnections=Reject answers a key this side never offered");
    }

    @Test
    void aKeyOnlyAnInitiatorSendsFails() {
        answer(rsp(false, 0, 0), "AuthMethod=None", "InitiatorName=iqn.x");
        assertFault("only the initiator sends InitiatorName");
    }

    @Test
    void aTargetsOwnOfferIsAnsweredInTheNextRequest() {
        secured();
        assertEquals(LoginState.IN_PROGRESS, answer(rsp(false, 1, 0), with("iSCSIProtocolLevel=2")));
        assertEquals(List.of("iSCSIProtocolLevel=1"), lastRequestText());
        assertEquals(List.of(true, 1, 3), List.of(lastRequest().transit(), lastRequest().csg(), lastRequest().nsg()));
        assertEquals(LoginState.FULL_FEATURE, answer(rsp(true, 1, 3).andThen(h -> h.tsih(9))));
        assertEquals(1, login.result().parameters().iscsiProtocolLevel());
    }

    @Test
    void anOfferInTheFinalResponseFails() {
        secured();
        answer(rsp(true, 1, 3).andThen(h -> h.tsih(9)), with("iSCSIProtocolLevel=2"));
        assertFault("the final response asks for answers: [iSCSIProtocolLevel=1]");
    }

    // ------------------------------------------------------------------ refusals and redirections

    @Test
    void theTargetsStatusIsReported() {
        answer(h -> rsp(false, 0, 0).accept(h.statusClass(2).statusDetail(2)));
        assertEquals(LoginState.FAILED, login.state());
        assertEquals(LoginStatus.AUTHORIZATION_FAILURE, login.failure().status());
        assertEquals("the target refused the login with 0x0202 AUTHORIZATION_FAILURE", login.failure().reason());
        login = new InitiatorLogin(LoginTest.config(), new Random(1));
        login.start(link.writer, link.out);
        link.take();
        answer(h -> rsp(false, 0, 0).accept(h.statusClass(3).statusDetail(0x77)));
        assertEquals(LoginStatus.TARGET_ERROR, login.failure().status(), "an unknown detail keeps its class");
        assertTrue(login.failure().reason().contains("0x0377"));
    }

    @Test
    void aRedirectionIsReportedWithItsAddress() {
        assertEquals(LoginState.REDIRECTED, answer(h -> rsp(false, 0, 0).accept(h.statusClass(1).statusDetail(1)),
                "TargetAddress=192.0.2.7:3261,2"));
        assertEquals(new Redirect("192.0.2.7:3261,2", false), login.redirect());
        assertEquals(LoginStatus.TARGET_MOVED_TEMPORARILY, login.failure().status());
    }

    @Test
    void aRedirectionWithoutAddressFails() {
        answer(h -> rsp(false, 0, 0).accept(h.statusClass(1).statusDetail(2)));
        assertFault("redirection 0x0102 without a TargetAddress");
    }

    // ------------------------------------------------------------------ header faults

    @Test
    void headerFaults() {
        List<Consumer<Bhs>> faults = List.of(
                rsp(false, 0, 0).andThen(h -> h.itt(0x11)),
                rsp(false, 0, 0).andThen(h -> h.isid(1)),
                rsp(false, 1, 0),
                rsp(true, 0, 3),
                rsp(true, 0, 1).andThen(h -> h.continueBit(true)),
                rsp(false, 0, 0).andThen(h -> h.tsih(3)),
                rsp(false, 0, 0).andThen(h -> h.versionActive(1)));
        String[] reasons = {"ITT 0x00000011", "ISID 0x000000000001", "CSG 1 answering stage SECURITY_NEGOTIATION",
            "T with NSG 3 answering NSG 1", "T with NSG 1 and C", "TSIH 3 in a login with TSIH 0", "Version-active 1"};
        for (int n = 0; n < faults.size(); n++) {
            login = new InitiatorLogin(LoginTest.config(), new Random(1));
            login.start(link.writer, link.out);
            link.take();
            answer(faults.get(n), "AuthMethod=None");
            assertFault(reasons[n]);
        }
    }

    @Test
    void theFinalResponseOfANewSessionMustAssignATsih() {
        secured();
        answer(rsp(true, 1, 3), ANSWERS);
        assertFault("TSIH 0 in the final response of a new session");
    }

    @Test
    void anotherPduDuringLoginFails() {
        link.writer.begin(link.out, Opcode.REJECT).itt(Bhs.RESERVED_TAG).reason(4);
        link.writer.finish(ByteBuffer.wrap(new byte[48]));
        PduReader r = Link.read(link.atInitiator, link.take());
        assertEquals(LoginState.FAILED, login.receive(r.bhs(), r.data(), link.writer, link.out));
        assertFault("opcode 0x3f during login");
    }

    @Test
    void endlessResponsesFail() {
        secured();
        int responses = 1;
        LoginState s;
        do {
            s = answer(rsp(false, 1, 0));
            responses++;
        } while (s == LoginState.IN_PROGRESS);
        assertEquals(InitiatorLogin.MAX_RESPONSES + 1, responses, "the response beyond the bound fails");
        assertFault("more than 128 Login Responses");
    }

    // ------------------------------------------------------------------ continuation and CHAP

    @Test
    void aResponseWithCIsAcknowledgedWithAnEmptyRequest() {
        byte[] whole = text("AuthMethod=None", "TargetPortalGroupTag=1");
        answer(rsp(false, 0, 0).andThen(h -> h.continueBit(true)), Arrays.copyOf(whole, 9));
        Bhs ack = lastRequest();
        assertEquals(List.of(0, true, 1, 0, 0x5001), List.of(ack.dataSegmentLength(), ack.transit(), ack.nsg(),
                ack.csg(), ack.expStatSn()), "an empty request repeating T and NSG, acknowledging the StatSN");
        assertEquals(LoginState.IN_PROGRESS, answer(rsp(true, 0, 1).andThen(h -> h.statSn(0x5001)),
                Arrays.copyOfRange(whole, 9, whole.length)));
        assertEquals(1, lastRequest().csg(), "the text cut inside a key was joined and the stage ended");
        assertEquals(LoginTest.OFFERS, lastRequestText().toString());
    }

    private void chapLogin() {
        login = new InitiatorLogin(LoginTest.config().withChap(TestPolicy.INITIATOR_CHAP, null), new FixedRandom());
        login.start(link.writer, link.out);
        link.take();
    }

    @Test
    void chapKeysWhenNoneWasChosenFail() {
        chapLogin();
        answer(rsp(false, 0, 0), "AuthMethod=None", "CHAP_A=5");
        assertFault("CHAP keys [CHAP_A] before the CHAP exchange");
    }

    @Test
    void leavingTheSecurityStageBeforeChapFails() {
        chapLogin();
        answer(rsp(true, 0, 1), "AuthMethod=CHAP");
        assertFault("the target left the security stage before CHAP ended");
    }

    @Test
    void aRefusedAuthMethodFails() {
        answer(rsp(true, 0, 1), "AuthMethod=Reject");
        assertFault("the target refused AuthMethod=None");
    }

    @Test
    void aChallengeWithAnotherAlgorithmFails() {
        chapLogin();
        answer(rsp(false, 0, 0), "AuthMethod=CHAP");
        assertEquals(List.of("CHAP_A=5"), lastRequestText());
        assertEquals(false, lastRequest().transit(), "T=0 while asking for the challenge");
        answer(rsp(false, 0, 0), "CHAP_A=7", "CHAP_I=1", "CHAP_C=0x0102");
        assertFault("the target chose CHAP_A=7, not MD5 (5)");
    }
}
