package org.rdma.iscsi.login;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.text.ChapAuthenticator;
import org.rdma.iscsi.text.ChapException;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.Negotiator;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.iscsi.text.ResultFunction;
import org.rdma.iscsi.text.TextAssembler;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;

/**
 * The target's side of one connection's login phase, without sockets (RFC 7143 6.3, 11.12, 11.13):
 * LIO's iscsi_target_locate_portal(), iscsi_target_check_login_request() and iscsi_target_do_login()
 * with its handlers of the security and operational stages. Every Login Request the connection
 * decodes goes to {@link #receive}, which writes exactly one Login Response and says whether the
 * login goes on, reached the full feature phase ({@link #result}) or ended ({@link #failure}; the
 * connection sends that response and closes). Nothing a peer sends makes it throw: every fault is a
 * status class and detail.
 *
 * <p>The rules it keeps: the version is 0x00 (0x0205 otherwise); Version-max/min, ISID, TSIH and CID
 * stay those of the first request and CSG the current stage (0x0200); C and T are never both set
 * and T asks for a later stage (0x0200); a request with C is answered empty until its text is whole
 * (11.12.2), and a response text longer than a login segment goes out with C, each part after an
 * empty request; the response sets T only when the request did and the target has nothing left to
 * do in the stage (CHAP under way, text still to send); the first request names the initiator
 * (0x0207), a normal session its target (0x0207, 0x0203, 0x0204, or a redirection), the session type
 * is Discovery or Normal (0x0209); the policy may refuse the initiator (0x0202) and says whether CHAP
 * is required (0x0201 for an initiator that does not do it, or a wrong response); a non-zero TSIH
 * is checked after authentication (0x020A); anything but a Login Request is 0x020B. The first
 * response of a normal session declares TargetPortalGroupTag (and TargetAlias when configured),
 * the first of the operational stage (or the final one) MaxRecvDataSegmentLength. Responses carry
 * ExpCmdSN = MaxCmdSN = the login's CmdSN until the final one, which carries the admitted window and
 * the new session's TSIH. One per connection, one thread at a time.
 */
public final class TargetLogin {
    /** Version-max and Version-active: RFC 7143 keeps 0x00 and moves versioning to iSCSIProtocolLevel. */
    public static final int VERSION = 0x00;
    /** The data segment limit of Login PDUs: MaxRecvDataSegmentLength's default holds until login ends (13.12). */
    public static final int LOGIN_SEGMENT_LENGTH = 8192;
    /** Room for one Login PDU (login PDUs carry no digests). */
    public static final int MAX_PDU_LENGTH = Bhs.BHS_LENGTH + LOGIN_SEGMENT_LENGTH;
    /** So that an initiator cannot hold a connection in login for ever (LIO's MAX_LOGIN_PDUS, roomier for C). */
    static final int MAX_REQUESTS = 128;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final LoginPolicy policy;
    private final Random random;
    private final TextAssembler assembler = new TextAssembler();
    private LoginState state = LoginState.IN_PROGRESS;
    private int statSn;
    private int requests;

    // the fields every request of the login repeats (11.12.4-8), fixed by the first
    private boolean started;
    private int versionMax;
    private int versionMin;
    private long isid;
    private int tsih;
    private int cid;
    private int cmdSn;
    private LoginStage stage;

    // settled by the first complete text
    private SessionIdentity identity;
    private TargetLookup target;
    private AccessDecision access;
    private Negotiator negotiator;

    private ChapAuthenticator chap;
    private boolean authenticated;
    private boolean sessionChecked;
    private boolean declaredTarget;
    private boolean declaredMaxRecv;
    private ByteBuffer outgoing = EMPTY;
    private LoginFailure failure;
    private Redirect redirect;
    private LoginResult result;

    /**
     * @param policy the target's decisions
     * @param random the source of CHAP identifiers and challenges (a SecureRandom outside tests)
     * @param initialStatSn the StatSN of the first response on this connection (11.13.4)
     */
    public TargetLogin(LoginPolicy policy, Random random, int initialStatSn) {
        this.policy = policy;
        this.random = random;
        this.statSn = initialStatSn;
    }

    /**
     * Handles one decoded PDU of the login and writes the Login Response to it at {@code out}'s
     * position (which then follows the PDU; {@link #MAX_PDU_LENGTH} bytes always suffice).
     *
     * @param request the PDU's header; any opcode (anything but a Login Request fails the login)
     * @param data its data segment without padding; the position does not move
     * @return the state after the response
     * @throws IllegalStateException EALREADY once the login has ended
     */
    public LoginState receive(Bhs request, ByteBuffer data, PduWriter writer, ByteBuffer out) {
        if (state != LoginState.IN_PROGRESS) {
            throw new IllegalStateException("EALREADY: the login has ended: " + state);
        }
        Response r;
        try {
            r = handle(request, data);
        } catch (Refusal e) {
            r = refuse(request, e);
        }
        write(request, r, writer, out);
        return state;
    }

    public LoginState state() {
        return state;
    }

    /** The stage the login is in, or null before the first request. */
    public LoginStage stage() {
        return stage;
    }

    /** What the login established, once {@link LoginState#FULL_FEATURE}; else null. */
    public LoginResult result() {
        return result;
    }

    /** Why the login ended, once {@link LoginState#FAILED} or {@link LoginState#REDIRECTED}; else null. */
    public LoginFailure failure() {
        return failure;
    }

    /** Where the initiator was sent, once {@link LoginState#REDIRECTED}; else null. */
    public Redirect redirect() {
        return redirect;
    }

    // ---------------------------------------------------------------- one request

    private Response handle(Bhs req, ByteBuffer data) throws Refusal {
        if (req.opcode() != Opcode.LOGIN_REQUEST) {
            throw new Refusal(LoginStatus.INVALID_DURING_LOGIN, describe(req) + " during login");
        }
        if (++requests > MAX_REQUESTS) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, "more than " + MAX_REQUESTS + " Login Requests");
        }
        if (started) {
            checkSame(req);
        } else {
            start(req);
        }
        checkFlags(req);
        if (outgoing.hasRemaining()) {
            if (data.hasRemaining() || req.continueBit()) {
                throw new Refusal(LoginStatus.INITIATOR_ERROR, "text while the target's response continues");
            }
            return nextPart(req);
        }
        List<TextPair> pairs;
        try {
            pairs = assembler.add(data, req.continueBit());
        } catch (TextFormatException e) {
            throw new Refusal(e.reason() == TextFormatException.Reason.TOO_LONG
                    ? LoginStatus.OUT_OF_RESOURCES : LoginStatus.INITIATOR_ERROR, e.getMessage());
        }
        if (pairs == null) {
            return response(false, false, 0, EMPTY); // 11.12.2: an empty response asks for the rest
        }
        List<TextPair> answer = stage == LoginStage.SECURITY_NEGOTIATION ? security(req, pairs) : operational(pairs);
        outgoing = ByteBuffer.wrap(TextCodec.encode(answer));
        return nextPart(req);
    }

    private void start(Bhs req) throws Refusal {
        if (req.versionMin() > VERSION) {
            throw new Refusal(LoginStatus.UNSUPPORTED_VERSION, "Version-min " + req.versionMin() + " above 0x00");
        }
        LoginStage csg = LoginStage.valueOf(req.csg());
        if (csg == null || csg == LoginStage.FULL_FEATURE_PHASE) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, "a login cannot start in stage " + req.csg());
        }
        started = true;
        versionMax = req.versionMax();
        versionMin = req.versionMin();
        isid = req.isid();
        tsih = req.tsih();
        cid = req.cid();
        cmdSn = req.cmdSn();
        stage = csg;
    }

    private void checkSame(Bhs req) throws Refusal {
        String changed = req.versionMax() != versionMax || req.versionMin() != versionMin ? "Version-max/min"
                : req.isid() != isid ? "ISID" : req.tsih() != tsih ? "TSIH" : req.cid() != cid ? "CID" : null;
        if (changed != null) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, changed + " changed during the login");
        }
        if (req.csg() != stage.code()) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, "CSG " + req.csg() + " in stage " + stage);
        }
    }

    private static void checkFlags(Bhs req) throws Refusal {
        if (req.continueBit() && req.transit()) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, "C and T both set (11.12.2)");
        }
        LoginStage nsg = LoginStage.valueOf(req.nsg());
        if (req.transit() && (nsg == null || nsg.code() <= req.csg())) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, "T with NSG " + req.nsg() + " from CSG " + req.csg());
        }
    }

    // ---------------------------------------------------------------- stages

    /** CSG 0 (LIO's iscsi_target_handle_csg_zero()): AuthMethod, then CHAP when chosen. */
    private List<TextPair> security(Bhs req, List<TextPair> pairs) throws Refusal {
        List<TextPair> out = negotiate(pairs, Negotiator.Phase.SECURITY);
        if (out.contains(new TextPair(Key.AUTH_METHOD.wireName(), "Reject"))) {
            throw new Refusal(LoginStatus.AUTHENTICATION_FAILURE, "no AuthMethod in common with " + access.authMethods());
        }
        String method = negotiator.value(Key.AUTH_METHOD);
        if ("None".equals(method)) {
            authenticated = true;
        } else if ("CHAP".equals(method) && chap == null) {
            chap = new ChapAuthenticator(access.chap(), access.mutualChap(), random);
        }
        Map<String, String> chapKeys = new LinkedHashMap<>();
        for (TextPair p : pairs) {
            Key k = Key.of(p.key());
            if (k != null && k.function() == ResultFunction.AUTHENTICATION) {
                chapKeys.put(p.key(), p.value());
            }
        }
        if (!chapKeys.isEmpty()) {
            out.addAll(chapStep(chapKeys));
        }
        if (req.transit() && req.nsg() == LoginStage.FULL_FEATURE_PHASE.code()) {
            declareMaxRecv(out); // no operational stage will carry it
        }
        return out;
    }

    /** One CHAP exchange (RFC 7143 12.1.3): CHAP_A is answered with the challenge, CHAP_N/R checked. */
    private List<TextPair> chapStep(Map<String, String> keys) throws Refusal {
        if (chap == null || authenticated) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, "CHAP keys " + keys.keySet()
                    + (authenticated ? " after authentication" : " without AuthMethod=CHAP"));
        }
        try {
            if (keys.containsKey("CHAP_A")) {
                if (keys.size() > 1) {
                    throw new Refusal(LoginStatus.INITIATOR_ERROR, "CHAP_A with " + keys.keySet());
                }
                return chap.chapA(keys.get("CHAP_A"));
            }
            List<TextPair> mutual = chap.verify(keys);
            authenticated = true;
            return mutual;
        } catch (ChapException e) {
            throw new Refusal(e.status(), e.getMessage());
        }
    }

    /** CSG 1 (LIO's iscsi_target_handle_csg_one()). */
    private List<TextPair> operational(List<TextPair> pairs) throws Refusal {
        List<TextPair> out = negotiate(pairs, Negotiator.Phase.OPERATIONAL);
        authorized();
        declareMaxRecv(out);
        return out;
    }

    /** The offers answered, after the declarations the first response of a normal session owes. */
    private List<TextPair> negotiate(List<TextPair> pairs, Negotiator.Phase phase) throws Refusal {
        if (negotiator == null) {
            open(pairs);
        }
        List<TextPair> out;
        try {
            out = new ArrayList<>(negotiator.respond(pairs, phase));
        } catch (TextFormatException e) {
            throw new Refusal(LoginStatus.INITIATOR_ERROR, e.getMessage());
        }
        if (!declaredTarget) {
            declaredTarget = true;
            if (identity.type() == SessionType.NORMAL) {
                // 13.9: the first Login Response of a normal session carries the portal group tag
                out.add(negotiator.offer(Key.TARGET_PORTAL_GROUP_TAG, Integer.toString(target.targetPortalGroupTag())));
                if (target.targetAlias() != null) {
                    out.add(negotiator.offer(Key.TARGET_ALIAS, target.targetAlias()));
                }
            }
        }
        return out;
    }

    private void declareMaxRecv(List<TextPair> out) {
        if (!declaredMaxRecv) {
            declaredMaxRecv = true;
            out.add(negotiator.offer(Key.MAX_RECV_DATA_SEGMENT_LENGTH));
        }
    }

    /**
     * The first complete text (LIO's iscsi_target_locate_portal()): who logs in, to what, and
     * whether the policy lets it.
     */
    private void open(List<TextPair> pairs) throws Refusal {
        String initiatorName = first(pairs, Key.INITIATOR_NAME);
        if (initiatorName == null || initiatorName.isEmpty()) {
            throw new Refusal(LoginStatus.MISSING_PARAMETER, "no InitiatorName in the first Login Request (13.6)");
        }
        String typeName = first(pairs, Key.SESSION_TYPE);
        SessionType type = typeName == null ? SessionType.NORMAL : SessionType.of(typeName);
        if (type == null) {
            throw new Refusal(LoginStatus.SESSION_TYPE_NOT_SUPPORTED, "SessionType=" + typeName);
        }
        String targetName = first(pairs, Key.TARGET_NAME);
        if (type == SessionType.NORMAL) {
            if (targetName == null || targetName.isEmpty()) {
                throw new Refusal(LoginStatus.MISSING_PARAMETER, "no TargetName in a normal session (13.4)");
            }
            target = call("findTarget", () -> policy.findTarget(targetName));
            if (target.redirect() != null) {
                throw new Refusal(target.redirect());
            }
            if (target.status() != LoginStatus.SUCCESS) {
                throw refusal(target.status(), "target " + targetName);
            }
        }
        SessionType t = type;
        access = call("authorize", () -> policy.authorize(initiatorName, t == SessionType.NORMAL ? targetName : null, t));
        if (access.refusal() != null) {
            throw refusal(access.refusal(), initiatorName + " refused by the policy");
        }
        identity = new SessionIdentity(isid, tsih, initiatorName, targetName, type);
        Map<Key, String> own = new EnumMap<>(Key.class);
        own.putAll(access.keys());
        own.put(Key.AUTH_METHOD, access.authMethods());
        negotiator = new Negotiator(own, tsih == 0, true);
    }

    private static String first(List<TextPair> pairs, Key k) {
        for (TextPair p : pairs) {
            if (p.key().equals(k.wireName())) {
                return p.value();
            }
        }
        return null;
    }

    /** Leaving the security stage, or entering the operational one first: authentication, then the TSIH. */
    private void authorized() throws Refusal {
        if (!authenticated) {
            if (access.authenticationRequired()) {
                throw new Refusal(LoginStatus.AUTHENTICATION_FAILURE, "authentication is required and did not happen");
            }
            authenticated = true;
        }
        if (!sessionChecked) {
            sessionChecked = true;
            LoginStatus s;
            try {
                s = policy.checkSession(identity, cid);
            } catch (RuntimeException e) {
                throw new Refusal(LoginStatus.TARGET_ERROR, "EIO: LoginPolicy.checkSession failed: " + e);
            }
            if (s != null) {
                throw refusal(s, String.format("ISID 0x%012x TSIH %d", isid, tsih));
            }
        }
    }

    // ---------------------------------------------------------------- responses

    /** The next part of the response text, with C while more follows, else with T when allowed. */
    private Response nextPart(Bhs req) throws Refusal {
        ByteBuffer segment = TextAssembler.nextSegment(outgoing, LOGIN_SEGMENT_LENGTH);
        if (outgoing.hasRemaining()) {
            return response(false, true, 0, segment);
        }
        boolean chapUnderWay = stage == LoginStage.SECURITY_NEGOTIATION && chap != null && !authenticated;
        if (!req.transit() || chapUnderWay) {
            return response(false, false, 0, segment);
        }
        if (stage == LoginStage.SECURITY_NEGOTIATION) {
            authorized();
        }
        LoginStage next = LoginStage.valueOf(req.nsg());
        if (next == LoginStage.FULL_FEATURE_PHASE) {
            return finish(segment);
        }
        Response r = response(true, false, next.code(), segment);
        stage = next;
        return r;
    }

    /** The final response (LIO's iscsi_post_login_handler() runs after it): the policy admits the login. */
    private Response finish(ByteBuffer segment) throws Refusal {
        OperationalParameters negotiated = negotiator.result();
        int tpgt = target == null ? -1 : target.targetPortalGroupTag();
        String alias = target == null ? null : target.targetAlias();
        LoginResult proposed = new LoginResult(identity, negotiated, cid, cmdSn, cmdSn, statSn + 1, tpgt, alias);
        Admission a = call("admit", () -> policy.admit(proposed));
        if (a.refusal() != null) {
            throw refusal(a.refusal(), "not admitted");
        }
        boolean joins = tsih != 0;
        if (joins ? a.tsih() != tsih || a.sessionParameters() == null : a.tsih() < 1 || a.tsih() > 0xffff) {
            throw new Refusal(LoginStatus.TARGET_ERROR, "EIO: the policy admitted with TSIH " + a.tsih());
        }
        OperationalParameters parameters = joins ? a.sessionParameters().forConnection(negotiated) : negotiated;
        result = new LoginResult(identity.withTsih(a.tsih()), parameters, cid, a.expCmdSn(), a.maxCmdSn(),
                statSn + 1, tpgt, alias);
        state = LoginState.FULL_FEATURE;
        return new Response(LoginStatus.SUCCESS, stage.code(), true, false, LoginStage.FULL_FEATURE_PHASE.code(),
                segment, a.tsih(), a.expCmdSn(), a.maxCmdSn());
    }

    private Response response(boolean transit, boolean cont, int nsg, ByteBuffer text) {
        return new Response(LoginStatus.SUCCESS, stage.code(), transit, cont, nsg, text, tsih, cmdSn, cmdSn);
    }

    private Response refuse(Bhs req, Refusal e) {
        failure = new LoginFailure(e.status, e.getMessage());
        redirect = e.redirect;
        state = redirect == null ? LoginState.FAILED : LoginState.REDIRECTED;
        ByteBuffer text = redirect == null ? EMPTY : ByteBuffer.wrap(TextCodec.encode(
                List.of(new TextPair(Key.TARGET_ADDRESS.wireName(), redirect.targetAddress()))));
        int sn = started ? cmdSn : req.cmdSn();
        return new Response(e.status, stage == null ? 0 : stage.code(), false, false, 0, text,
                started ? tsih : req.tsih(), sn, sn);
    }

    private void write(Bhs req, Response r, PduWriter writer, ByteBuffer out) {
        Bhs h = writer.begin(out, Opcode.LOGIN_RESPONSE);
        h.transit(r.transit).continueBit(r.cont).csg(r.csg).nsg(r.nsg).versionMax(VERSION).versionActive(VERSION)
                .isid(started ? isid : req.isid()).tsih(r.tsih).itt(req.itt()).statSn(statSn++)
                .expCmdSn(r.expCmdSn).maxCmdSn(r.maxCmdSn)
                .statusClass(r.status.statusClass()).statusDetail(r.status.detail());
        writer.finish(r.text.hasRemaining() ? r.text : null);
    }

    private static String describe(Bhs h) {
        return h.opcode() == null ? String.format("opcode 0x%02x", h.opcodeCode()) : "a " + h.opcode() + " PDU";
    }

    /** A policy answer; its exception or null is the target's own error (0x0300). */
    private static <T> T call(String method, Supplier<T> call) throws Refusal {
        T t;
        try {
            t = call.get();
        } catch (RuntimeException e) {
            throw new Refusal(LoginStatus.TARGET_ERROR, "EIO: LoginPolicy." + method + " failed: " + e);
        }
        if (t == null) {
            throw new Refusal(LoginStatus.TARGET_ERROR, "EIO: LoginPolicy." + method + " returned null");
        }
        return t;
    }

    /** A policy's refusal; only the failure classes 2 and 3 end a login without a TargetAddress. */
    private static Refusal refusal(LoginStatus status, String why) {
        if (status.statusClass() < 2) {
            return new Refusal(LoginStatus.TARGET_ERROR, "EIO: the policy refused " + why + " with " + status);
        }
        return new Refusal(status, why);
    }

    /** The fields of one Login Response (11.13). */
    private record Response(LoginStatus status, int csg, boolean transit, boolean cont, int nsg, ByteBuffer text,
            int tsih, int expCmdSn, int maxCmdSn) {
    }

    /** The login ends with a status (and for a redirection a TargetAddress). */
    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient LoginStatus status;
        private final transient Redirect redirect;

        Refusal(LoginStatus status, String reason) {
            super(reason);
            this.status = status;
            this.redirect = null;
        }

        Refusal(Redirect redirect) {
            super("moved to " + redirect.targetAddress());
            this.status = redirect.status();
            this.redirect = redirect;
        }
    }
}
