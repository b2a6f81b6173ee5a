package org.rdma.iscsi.text;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The acceptor's half of text negotiation (RFC 7143 6.2; Linux's {@code iscsi_decode_text_input()},
 * {@code iscsi_check_acceptor_state()} and {@code iscsi_encode_text_output()}), one per login or
 * Text exchange: each offered key is answered with its result function applied to the offer and
 * this side's own value, "Reject" for a value outside the key's range or format, "Irrelevant"
 * where the session type or other results make the key meaningless, "NotUnderstood" for keys it
 * does not know (X- and X# extensions included), and nothing for declarations. A key offered
 * twice in one negotiation, a key its sender may not send, or one out of its phase is a protocol
 * error ({@link TextFormatException}), which ends a login with an initiator error. CHAP keys are
 * left to {@link ChapAuthenticator}.
 *
 * <p>The same object is this side's originator ({@link #offer}; Linux's {@code PSTATE_PROPOSER}
 * keys and {@code iscsi_check_proposer_state()}): a key this side offered is not answered when the
 * peer's reply names it, but checked against the offer, and an answer outside what was offered, a
 * special value for a key never offered, or an offer never answered ({@link #unanswered}) is the
 * peer's fault. Both roles share one set of results, so {@link #result} holds the whole exchange.
 */
public final class Negotiator {
    /** Where the exchange takes place: which keys are allowed. */
    public enum Phase { SECURITY, OPERATIONAL, FULL_FEATURE }

    private final Map<Key, String> own;
    private final boolean leading;
    private final boolean target;
    private final Map<Key, String> results = new EnumMap<>(Key.class);
    private final Map<Key, String> offered = new EnumMap<>(Key.class);
    private final Set<String> seen = new HashSet<>();

    /**
     * @param own this side's values: for list keys the values it supports in its order of
     *     preference ("CRC32C,None"), for boolean and numerical keys its preference and limit, for
     *     declarations its own (e.g. MaxRecvDataSegmentLength); keys absent have their defaults
     * @param leading the login of a session's leading connection (LO keys allowed)
     * @param target this side is the target (the peer is an initiator)
     */
    public Negotiator(Map<Key, String> own, boolean leading, boolean target) {
        this.own = Map.copyOf(own);
        this.leading = leading;
        this.target = target;
    }

    /**
     * Offers {@code k} with this side's own value (see {@link #offer(Key, String)}).
     *
     * @throws IllegalArgumentException EINVAL for a CHAP or obsolete key
     */
    public TextPair offer(Key k) {
        return offer(k, ownValue(k));
    }

    /**
     * Offers {@code k} with {@code value}, or declares it when the key is declarative (6.2): a
     * negotiated key then awaits the peer's answer, which {@link #respond} checks; a declaration
     * (InitiatorName, SessionType, TargetName, TargetPortalGroupTag, ...) is the session's value at
     * once, but for the keys each side declares about itself (MaxRecvDataSegmentLength,
     * X#NodeArchitecture), whose result is the peer's declaration.
     *
     * @return the pair to send
     * @throws IllegalArgumentException EINVAL for a CHAP or obsolete key, which are never offered here
     */
    public TextPair offer(Key k, String value) {
        switch (k.function()) {
            case AUTHENTICATION, OBSOLETE -> throw new IllegalArgumentException("EINVAL: " + k.wireName()
                    + " is not offered through the negotiator");
            case DECLARATIVE -> {
                if (k != Key.MAX_RECV_DATA_SEGMENT_LENGTH && k != Key.NODE_ARCHITECTURE) {
                    results.put(k, value);
                }
            }
            default -> offered.put(k, value);
        }
        return new TextPair(k.wireName(), value);
    }

    /** The keys this side offered that the peer has not answered yet. */
    public Set<Key> unanswered() {
        return offered.isEmpty() ? Set.of() : EnumSet.copyOf(offered.keySet());
    }

    /**
     * Answers one PDU sequence's offers, in their order, and checks the answers to this side's
     * own offers among them.
     *
     * @throws TextFormatException DUPLICATE_KEY, NOT_ALLOWED or BAD_VALUE (a session type other
     *     than Discovery or Normal, a malformed declaration), BAD_ANSWER (an answer outside the
     *     offer, a special value for a key this side never offered)
     */
    public List<TextPair> respond(List<TextPair> offers, Phase phase) throws TextFormatException {
        for (TextPair p : offers) {
            if (p.key().equals(Key.SESSION_TYPE.wireName())) {
                checkSessionType(p.value());
            }
        }
        List<TextPair> out = new ArrayList<>();
        for (TextPair p : offers) {
            if (!seen.add(p.key())) {
                throw new TextFormatException(TextFormatException.Reason.DUPLICATE_KEY, p.key() + " sent twice");
            }
            Key k = Key.of(p.key());
            if (k == null) {
                out.add(new TextPair(p.key(), Values.NOT_UNDERSTOOD));
                continue;
            }
            checkAllowed(k, phase);
            String mine = offered.remove(k);
            if (mine != null) {
                settle(k, mine, p.value());
                continue;
            }
            if (Values.isSpecial(p.value())) {
                throw new TextFormatException(TextFormatException.Reason.BAD_ANSWER,
                        p + " answers a key this side never offered");
            }
            String answer = answer(k, p.value());
            if (answer != null) {
                out.add(new TextPair(k.wireName(), answer));
            }
        }
        return irrelevantFirstBurst(out);
    }

    /** The negotiated value of {@code k} so far (the peer's declaration for declarative keys), or null. */
    public String value(Key k) {
        return results.get(k);
    }

    /** The parameters negotiated so far, defaults for the rest. */
    public OperationalParameters result() {
        return OperationalParameters.of(results, own);
    }

    /** Whether the peer declared SessionType=Discovery. */
    public boolean discovery() {
        return "Discovery".equals(results.get(Key.SESSION_TYPE));
    }

    // ---------------------------------------------------------------- checks

    private void checkSessionType(String v) throws TextFormatException {
        if (!Key.SESSION_TYPE.knownValues().contains(v)) {
            throw new TextFormatException(TextFormatException.Reason.BAD_VALUE, "SessionType=" + v);
        }
        results.put(Key.SESSION_TYPE, v);
    }

    private void checkAllowed(Key k, Phase phase) throws TextFormatException {
        Key.Sender peer = target ? Key.Sender.INITIATOR : Key.Sender.TARGET;
        String why = null;
        if (k.sender() != Key.Sender.BOTH && k.sender() != peer) {
            why = "only the " + k.sender().toString().toLowerCase() + " sends " + k.wireName();
        } else if (phase == Phase.FULL_FEATURE && k.use() != Key.Use.ALL && k.use() != Key.Use.FULL_FEATURE) {
            why = k.wireName() + " only during login";
        } else if (phase != Phase.FULL_FEATURE && k.use() == Key.Use.FULL_FEATURE) {
            why = k.wireName() + " only in the full feature phase";
        } else if (!leading && k.use() == Key.Use.LEADING) {
            why = k.wireName() + " only in the leading login of a session";
        } else if (phase != Phase.SECURITY && (k == Key.AUTH_METHOD || k.function() == ResultFunction.AUTHENTICATION)) {
            why = k.wireName() + " only in the security stage";
        }
        if (why != null) {
            throw new TextFormatException(TextFormatException.Reason.NOT_ALLOWED, why);
        }
    }

    // ---------------------------------------------------------------- result functions

    /** The answer to one offer, or null when none is due. */
    private String answer(Key k, String offered) throws TextFormatException {
        if (k.irrelevantInDiscovery() && discovery()) {
            return Values.IRRELEVANT;
        }
        return switch (k.function()) {
            case DECLARATIVE -> declare(k, offered);
            case LIST -> list(k, offered);
            case AND, OR -> bool(k, offered);
            case MIN, MAX -> number(k, offered);
            case AUTHENTICATION -> null;
            case OBSOLETE -> Values.REJECT;
        };
    }

    private String declare(Key k, String offered) throws TextFormatException {
        if (k.numerical()) {
            long n = Values.parseNumber(offered);
            if (n < k.min() || n > k.max()) {
                throw new TextFormatException(TextFormatException.Reason.BAD_VALUE, k.wireName() + "=" + offered);
            }
        } else if (offered.isEmpty() && k != Key.SEND_TARGETS) {
            throw new TextFormatException(TextFormatException.Reason.BAD_VALUE, k.wireName() + " is empty");
        }
        results.put(k, offered);
        return null;
    }

    private String ownValue(Key k) {
        return own.getOrDefault(k, k.defaultValue());
    }

    private String list(Key k, String offered) {
        List<String> mine = List.of(ownValue(k).split(","));
        for (String v : offered.split(",", -1)) {
            if (k.knownValues().contains(v) && mine.contains(v)) {
                results.put(k, v);
                return v;
            }
        }
        return Values.REJECT;
    }

    private String bool(Key k, String offered) {
        Boolean theirs = Values.parseBoolean(offered);
        if (theirs == null) {
            return Values.REJECT;
        }
        boolean mine = Values.YES.equals(ownValue(k));
        boolean result = k.function() == ResultFunction.AND ? theirs && mine : theirs || mine;
        String v = Values.bool(result);
        results.put(k, v);
        return v;
    }

    private String number(Key k, String offered) {
        long theirs = Values.parseNumber(offered);
        if (theirs < k.min() || theirs > k.max()) {
            return Values.REJECT;
        }
        long mine = Values.parseNumber(ownValue(k));
        long result = k.function() == ResultFunction.MIN ? Math.min(theirs, mine) : Math.max(theirs, mine);
        if (k == Key.FIRST_BURST_LENGTH) {
            // 13.14: FirstBurstLength MUST NOT exceed MaxBurstLength
            result = Math.min(result, Values.parseNumber(results.getOrDefault(Key.MAX_BURST_LENGTH,
                    ownValue(Key.MAX_BURST_LENGTH))));
        }
        if (k == Key.MAX_BURST_LENGTH && results.containsKey(Key.FIRST_BURST_LENGTH)
                && Values.parseNumber(results.get(Key.FIRST_BURST_LENGTH)) > result) {
            results.put(Key.FIRST_BURST_LENGTH, Long.toString(result));
        }
        String v = Long.toString(result);
        results.put(k, v);
        return v;
    }

    /**
     * The peer's answer to this side's offer {@code mine} (6.2): a special value leaves the key at
     * its default; anything else must be a value the result function can produce from the offer.
     */
    private void settle(Key k, String mine, String answer) throws TextFormatException {
        if (Values.isSpecial(answer)) {
            return;
        }
        String result = switch (k.function()) {
            case LIST -> !answer.contains(",") && List.of(mine.split(",")).contains(answer) ? answer : null;
            case AND, OR -> settleBoolean(k, mine, answer);
            case MIN, MAX -> settleNumber(k, mine, answer);
            default -> null;
        };
        if (result == null) {
            throw new TextFormatException(TextFormatException.Reason.BAD_ANSWER,
                    k.wireName() + "=" + answer + " does not answer the offer " + mine);
        }
        results.put(k, result);
    }

    /** AND can only turn Yes into No, OR only No into Yes. */
    private static String settleBoolean(Key k, String mine, String answer) {
        Boolean theirs = Values.parseBoolean(answer);
        boolean ours = Values.YES.equals(mine);
        if (theirs == null || (k.function() == ResultFunction.AND ? theirs && !ours : !theirs && ours)) {
            return null;
        }
        return answer;
    }

    /** A minimum lies between the key's floor and the offer, a maximum between the offer and the ceiling. */
    private static String settleNumber(Key k, String mine, String answer) {
        long theirs = Values.parseNumber(answer);
        long ours = Values.parseNumber(mine);
        boolean ok = k.function() == ResultFunction.MIN
                ? theirs >= k.min() && theirs <= ours : theirs >= ours && theirs <= k.max();
        return ok ? Long.toString(theirs) : null;
    }

    /**
     * 13.14: FirstBurstLength is Irrelevant when InitialR2T=Yes and ImmediateData=No, which the
     * same text may settle after it; and its answer must follow a MaxBurstLength settled later.
     */
    private List<TextPair> irrelevantFirstBurst(List<TextPair> out) {
        String fbl = Key.FIRST_BURST_LENGTH.wireName();
        boolean irrelevant = Values.YES.equals(results.getOrDefault(Key.INITIAL_R2T, Key.INITIAL_R2T.defaultValue()))
                && Values.NO.equals(results.getOrDefault(Key.IMMEDIATE_DATA, Key.IMMEDIATE_DATA.defaultValue()));
        for (int i = 0; i < out.size(); i++) {
            TextPair p = out.get(i);
            if (p.key().equals(fbl) && !Values.isSpecial(p.value())) {
                out.set(i, new TextPair(fbl, irrelevant ? Values.IRRELEVANT : results.get(Key.FIRST_BURST_LENGTH)));
            }
        }
        return out;
    }
}
