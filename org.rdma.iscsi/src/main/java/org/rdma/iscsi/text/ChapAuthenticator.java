package org.rdma.iscsi.text;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.rdma.iscsi.pdu.LoginStatus;

/**
 * The target's side of CHAP in the security stage (RFC 7143 12.1.3 over RFC 1994; Linux's
 * iscsi_target_auth.c {@code chap_server_open()}, {@code chap_server_compute_hash()}): it
 * answers the initiator's CHAP_A with MD5 (5), an identifier and a random challenge, checks
 * CHAP_N and CHAP_R against the initiator's credentials, and for mutual CHAP answers the
 * initiator's CHAP_I and CHAP_C with its own name and response, refusing a challenge that
 * reflects its own. Binary values are read in hex or base64 and written in hex. One per login.
 */
public final class ChapAuthenticator {
    /** CHAP_A's value for MD5 (RFC 1994, IANA PPP authentication algorithms). */
    public static final int MD5 = 5;
    /** The length of the target's challenge (Linux's CHAP_CHALLENGE_LENGTH). */
    public static final int CHALLENGE_LENGTH = 16;

    /** A CHAP name and secret. */
    public record Credentials(String name, byte[] secret) {
        public Credentials {
            secret = secret.clone();
        }
    }

    private final Credentials initiator;
    private final Credentials mutual;
    private final Random random;
    private int identifier = -1;
    private byte[] challenge;

    /**
     * @param initiator the name and secret the initiator must prove
     * @param mutual the target's own name and secret for mutual CHAP, or null (then an initiator
     *     asking for mutual CHAP fails)
     * @param random the source of identifiers and challenges (a SecureRandom outside tests)
     */
    public ChapAuthenticator(Credentials initiator, Credentials mutual, Random random) {
        this.initiator = initiator;
        this.mutual = mutual;
        this.random = random;
    }

    /**
     * Answers CHAP_A: MD5 if offered, with CHAP_I and CHAP_C.
     *
     * @throws ChapException AUTHENTICATION_FAILURE when MD5 is not offered or CHAP_A came twice
     */
    public List<TextPair> chapA(String offered) throws ChapException {
        if (challenge != null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_A after the challenge");
        }
        if (!Arrays.asList(offered.split(",")).contains(Integer.toString(MD5))) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_A=" + offered + " without MD5 (5)");
        }
        identifier = random.nextInt(256);
        challenge = new byte[CHALLENGE_LENGTH];
        random.nextBytes(challenge);
        return List.of(new TextPair("CHAP_A", Integer.toString(MD5)),
                new TextPair("CHAP_I", Integer.toString(identifier)),
                new TextPair("CHAP_C", Values.hex(challenge)));
    }

    /**
     * Checks the initiator's CHAP_N and CHAP_R and, if it sent CHAP_I and CHAP_C, answers them.
     *
     * @param keys the pairs of the initiator's PDU, by key
     * @return the target's CHAP_N and CHAP_R for mutual CHAP, else an empty list
     * @throws ChapException MISSING_PARAMETER without CHAP_N or CHAP_R, AUTHENTICATION_FAILURE
     *     for a wrong name or response, a malformed value, a reflected challenge or mutual CHAP
     *     the target has no credentials for
     */
    public List<TextPair> verify(Map<String, String> keys) throws ChapException {
        if (challenge == null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_R before CHAP_A");
        }
        String name = keys.get("CHAP_N");
        String response = keys.get("CHAP_R");
        if (name == null || response == null) {
            throw new ChapException(LoginStatus.MISSING_PARAMETER, "CHAP_N and CHAP_R are required");
        }
        byte[] got = Values.parseBinary(response);
        if (got == null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_R is not a binary value");
        }
        byte[] expected = response(identifier, initiator.secret(), challenge);
        if (!name.equals(initiator.name()) || !MessageDigest.isEqual(expected, got)) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_N or CHAP_R does not match");
        }
        String peerId = keys.get("CHAP_I");
        String peerChallenge = keys.get("CHAP_C");
        if (peerId == null && peerChallenge == null) {
            return List.of();
        }
        return answerMutual(peerId, peerChallenge);
    }

    private List<TextPair> answerMutual(String peerId, String peerChallenge) throws ChapException {
        if (peerId == null || peerChallenge == null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "mutual CHAP needs both CHAP_I and CHAP_C");
        }
        if (mutual == null) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "no credentials for mutual CHAP");
        }
        long id = Values.parseNumber(peerId);
        byte[] c = Values.parseBinary(peerChallenge);
        if (id < 0 || id > 255 || c == null || c.length == 0) {
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "CHAP_I or CHAP_C malformed");
        }
        if (Arrays.equals(c, challenge)) {
            // 12.1.3: a target MUST NOT answer its own challenge back (reflection attack)
            throw new ChapException(LoginStatus.AUTHENTICATION_FAILURE, "the initiator reflected the challenge");
        }
        return List.of(new TextPair("CHAP_N", mutual.name()),
                new TextPair("CHAP_R", Values.hex(response((int) id, mutual.secret(), c))));
    }

    /** The identifier sent with CHAP_A, or -1 before. */
    public int identifier() {
        return identifier;
    }

    /** A copy of the challenge sent with CHAP_A, or null before. */
    public byte[] challenge() {
        return challenge == null ? null : challenge.clone();
    }

    /** RFC 1994 4.1: MD5 over the identifier byte, the secret and the challenge. */
    public static byte[] response(int identifier, byte[] secret, byte[] challenge) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update((byte) identifier);
            md5.update(secret);
            md5.update(challenge);
            return md5.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("ENOSYS: MD5 is missing from this JDK", e);
        }
    }
}
