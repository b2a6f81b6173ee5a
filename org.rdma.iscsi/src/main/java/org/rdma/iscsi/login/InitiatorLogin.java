package org.rdma.iscsi.login;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.text.ChapException;
import org.rdma.iscsi.text.ChapInitiator;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.Negotiator;
import org.rdma.iscsi.text.ResultFunction;
import org.rdma.iscsi.text.TextAssembler;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;
import org.rdma.iscsi.text.Values;

/**
 * The initiator's side of one connection's login phase, without sockets (RFC 7143 6.3, 11.12,
 * 11.13; open-iscsi's iscsi_login_begin()/iscsi_process_login_response(), libiscsi's login.c):
 * {@link #start} writes the first Login Request, {@link #receive} checks each Login Response and
 * writes the next request, until the final response ({@link #result}), a redirection
 * ({@link #redirect}) or a failure ({@link #failure}; the connection then closes, without a request).
 *
 * <p>The first request declares the initiator, the session type and the target and offers
 * AuthMethod, asking for the operational stage (T=1, NSG=1). When the target chooses CHAP it asks for
 * MD5 (with T=0, since the challenge must come first), answers the challenge with T=1, and for mutual
 * CHAP challenges the target and checks its answer before leaving the stage. The operational stage
 * offers the configured keys with T=1, NSG=3; keys the target offers itself are answered in the next
 * request. Each response must keep the ITT, ISID and (but for the final response of a new session,
 * which must assign one) TSIH; its CSG must be the current stage; T only answers T and never
 * beyond the NSG asked for; each answer must be one the offer allows, and when the target leaves a
 * stage every offer of that stage must have been answered. A response with C is acknowledged with
 * an empty request until its text is whole. One per connection, one thread at a time.
 */
public final class InitiatorLogin {
    /** So that a target cannot hold a connection in login for ever. */
    static final int MAX_RESPONSES = 128;
    /** The declarations of the first request, never offered again. */
    private static final Set<Key> IDENTITY =
            Set.of(Key.INITIATOR_NAME, Key.INITIATOR_ALIAS, Key.TARGET_NAME, Key.SESSION_TYPE);

    private final InitiatorConfig config;
    private final Negotiator negotiator;
    private final ChapInitiator chap;
    private final TextAssembler assembler = new TextAssembler();
    private LoginState state = LoginState.IN_PROGRESS;
    private LoginStage stage = LoginStage.SECURITY_NEGOTIATION;
    private LoginStage next = LoginStage.LOGIN_OPERATIONAL_NEGOTIATION;
    private boolean transit;
    private boolean started;
    private int expStatSn;
    private int responses;
    private boolean chapStarted;
    private boolean chapAnswered;
    private boolean targetVerified;
    private LoginFailure failure;
    private Redirect redirect;
    private LoginResult result;

    /**
     * @param random the source of the mutual CHAP identifier and challenge (a SecureRandom outside tests)
     */
    public InitiatorLogin(InitiatorConfig config, Random random) {
        this.config = config;
        this.negotiator = new Negotiator(config.keys(), config.session().tsih() == 0, false);
        this.chap = config.chap() == null ? null : new ChapInitiator(config.chap(), config.mutualChap(), random);
        this.expStatSn = config.expStatSn();
    }

    /**
     * Writes the first Login Request at {@code out}'s position ({@link TargetLogin#MAX_PDU_LENGTH}
     * bytes always suffice).
     *
     * @throws IllegalStateException EALREADY when called twice
     */
    public void start(PduWriter writer, ByteBuffer out) {
        if (started) {
            throw new IllegalStateException("EALREADY: the login has started");
        }
        started = true;
        SessionIdentity s = config.session();
        List<TextPair> text = new ArrayList<>();
        text.add(negotiator.offer(Key.INITIATOR_NAME, s.initiatorName()));
        if (config.initiatorAlias() != null) {
            text.add(negotiator.offer(Key.INITIATOR_ALIAS, config.initiatorAlias()));
        }
        text.add(negotiator.offer(Key.SESSION_TYPE, s.type().keyValue()));
        if (s.targetName() != null) {
            text.add(negotiator.offer(Key.TARGET_NAME, s.targetName()));
        }
        text.add(negotiator.offer(Key.AUTH_METHOD, config.authMethods()));
        send(text, true, writer, out);
    }

    /**
     * Checks one decoded Login Response and, while the login goes on, writes the next request at
     * {@code out}'s position.
     *
     * @param response the PDU's header (any opcode: anything but a Login Response fails the login)
     * @param data its data segment without padding; the position does not move
     * @return the state after the response
     * @throws IllegalStateException before {@link #start}, or EALREADY once the login has ended
     */
    public LoginState receive(Bhs response, ByteBuffer data, PduWriter writer, ByteBuffer out) {
        if (!started || state != LoginState.IN_PROGRESS) {
            throw new IllegalStateException("EALREADY: the login is " + (started ? state : "not started"));
        }
        try {
            handle(response, data, writer, out);
        } catch (Fault e) {
            state = LoginState.FAILED;
            failure = new LoginFailure(e.status, e.getMessage());
        }
        return state;
    }

    public LoginState state() {
        return state;
    }

    /** What the login established, once {@link LoginState#FULL_FEATURE}; else null. */
    public LoginResult result() {
        return result;
    }

    /** Why the login failed, once {@link LoginState#FAILED}: the target's status, or null with the fault found. */
    public LoginFailure failure() {
        return failure;
    }

    /** Where the target sent this initiator, once {@link LoginState#REDIRECTED}; else null. */
    public Redirect redirect() {
        return redirect;
    }

    // ---------------------------------------------------------------- one response

    private void handle(Bhs rsp, ByteBuffer data, PduWriter writer, ByteBuffer out) throws Fault {
        if (rsp.opcode() != Opcode.LOGIN_RESPONSE) {
            throw new Fault(String.format("opcode 0x%02x during login", rsp.opcodeCode()));
        }
        if (++responses > MAX_RESPONSES) {
            throw new Fault("more than " + MAX_RESPONSES + " Login Responses");
        }
        if (rsp.itt() != config.itt() || rsp.isid() != config.session().isid()) {
            throw new Fault(String.format("ITT 0x%08x or ISID 0x%012x is not the login's", rsp.itt(), rsp.isid()));
        }
        if (rsp.statusClass() != 0) {
            refused(rsp, data);
            return;
        }
        if (rsp.versionActive() != TargetLogin.VERSION) {
            throw new Fault("Version-active " + rsp.versionActive() + ", only 0x00 was offered");
        }
        expStatSn = rsp.statSn() + 1;
        checkFlags(rsp);
        List<TextPair> pairs;
        try {
            pairs = assembler.add(data, rsp.continueBit());
        } catch (TextFormatException e) {
            throw new Fault(e.getMessage());
        }
        if (pairs == null) {
            send(List.of(), transit, writer, out); // 11.13: an empty request asks for the rest
            return;
        }
        List<TextPair> reply = answer(pairs);
        if (rsp.transit()) {
            LoginStage to = LoginStage.valueOf(rsp.nsg());
            if (stage == LoginStage.SECURITY_NEGOTIATION) {
                securityDone();
            }
            if (to == LoginStage.FULL_FEATURE_PHASE) {
                if (!reply.isEmpty()) {
                    throw new Fault("the final response asks for answers: " + reply);
                }
                complete(rsp);
                return;
            }
            stage = to;
            next = LoginStage.FULL_FEATURE_PHASE;
            reply.addAll(operationalOffers());
        }
        // T=0 only with CHAP_A: the target's challenge must come before the stage can end
        send(reply, chap == null || !reply.contains(chap.chapA()), writer, out);
    }

    /** Status-Class 1 reports the TargetAddress; 2 and 3 end the login with the target's status. */
    private void refused(Bhs rsp, ByteBuffer data) throws Fault {
        int cls = rsp.statusClass();
        int detail = rsp.statusDetail();
        LoginStatus status = LoginStatus.valueOf(cls, detail);
        String code = String.format("0x%02x%02x", cls, detail);
        if (status == LoginStatus.TARGET_MOVED_TEMPORARILY || status == LoginStatus.TARGET_MOVED_PERMANENTLY) {
            String address = null;
            try {
                assembler.reset();
                for (TextPair p : assembler.add(data, false)) {
                    address = p.key().equals(Key.TARGET_ADDRESS.wireName()) ? p.value() : address;
                }
            } catch (TextFormatException e) {
                throw new Fault("redirection " + code + ": " + e.getMessage());
            }
            if (address == null || address.isEmpty()) {
                throw new Fault("redirection " + code + " without a TargetAddress");
            }
            redirect = new Redirect(address, status == LoginStatus.TARGET_MOVED_PERMANENTLY);
            failure = new LoginFailure(status, "moved to " + address);
            state = LoginState.REDIRECTED;
            return;
        }
        if (status == null) {
            // an unknown detail keeps its class's meaning (11.13.5)
            status = cls == 2 ? LoginStatus.INITIATOR_ERROR : cls == 3 ? LoginStatus.TARGET_ERROR : null;
        }
        throw new Fault(status, "the target refused the login with " + code + (status == null ? "" : " " + status));
    }

    private void checkFlags(Bhs rsp) throws Fault {
        if (rsp.csg() != stage.code()) {
            throw new Fault("CSG " + rsp.csg() + " answering stage " + stage);
        }
        if (rsp.transit()) {
            LoginStage to = LoginStage.valueOf(rsp.nsg());
            if (rsp.continueBit() || !transit || to == null || to.code() <= stage.code() || to.code() > next.code()) {
                throw new Fault("T with NSG " + rsp.nsg() + (rsp.continueBit() ? " and C" : "")
                        + " answering " + (transit ? "NSG " + next.code() : "T=0"));
            }
        }
        boolean last = rsp.transit() && rsp.nsg() == LoginStage.FULL_FEATURE_PHASE.code();
        int tsih = config.session().tsih();
        if (last && tsih == 0 ? rsp.tsih() == 0 : rsp.tsih() != tsih) {
            throw new Fault("TSIH " + rsp.tsih() + (last && tsih == 0 ? " in the final response of a new session"
                    : " in a login with TSIH " + tsih));
        }
    }

    /** The target's text: answers checked, its own offers answered, CHAP taken a step further. */
    private List<TextPair> answer(List<TextPair> pairs) throws Fault {
        Negotiator.Phase phase = stage == LoginStage.SECURITY_NEGOTIATION
                ? Negotiator.Phase.SECURITY : Negotiator.Phase.OPERATIONAL;
        List<TextPair> reply;
        try {
            reply = new ArrayList<>(negotiator.respond(pairs, phase));
        } catch (TextFormatException e) {
            throw new Fault(e.getMessage());
        }
        Map<String, String> chapKeys = new LinkedHashMap<>();
        for (TextPair p : pairs) {
            Key k = Key.of(p.key());
            if (k != null && k.function() == ResultFunction.AUTHENTICATION) {
                chapKeys.put(p.key(), p.value());
            }
        }
        boolean chosen = "CHAP".equals(negotiator.value(Key.AUTH_METHOD));
        if (!chapKeys.isEmpty()) {
            if (!chosen || !chapStarted) {
                throw new Fault("CHAP keys " + chapKeys.keySet() + " before the CHAP exchange");
            }
            reply.addAll(chapStep(chapKeys));
        } else if (chosen && !chapStarted) {
            chapStarted = true;
            reply.add(chap.chapA());
        }
        return reply;
    }

    private List<TextPair> chapStep(Map<String, String> keys) throws Fault {
        try {
            if (!chapAnswered) {
                chapAnswered = true;
                return chap.respond(keys);
            }
            chap.verify(keys);
            targetVerified = true;
            return List.of();
        } catch (ChapException e) {
            throw new Fault(e.getMessage());
        }
    }

    /** The target leaves the security stage: AuthMethod must be settled and CHAP done both ways. */
    private void securityDone() throws Fault {
        if (negotiator.unanswered().contains(Key.AUTH_METHOD)) {
            throw new Fault("the target left the security stage without answering AuthMethod=" + config.authMethods());
        }
        String method = negotiator.value(Key.AUTH_METHOD);
        if (method == null) {
            throw new Fault("the target refused AuthMethod=" + config.authMethods());
        }
        if (method.equals("CHAP") && (!chapAnswered || chap.mutual() && !targetVerified)) {
            throw new Fault("the target left the security stage before CHAP ended"
                    + (chapAnswered ? ": it did not answer the mutual challenge" : ""));
        }
    }

    /** The offers of the operational stage, MaxRecvDataSegmentLength declared last. */
    private List<TextPair> operationalOffers() {
        SessionType type = config.session().type();
        boolean leading = config.session().tsih() == 0;
        List<TextPair> out = new ArrayList<>();
        for (Key k : config.orderedKeys().keySet()) {
            boolean skip = IDENTITY.contains(k) || k == Key.MAX_RECV_DATA_SEGMENT_LENGTH || k == Key.AUTH_METHOD
                    || k.sender() == Key.Sender.TARGET || k.use() == Key.Use.FULL_FEATURE
                    || k.function() == ResultFunction.AUTHENTICATION || k.function() == ResultFunction.OBSOLETE
                    || type == SessionType.DISCOVERY && k.irrelevantInDiscovery()
                    || !leading && k.use() == Key.Use.LEADING;
            if (!skip) {
                out.add(negotiator.offer(k));
            }
        }
        out.add(negotiator.offer(Key.MAX_RECV_DATA_SEGMENT_LENGTH));
        return out;
    }

    private void complete(Bhs rsp) throws Fault {
        Set<Key> missing = negotiator.unanswered();
        if (!missing.isEmpty()) {
            List<String> names = new ArrayList<>();
            missing.forEach(k -> names.add(k.wireName()));
            throw new Fault("the target ended the login without answering " + String.join(", ", names));
        }
        String tpgt = negotiator.value(Key.TARGET_PORTAL_GROUP_TAG);
        result = new LoginResult(config.session().withTsih(rsp.tsih()), negotiator.result(), config.cid(),
                rsp.expCmdSn(), rsp.maxCmdSn(), expStatSn, tpgt == null ? -1 : (int) Values.parseNumber(tpgt),
                negotiator.value(Key.TARGET_ALIAS));
        state = LoginState.FULL_FEATURE;
    }

    // ---------------------------------------------------------------- requests

    /** One Login Request with the whole text; T asks for {@link #next}. */
    private void send(List<TextPair> text, boolean t, PduWriter writer, ByteBuffer out) {
        byte[] bytes = TextCodec.encode(text);
        if (bytes.length > TargetLogin.LOGIN_SEGMENT_LENGTH) {
            // the initiator's few keys, each at most 255 bytes of value, never come near a login segment
            throw new IllegalStateException("E2BIG: a login text of " + bytes.length + " bytes");
        }
        transit = t;
        SessionIdentity s = config.session();
        Bhs h = writer.begin(out, Opcode.LOGIN_REQUEST);
        h.transit(t).csg(stage.code()).nsg(t ? next.code() : 0).versionMax(TargetLogin.VERSION)
                .versionMin(TargetLogin.VERSION).isid(s.isid()).tsih(s.tsih()).itt(config.itt()).cid(config.cid())
                .cmdSn(config.cmdSn()).expStatSn(expStatSn);
        writer.finish(bytes.length == 0 ? null : ByteBuffer.wrap(bytes));
    }

    /** The target's response is at fault, or refused the login. */
    private static final class Fault extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient LoginStatus status;

        /** The target's response breaks a rule: the initiator closes the connection. */
        Fault(String reason) {
            super("EPROTO: " + reason);
            this.status = null;
        }

        /** The target failed the login with {@code status}. */
        Fault(LoginStatus status, String reason) {
            super(reason);
            this.status = status;
        }
    }
}
