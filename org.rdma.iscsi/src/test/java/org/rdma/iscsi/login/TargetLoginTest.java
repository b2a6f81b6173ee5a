package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.iscsi.login.Link.hex;
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
import org.rdma.iscsi.text.TextAssembler;

/**
 * The target's login with Login Requests written by hand: every failure's Status-Class and
 * Status-Detail as the bytes 36-37 of the response carry them, the T/C/CSG/NSG rules, C-bit
 * continuation both ways, and the StatSN/ExpCmdSN/MaxCmdSN the responses carry.
 */
class TargetLoginTest {
    static final long ISID = 0x00023d000001L;
    static final String NAME = "InitiatorName=" + TestPolicy.INITIATOR;
    static final String TARGET = "TargetName=" + TestPolicy.TARGET;

    final TestPolicy policy = new TestPolicy();
    final Link link = new Link();
    final TargetLogin target = new TargetLogin(policy, new FixedRandom(), 0x5000);

    /** A Login Request's header: ISID, TSIH 0, ITT 0x10, CID 1, CmdSN 0x20, versions 0. */
    static Consumer<Bhs> login(boolean t, int csg, int nsg) {
        return h -> h.transit(t).csg(csg).nsg(nsg).isid(ISID).itt(0x10).cid(1).cmdSn(0x20);
    }

    private LoginState send(Consumer<Bhs> fields, String... pairs) {
        return link.send(target, fields, text(pairs));
    }

    /** The first request of a normal session, in the security stage asking for the operational one. */
    private LoginState hello(String... more) {
        List<String> pairs = new ArrayList<>(List.of(NAME, "SessionType=Normal", TARGET));
        pairs.addAll(List.of(more));
        return send(login(true, 0, 1), pairs.toArray(String[]::new));
    }

    private byte[] last() {
        return link.responses.get(link.responses.size() - 1);
    }

    /** Bytes 36-37 of the last response: Status-Class and Status-Detail. */
    private String status() {
        return hex(Arrays.copyOfRange(last(), 36, 38));
    }

    private void assertFailed(String statusBytes, LoginStatus status) {
        assertEquals(statusBytes, status());
        assertEquals(LoginState.FAILED, target.state());
        assertEquals(status, target.failure().status());
        Bhs h = link.lastResponse();
        assertEquals(Opcode.LOGIN_RESPONSE, h.opcode());
        assertFalse(h.transit(), "a failure never transits");
        assertEquals(0, h.dataSegmentLength(), "a failure carries no text");
        assertEquals(0x10, h.itt());
        assertThrows(IllegalStateException.class, () -> send(login(false, 0, 0), NAME));
    }

    // ------------------------------------------------------------------ version, header and flags

    @Test
    void unsupportedVersionIs0205WithVersionActive0() {
        assertEquals(LoginState.FAILED, send(login(true, 0, 1).andThen(h -> h.versionMax(2).versionMin(1)), NAME));
        assertFailed("02 05", LoginStatus.UNSUPPORTED_VERSION);
        assertEquals("23 00 00 00 00 00 00 00 00 02 3d 00 00 01 00 00 00 00 00 10 00 00 00 00 00 00 50 00 "
                + "00 00 00 20 00 00 00 20 02 05 00 00 00 00 00 00 00 00 00 00", hex(last()),
                "Login Response: T=0 CSG=0, Version-max 0, Version-active 0, ISID, TSIH 0, ITT, StatSN 0x5000,"
                        + " ExpCmdSN = MaxCmdSN = CmdSN, 0x0205");
    }

    @Test
    void headerFieldsThatChangeDuringTheLoginAre0200() {
        String[] what = {"Version-max", "ISID", "TSIH", "CID", "CSG"};
        List<Consumer<Bhs>> changes = List.of(h -> h.versionMax(1), h -> h.isid(ISID + 1), h -> h.tsih(7),
                h -> h.cid(2), h -> h.csg(1));
        for (int n = 0; n < what.length; n++) {
            TargetLogin t = new TargetLogin(policy, new Random(), 0);
            link.send(t, login(false, 0, 0), text(NAME, TARGET));
            assertEquals(LoginState.FAILED, link.send(t, login(false, 0, 0).andThen(changes.get(n)), text()), what[n]);
            assertEquals("02 00", status(), what[n]);
            assertTrue(t.failure().reason().contains(what[n]), t.failure().reason());
        }
    }

    @Test
    void badStageFlagsAre0200() {
        List<Consumer<Bhs>> bad = List.of(
                login(true, 0, 1).andThen(h -> h.continueBit(true)),
                login(true, 0, 0),
                login(true, 0, 2),
                login(false, 3, 0),
                login(false, 2, 0));
        for (Consumer<Bhs> b : bad) {
            TargetLogin t = new TargetLogin(policy, new Random(), 0);
            assertEquals(LoginState.FAILED, link.send(t, b, text(NAME, TARGET)));
            assertEquals("02 00", status());
        }
        hello("AuthMethod=None");
        assertEquals(LoginState.FAILED, send(login(true, 1, 1)), "T to the stage it is in");
        assertFailed("02 00", LoginStatus.INITIATOR_ERROR);
    }

    @Test
    void anythingButALoginRequestIs020B() {
        link.writer.begin(link.out, Opcode.NOP_OUT).itt(0x10).ttt(Bhs.RESERVED_TAG);
        link.writer.finish(null);
        PduReader r = Link.read(link.atTarget, link.take());
        assertEquals(LoginState.FAILED, target.receive(r.bhs(), r.data(), link.writer, link.out));
        link.responses.add(link.take());
        assertFailed("02 0b", LoginStatus.INVALID_DURING_LOGIN);
        TargetLogin t = new TargetLogin(policy, new Random(), 0);
        link.send(t, login(false, 0, 0), text(NAME, TARGET));
        link.writer.begin(link.out, Opcode.TEXT_REQUEST).finalBit(true).itt(0x11).ttt(Bhs.RESERVED_TAG);
        link.writer.finish(ByteBuffer.wrap(text("SendTargets=All")));
        r = Link.read(link.atTarget, link.take());
        assertEquals(LoginState.FAILED, t.receive(r.bhs(), r.data(), link.writer, link.out));
        assertEquals("02 0b", hex(Arrays.copyOfRange(link.take(), 36, 38)), "in the middle of a login too");
    }

    // ------------------------------------------------------------------ the first request's keys

    @Test
    void noInitiatorNameIs0207() {
        assertEquals(LoginState.FAILED, send(login(true, 0, 1), "SessionType=Normal", TARGET));
        assertFailed("02 07", LoginStatus.MISSING_PARAMETER);
        assertEquals(List.of(), policy.calls);
    }

    @Test
    void noTargetNameInANormalSessionIs0207() {
        assertEquals(LoginState.FAILED, send(login(true, 0, 1), NAME, "AuthMethod=None"));
        assertFailed("02 07", LoginStatus.MISSING_PARAMETER);
    }

    @Test
    void unknownSessionTypeIs0209() {
        assertEquals(LoginState.FAILED, send(login(true, 0, 1), NAME, "SessionType=Bogus", TARGET));
        assertFailed("02 09", LoginStatus.SESSION_TYPE_NOT_SUPPORTED);
    }

    @Test
    void aPortalWithoutDiscoveryIs0209() {
        policy.discovery = AccessDecision.refuse(LoginStatus.SESSION_TYPE_NOT_SUPPORTED);
        assertEquals(LoginState.FAILED, send(login(true, 0, 1), NAME, "SessionType=Discovery"));
        assertFailed("02 09", LoginStatus.SESSION_TYPE_NOT_SUPPORTED);
    }

    @Test
    void unknownTargetIs0203() {
        assertEquals(LoginState.FAILED, send(login(true, 0, 1), NAME, "TargetName=iqn.2003-01.org.rdma:nope"));
        assertFailed("02 03", LoginStatus.NOT_FOUND);
    }

    @Test
    void removedTargetIs0204() {
        policy.targets.put(TestPolicy.TARGET, TargetLookup.removed());
        assertEquals(LoginState.FAILED, hello());
        assertFailed("02 04", LoginStatus.TARGET_REMOVED);
    }

    @Test
    void anInitiatorTheAclDeniesIs0202() {
        policy.access.put(TestPolicy.INITIATOR, AccessDecision.refuse(LoginStatus.AUTHORIZATION_FAILURE));
        assertEquals(LoginState.FAILED, hello("AuthMethod=None"));
        assertFailed("02 02", LoginStatus.AUTHORIZATION_FAILURE);
    }

    @Test
    void aRedirectionCarriesTheTargetAddress() {
        policy.targets.put(TestPolicy.TARGET, TargetLookup.moved(new Redirect("10.0.0.2:3260,1", true)));
        assertEquals(LoginState.REDIRECTED, hello());
        assertEquals("01 02", status());
        assertEquals(new Redirect("10.0.0.2:3260,1", true), target.redirect());
        assertEquals(List.of("TargetAddress=10.0.0.2:3260,1"), Link.pairs(link.atInitiator, last()));
    }

    // ------------------------------------------------------------------ authentication

    private void requireChap() {
        policy.access.put(TestPolicy.INITIATOR,
                AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP, null, true));
    }

    @Test
    void onlyNoneOfferedWhileCHAPIsRequiredIs0201() {
        requireChap();
        assertEquals(LoginState.FAILED, hello("AuthMethod=None"));
        assertFailed("02 01", LoginStatus.AUTHENTICATION_FAILURE);
    }

    @Test
    void skippingTheSecurityStageWhileCHAPIsRequiredIs0201() {
        requireChap();
        assertEquals(LoginState.FAILED, send(login(true, 1, 3), NAME, TARGET));
        assertFailed("02 01", LoginStatus.AUTHENTICATION_FAILURE);
    }

    @Test
    void leavingTheSecurityStageWithoutAuthMethodWhileCHAPIsRequiredIs0201() {
        requireChap();
        assertEquals(LoginState.FAILED, hello());
        assertFailed("02 01", LoginStatus.AUTHENTICATION_FAILURE);
    }

    @Test
    void aWrongChapResponseIs0201AndAMissingOne0207() {
        requireChap();
        assertEquals(LoginState.IN_PROGRESS, hello("AuthMethod=CHAP"));
        assertFalse(link.lastResponse().transit(), "T=0 while CHAP has not happened, though the request had T=1");
        send(login(false, 0, 0), "CHAP_A=5");
        assertEquals(LoginState.FAILED, send(login(true, 0, 1), "CHAP_N=h1user", "CHAP_R=0x00112233445566778899aabbccddeeff"));
        assertFailed("02 01", LoginStatus.AUTHENTICATION_FAILURE);
        TargetLogin t = new TargetLogin(policy, new FixedRandom(), 0);
        link.send(t, login(true, 0, 1), text(NAME, TARGET, "AuthMethod=CHAP"));
        link.send(t, login(false, 0, 0), text("CHAP_A=5"));
        assertEquals(LoginState.FAILED, link.send(t, login(true, 0, 1), text("CHAP_N=h1user")));
        assertEquals("02 07", status());
    }

    @Test
    void chapKeysWithoutChapOrAfterItAre0200() {
        hello("AuthMethod=None");
        assertEquals(LoginState.FAILED, send(login(false, 0, 0), "CHAP_A=5"));
        assertFailed("02 00", LoginStatus.INITIATOR_ERROR);
    }

    @Test
    void anUnknownTsihIs020AAfterAuthentication() {
        requireChap();
        Consumer<Bhs> joining = h -> h.tsih(5);
        send(login(true, 0, 1).andThen(joining), NAME, TARGET, "AuthMethod=CHAP");
        send(login(false, 0, 0).andThen(joining), "CHAP_A=5");
        assertEquals(List.of("findTarget " + TestPolicy.TARGET, "authorize " + TestPolicy.INITIATOR + " "
                + TestPolicy.TARGET + " NORMAL"), policy.calls, "nothing about sessions before authentication");
        assertEquals(LoginState.FAILED, send(login(true, 0, 1).andThen(joining), "CHAP_N=h1user",
                "CHAP_R=0xa5cd4c4cc5e63021e6da5072644eb7bf"));
        assertFailed("02 0a", LoginStatus.SESSION_DOES_NOT_EXIST);
        assertEquals(5, link.lastResponse().tsih(), "the failure echoes the TSIH asked for");
    }

    // ------------------------------------------------------------------ the target's own errors

    @Test
    void aPolicyThatThrowsIs0300() {
        policy.fault = new IllegalStateException("configuration gone");
        assertEquals(LoginState.FAILED, hello());
        assertFailed("03 00", LoginStatus.TARGET_ERROR);
        assertTrue(target.failure().reason().startsWith("EIO: LoginPolicy.findTarget failed"), target.failure().reason());
    }

    @Test
    void anAdmissionWithoutTsihIs0300() {
        policy.admission = Admission.newSession(0, 0x20, 0x40);
        hello("AuthMethod=None");
        assertEquals(LoginState.FAILED, send(login(true, 1, 3)));
        assertFailed("03 00", LoginStatus.TARGET_ERROR);
    }

    @Test
    void noResourcesForTheSessionIs0302() {
        policy.admission = Admission.refuse(LoginStatus.OUT_OF_RESOURCES);
        hello("AuthMethod=None");
        assertEquals(LoginState.FAILED, send(login(true, 1, 3), "MaxBurstLength=65536"));
        assertFailed("03 02", LoginStatus.OUT_OF_RESOURCES);
    }

    @Test
    void aTextLongerThanTheTargetKeepsIs0302() {
        byte[] chunk = new byte[TargetLogin.LOGIN_SEGMENT_LENGTH];
        Arrays.fill(chunk, (byte) 'a');
        LoginState s = LoginState.IN_PROGRESS;
        for (int n = 0; s == LoginState.IN_PROGRESS; n++) {
            assertTrue(n * chunk.length <= TextAssembler.DEFAULT_MAX_TEXT, "the bound holds");
            s = link.send(target, login(false, 0, 0).andThen(h -> h.continueBit(true)), chunk);
        }
        assertFailed("03 02", LoginStatus.OUT_OF_RESOURCES);
    }

    // ------------------------------------------------------------------ text and negotiation faults

    @Test
    void malformedOrMisplacedKeysAre0200() {
        String[][] texts = {
            {NAME, TARGET, "AuthMethod"},
            {NAME, TARGET, NAME},
            {NAME, TARGET, "TargetAlias=mine"},
            {NAME, TARGET, "SendTargets=All"},
        };
        for (String[] t : texts) {
            TargetLogin login = new TargetLogin(policy, new Random(), 0);
            assertEquals(LoginState.FAILED, link.send(login, login(true, 0, 1), text(t)), Arrays.toString(t));
            assertEquals("02 00", status(), Arrays.toString(t));
        }
        hello("AuthMethod=None");
        assertEquals(LoginState.FAILED, send(login(true, 1, 3), "AuthMethod=CHAP"), "security keys in stage 1");
        assertFailed("02 00", LoginStatus.INITIATOR_ERROR);
    }

    @Test
    void endlessRequestsAre0200() {
        hello("AuthMethod=None");
        LoginState s = LoginState.IN_PROGRESS;
        int n = 1;
        while (s == LoginState.IN_PROGRESS) {
            s = send(login(false, 1, 0));
            n++;
        }
        assertEquals(TargetLogin.MAX_REQUESTS + 1, n);
        assertFailed("02 00", LoginStatus.INITIATOR_ERROR);
    }

    // ------------------------------------------------------------------ continuation and stages

    @Test
    void aRequestTextContinuedWithCIsAnsweredEmptyUntilWhole() {
        byte[] whole = text(NAME, "SessionType=Normal", TARGET, "AuthMethod=None");
        int[] cuts = {0, 7, 40, whole.length};
        for (int n = 0; n < 3; n++) {
            boolean more = n < 2;
            byte[] part = Arrays.copyOfRange(whole, cuts[n], cuts[n + 1]);
            assertEquals(LoginState.IN_PROGRESS, link.send(target,
                    login(!more, 0, more ? 0 : 1).andThen(h -> h.continueBit(more)), part));
            Bhs h = link.lastResponse();
            if (more) {
                assertEquals(List.of(false, false, 0, 0x5000 + n), List.of(h.transit(), h.continueBit(),
                        h.dataSegmentLength(), h.statSn()), "an empty response asks for the rest");
            }
        }
        assertEquals(List.of("AuthMethod=None", "TargetPortalGroupTag=1", "TargetAlias=disk target"),
                Link.pairs(link.atInitiator, last()));
        assertTrue(link.lastResponse().transit());
        assertEquals(LoginStage.LOGIN_OPERATIONAL_NEGOTIATION, target.stage());
    }

    @Test
    void aLongResponseGoesOutWithCAndTWaitsForItsLastPart() {
        List<String> pairs = new ArrayList<>(List.of(NAME, TARGET, "AuthMethod=None"));
        for (int n = 0; n < 600; n++) {
            pairs.add(String.format("X-org.example.k%03d=v", n));
        }
        send(login(false, 0, 0).andThen(h -> h.continueBit(true)), pairs.subList(0, 300).toArray(String[]::new));
        send(login(true, 0, 1), pairs.subList(300, pairs.size()).toArray(String[]::new));
        List<byte[]> parts = new ArrayList<>();
        while (true) {
            Bhs h = link.lastResponse();
            byte[] data = new byte[h.dataSegmentLength()];
            Link.read(link.atInitiator, last()).data().get(data);
            parts.add(data);
            if (!h.continueBit()) {
                assertTrue(h.transit(), "the last part transits: the request asked and nothing is left");
                break;
            }
            assertFalse(h.transit(), "T=0 while text is still to send");
            assertEquals(TargetLogin.LOGIN_SEGMENT_LENGTH, data.length);
            assertEquals(LoginState.IN_PROGRESS, send(login(true, 0, 1)));
        }
        assertTrue(parts.size() >= 2, "the answers needed " + parts.size() + " parts");
        ByteBuffer joined = ByteBuffer.allocate(parts.stream().mapToInt(p -> p.length).sum());
        parts.forEach(joined::put);
        String answers = new String(joined.array(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(answers.startsWith("AuthMethod=None\0X-org.example.k000=NotUnderstood\0"), answers.substring(0, 60));
        assertTrue(answers.contains("X-org.example.k599=NotUnderstood\0TargetPortalGroupTag=1\0"));
        assertEquals(LoginStage.LOGIN_OPERATIONAL_NEGOTIATION, target.stage());
    }

    @Test
    void textWhileTheResponseContinuesIs0200() {
        List<String> pairs = new ArrayList<>(List.of(NAME, TARGET));
        for (int n = 0; n < 600; n++) {
            pairs.add(String.format("X-org.example.k%03d=v", n));
        }
        send(login(false, 0, 0), pairs.subList(0, 302).toArray(String[]::new));
        assertTrue(link.lastResponse().continueBit());
        assertEquals(LoginState.FAILED, send(login(false, 0, 0), "AuthMethod=None"));
        assertFailed("02 00", LoginStatus.INITIATOR_ERROR);
    }

    @Test
    void startingInTheOperationalStageDeclaresEverythingInTheFirstResponse() {
        assertEquals(LoginState.IN_PROGRESS, send(login(false, 1, 0), NAME, TARGET, "MaxBurstLength=65536"));
        assertEquals(List.of("MaxBurstLength=65536", "TargetPortalGroupTag=1", "TargetAlias=disk target",
                "MaxRecvDataSegmentLength=65536"), Link.pairs(link.atInitiator, last()));
        assertEquals(LoginState.FULL_FEATURE, send(login(true, 1, 3)));
        assertEquals(List.of(), Link.pairs(link.atInitiator, last()), "declared once");
        assertEquals(65536, target.result().parameters().maxBurstLength());
    }

    @Test
    void fromSecurityStraightToFullFeature() {
        assertEquals(LoginState.FULL_FEATURE, send(login(true, 0, 3), NAME, TARGET, "AuthMethod=None"));
        assertEquals(List.of("AuthMethod=None", "TargetPortalGroupTag=1", "TargetAlias=disk target",
                "MaxRecvDataSegmentLength=65536"), Link.pairs(link.atInitiator, last()));
        Bhs h = link.lastResponse();
        assertEquals(List.of(true, 0, 3, 0x1234), List.of(h.transit(), h.csg(), h.nsg(), h.tsih()));
    }

    @Test
    void sequenceNumbersOfEveryResponse() {
        hello("AuthMethod=None");
        send(login(false, 1, 0), "MaxBurstLength=65536");
        send(login(true, 1, 3));
        assertEquals(LoginState.FULL_FEATURE, target.state());
        for (int n = 0; n < 3; n++) {
            Bhs h = Link.read(link.atInitiator, link.responses.get(n)).bhs();
            boolean last = n == 2;
            assertEquals(List.of(0x5000 + n, 0x20, last ? 0x20 + TestPolicy.DEPTH - 1 : 0x20, last ? 0x1234 : 0),
                    List.of(h.statSn(), h.expCmdSn(), h.maxCmdSn(), h.tsih()), "response " + n);
        }
        assertEquals(0x5003, target.result().statSn());
        assertNull(target.failure());
    }
}
