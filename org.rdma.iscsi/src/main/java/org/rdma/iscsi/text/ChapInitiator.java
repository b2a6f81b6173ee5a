package org.rdma.iscsi.text;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.rdma.iscsi.pdu.LoginStatus;

/**
 * The initiator's side of CHAP in the security stage (RFC 7143 12.1.3 over RFC 1994; open-iscsi's
 * auth client, libiscsi's {@code iscsi_login_add_chap_response()}): it asks for MD5, answers the
 * target's CHAP_I and CHAP_C with its name and response, and for mutual CHAP sends its own
 * identifier and challenge and checks the target's CHAP_N and CHAP_R. Every fault is a
 * {@link ChapException}; the initiator then closes the connection (12.1.3). One per login.
 */
public final class ChapInitiator {
    private final ChapAuthenticator.Credentials own;
    private final ChapAuthenticator.Credentials target;
    private final Random random;
    private int identifier = -1;
    private byte[] challenge;
    private boolean answered;

    /**
     * @param own the name and secret this initiator proves
     * @param target the name and secret the target must prove for mutual CHAP, or null (one-way)
     * @param random the source of the mutual identifier and challenge (a SecureRandom outside tests)
     */
    public ChapInitiator(ChapAuthenticator.Credentials own, ChapAuthenticator.Credentials target, Random random) {
        this.own = own;
        this.target = target;
        this.random = random;
    }

    /** Whether the target must authenticate itself too. */
    public boolean mutual() {
        return target != null;
    }

    /** The first CHAP key: MD5 is the only algorithm offered. */
    public TextPair chapA() {
        return new TextPair("CHAP_A", Integer.toString(ChapAuthenticator.MD5));
    }

    /**
     * Answers the target's CHAP_A, CHAP_I and CHAP_C.
     *
     * @param keys the CHAP pairs of the target's response, by key
     * @return CHAP_N and CHAP_R, then CHAP_I and CHAP_C when mutual
     * @throws ChapException when the target chose another algorithm, a value is missing or
     *     malformed, or the challenge came twice
     */
    public List<TextPair> respond(Map<String, String> keys) throws ChapException {
        if (answered) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "a second CHAP challenge");
        }
        if (!Integer.toString(ChapAuthenticator.MD5).equals(keys.get("CHAP_A"))) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE,
                    "the target chose CHAP_A=" + keys.get("CHAP_A") + ", not MD5 (5)");
        }
        String id = keys.get("CHAP_I");
        String c = keys.get("CHAP_C");
        long targetId = id == null ? -1 : Values.parseNumber(id);
        byte[] targetChallenge = c == null ? null : Values.parseBinary(c);
        if (targetId < 0 || targetId > 255 || targetChallenge == null || targetChallenge.length == 0) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_I or CHAP_C missing or malformed");
        }
        answered = true;
        List<TextPair> out = new ArrayList<>(List.of(new TextPair("CHAP_N", own.name()), new TextPair("CHAP_R",
                Values.hex(ChapAuthenticator.response((int) targetId, own.secret(), targetChallenge)))));
        if (target != null) {
            identifier = random.nextInt(256);
            challenge = new byte[ChapAuthenticator.CHALLENGE_LENGTH];
            random.nextBytes(challenge);
            if (Arrays.equals(challenge, targetChallenge)) {
                challenge[0] ^= 1; // 12.1.3: never hand the target its own challenge back to answer
            }
            out.add(new TextPair("CHAP_I", Integer.toString(identifier)));
            out.add(new TextPair("CHAP_C", Values.hex(challenge)));
        }
        return out;
    }

    /**
     * Checks the target's answer to the mutual challenge.
     *
     * @throws ChapException when CHAP_N or CHAP_R is missing, names another target or does not match
     */
    public void verify(Map<String, String> keys) throws ChapException {
        if (challenge == null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE,
                    "the target sent CHAP_N/CHAP_R without being challenged");
        }
        String name = keys.get("CHAP_N");
        byte[] got = keys.get("CHAP_R") == null ? null : Values.parseBinary(keys.get("CHAP_R"));
        if (name == null || got == null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "the target's CHAP_N or CHAP_R is missing");
        }
        byte[] expected = ChapAuthenticator.response(identifier, target.secret(), challenge);
        if (!name.equals(target.name()) || !MessageDigest.isEqual(expected, got)) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE,
                    "the target's CHAP_N or CHAP_R does not match: it did not prove itself");
        }
    }
}
