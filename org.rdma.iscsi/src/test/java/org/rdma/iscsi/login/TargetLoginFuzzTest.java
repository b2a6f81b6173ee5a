package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.iscsi.text.FixedRandom;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * The target's login on whatever an initiator may send: byte 0 chooses the policy (no
 * authentication, CHAP required, CHAP with mutual credentials, the target moved), the rest is the
 * stream of PDUs a target's reader decodes during login. Every PDU gets exactly one Login Response,
 * which decodes as one, carries the next StatSN and the request's ITT, a known status, never 0x0300
 * (the policy here never fails), T only when the request had it and never with C; success keeps the
 * login going or ends it with a TSIH, Status-Class 1 carries a TargetAddress, a failure ends it
 * without text. Nothing throws.
 */
class TargetLoginFuzzTest {

    static TestPolicy policy(int variant) {
        TestPolicy p = new TestPolicy();
        switch (variant & 3) {
            case 1 -> p.access.put(TestPolicy.INITIATOR,
                    AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP, null, true));
            case 2 -> p.access.put(TestPolicy.INITIATOR,
                    AccessDecision.chap(TestPolicy.KEYS, TestPolicy.INITIATOR_CHAP, TestPolicy.TARGET_CHAP, false));
            case 3 -> p.targets.put(TestPolicy.TARGET, TargetLookup.moved(new Redirect("192.0.2.1:3260,1", false)));
            default -> {
            }
        }
        return p;
    }

    @FuzzTest
    void loginAnyRequests(byte[] input) {
        if (input.length >= 1) {
            run(input);
        }
    }

    /** The login of {@code input}, every response checked. */
    private static TargetLogin run(byte[] input) {
        TargetLogin target = new TargetLogin(policy(input[0]), new FixedRandom(), 0x5000);
        PduReader reader = PduReader.forTarget();
        PduReader check = PduReader.forInitiator();
        PduWriter writer = new PduWriter();
        ByteBuffer out = ByteBuffer.allocate(TargetLogin.MAX_PDU_LENGTH);
        ByteBuffer src = ByteBuffer.wrap(input, 1, input.length - 1);
        int statSn = 0x5000;
        while (src.hasRemaining() && target.state() == LoginState.IN_PROGRESS) {
            if (reader.read(src) != ReadResult.PDU) {
                continue; // the transport's business: it drops such a connection
            }
            Bhs req = reader.bhs();
            boolean asked = req.transit();
            int itt = req.itt();
            LoginState s = target.receive(req, reader.data(), writer, out);
            out.flip();
            checkResponse(target, s, out, check, statSn++, itt, asked);
            out.clear();
        }
        return target;
    }

    private static void checkResponse(TargetLogin target, LoginState s, ByteBuffer out, PduReader check, int statSn,
            int itt, boolean asked) {
        assertEquals(ReadResult.PDU, check.read(out));
        assertFalse(out.hasRemaining(), "one Login Response per request");
        Bhs h = check.bhs();
        assertEquals(Opcode.LOGIN_RESPONSE, h.opcode());
        LoginStatus status = LoginStatus.valueOf(h.statusClass(), h.statusDetail());
        assertNotNull(status, () -> String.format("status 0x%02x%02x", h.statusClass(), h.statusDetail()));
        assertNotEquals(LoginStatus.TARGET_ERROR, status, () -> target.failure().reason());
        assertEquals(List.of(statSn, itt, 0, 0), List.of(h.statSn(), h.itt(), h.versionMax(), h.versionActive()));
        switch (h.statusClass()) {
            case 0 -> {
                assertTrue(s == LoginState.IN_PROGRESS || s == LoginState.FULL_FEATURE);
                if (h.transit()) {
                    assertTrue(asked, "T answers T");
                    assertFalse(h.continueBit());
                    assertTrue(h.nsg() > h.csg() && h.nsg() != 2, "NSG " + h.nsg() + " from CSG " + h.csg());
                }
                boolean last = h.transit() && h.nsg() == 3;
                assertEquals(last, s == LoginState.FULL_FEATURE);
                if (last) {
                    assertNotEquals(0, h.tsih());
                    assertEquals(h.tsih(), target.result().session().tsih());
                }
            }
            case 1 -> {
                assertEquals(LoginState.REDIRECTED, s);
                assertEquals("TargetAddress", pairs(check.data()).get(0).key());
            }
            default -> {
                assertEquals(LoginState.FAILED, s);
                assertFalse(h.transit());
                assertEquals(0, h.dataSegmentLength());
            }
        }
    }

    private static List<TextPair> pairs(ByteBuffer data) {
        try {
            return TextCodec.decode(data);
        } catch (TextFormatException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ seeds

    /** The requests of a whole login between the real initiator and target. */
    private static byte[] login(int variant, InitiatorConfig config) {
        Link link = new Link();
        link.run(new InitiatorLogin(config, new Random(9)), new TargetLogin(policy(variant), new FixedRandom(), 0x5000));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(variant);
        link.requests.forEach(b::writeBytes);
        return b.toByteArray();
    }

    private static byte[] request(PduWriter w, Opcode op, java.util.function.Consumer<Bhs> fields, byte[] data) {
        ByteBuffer out = ByteBuffer.allocate(TargetLogin.MAX_PDU_LENGTH);
        fields.accept(w.begin(out, op));
        w.finish(data.length == 0 ? null : ByteBuffer.wrap(data));
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        return b;
    }

    /** Real logins of every kind, and hand-made requests: continued text, a joining TSIH, a NOP-Out. */
    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        InitiatorConfig normal = LoginTest.config();
        s.put("none", login(0, normal));
        s.put("chap-one-way", login(1, normal.withChap(TestPolicy.INITIATOR_CHAP, null)));
        s.put("chap-mutual", login(2, normal.withChap(TestPolicy.INITIATOR_CHAP, TestPolicy.TARGET_CHAP)));
        s.put("discovery", login(0, InitiatorConfig.of(new SessionIdentity(LoginTest.ISID, 0, TestPolicy.INITIATOR,
                null, SessionType.DISCOVERY), LoginTest.KEYS)));
        s.put("redirect", login(3, normal));
        PduWriter w = new PduWriter();
        byte[] text = Link.text("InitiatorName=" + TestPolicy.INITIATOR, "TargetName=" + TestPolicy.TARGET,
                "AuthMethod=None");
        ByteArrayOutputStream continued = new ByteArrayOutputStream();
        continued.write(0);
        continued.writeBytes(request(w, Opcode.LOGIN_REQUEST, TargetLoginTest.login(false, 0, 0)
                .andThen(h -> h.continueBit(true)), java.util.Arrays.copyOf(text, 20)));
        continued.writeBytes(request(w, Opcode.LOGIN_REQUEST, TargetLoginTest.login(true, 0, 3),
                java.util.Arrays.copyOfRange(text, 20, text.length)));
        s.put("continued-request", continued.toByteArray());
        ByteArrayOutputStream joining = new ByteArrayOutputStream();
        joining.write(0);
        joining.writeBytes(request(w, Opcode.LOGIN_REQUEST, TargetLoginTest.login(true, 1, 3)
                .andThen(h -> h.tsih(7)), Link.text("InitiatorName=" + TestPolicy.INITIATOR,
                        "TargetName=" + TestPolicy.TARGET, "HeaderDigest=None")));
        s.put("joining-unknown-tsih", joining.toByteArray());
        ByteArrayOutputStream nop = new ByteArrayOutputStream();
        nop.write(0);
        nop.writeBytes(request(w, Opcode.LOGIN_REQUEST, TargetLoginTest.login(false, 0, 0), text));
        nop.writeBytes(request(w, Opcode.NOP_OUT, h -> h.itt(1).ttt(Bhs.RESERVED_TAG), new byte[0]));
        s.put("nop-out-during-login", nop.toByteArray());
        return s;
    }

    @Test
    void seedsReachTheEndsTheyWereMadeFor() {
        Map<String, byte[]> seeds = seeds();
        Map<String, LoginState> ends = new LinkedHashMap<>();
        seeds.forEach((name, seed) -> ends.put(name, run(seed).state()));
        assertEquals("{none=FULL_FEATURE, chap-one-way=FULL_FEATURE, chap-mutual=FULL_FEATURE, discovery=FULL_FEATURE,"
                + " redirect=REDIRECTED, continued-request=FULL_FEATURE, joining-unknown-tsih=FAILED,"
                + " nop-out-during-login=FAILED}", ends.toString());
        assertEquals(LoginStatus.SESSION_DOES_NOT_EXIST, run(seeds.get("joining-unknown-tsih")).failure().status());
        assertEquals(LoginStatus.INVALID_DURING_LOGIN, run(seeds.get("nop-out-during-login")).failure().status());
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(TargetLoginFuzzTest.class, "loginAnyRequests", seeds());
    }
}
