package org.rdma.iscsi.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.LoginStatus;

/** CHAP with MD5 (RFC 1994 4.1, RFC 7143 12.1.3); the expected digests were computed apart with MD5. */
class ChapAuthenticatorTest {
    static final String CHALLENGE = FixedRandom.CHALLENGE;
    static final String RESPONSE = "0xa5cd4c4cc5e63021e6da5072644eb7bf";

    private static ChapAuthenticator.Credentials cred(String name, String secret) {
        return new ChapAuthenticator.Credentials(name, secret.getBytes(StandardCharsets.US_ASCII));
    }

    private final ChapAuthenticator chap = new ChapAuthenticator(cred("iqn.initiator", "initiatorsecret1"),
            cred("iqn.target", "targetsecret123"), new FixedRandom());

    @Test
    void challengeWithMd5IdentifierAndRandomBytes() throws Exception {
        assertEquals(List.of(new TextPair("CHAP_A", "5"), new TextPair("CHAP_I", "42"),
                new TextPair("CHAP_C", CHALLENGE)), chap.chapA("7,5"));
    }

    @Test
    void oneWayInHexAndInBase64() throws Exception {
        chap.chapA("5");
        assertEquals(List.of(), chap.verify(Map.of("CHAP_N", "iqn.initiator", "CHAP_R", RESPONSE)));
        ChapAuthenticator again = new ChapAuthenticator(cred("iqn.initiator", "initiatorsecret1"), null,
                new FixedRandom());
        again.chapA("5");
        assertEquals(List.of(), again.verify(Map.of("CHAP_N", "iqn.initiator", "CHAP_R",
                "0bpc1MTMXmMCHm2lByZE63vw==")));
    }

    @Test
    void mutualAnswersTheInitiatorsChallenge() throws Exception {
        chap.chapA("5");
        assertEquals(List.of(new TextPair("CHAP_N", "iqn.target"),
                new TextPair("CHAP_R", "0x04e59d1ce3735653f13cb7e34085b0d9")),
                chap.verify(Map.of("CHAP_N", "iqn.initiator", "CHAP_R", RESPONSE, "CHAP_I", "7",
                        "CHAP_C", "0xa0a1a2a3a4a5a6a7a8a9aaabacadaeaf")));
    }

    private LoginStatus failure(Map<String, String> keys) throws Exception {
        chap.chapA("5");
        return assertThrows(ChapException.class, () -> chap.verify(keys)).status();
    }

    @Test
    void wrongResponseOrNameIsAnAuthenticationFailure() throws Exception {
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE,
                failure(Map.of("CHAP_N", "iqn.initiator", "CHAP_R", "0xa5cd4c4cc5e63021e6da5072644eb7be")));
    }

    @Test
    void wrongNameIsAnAuthenticationFailure() throws Exception {
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, failure(Map.of("CHAP_N", "iqn.other", "CHAP_R", RESPONSE)));
    }

    @Test
    void reflectedChallengeIsRefused() throws Exception {
        ChapException e = assertThrows(ChapException.class, () -> {
            chap.chapA("5");
            chap.verify(Map.of("CHAP_N", "iqn.initiator", "CHAP_R", RESPONSE, "CHAP_I", "42", "CHAP_C", CHALLENGE));
        });
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, e.status());
        assertTrue(e.getMessage().contains("reflected"), e.getMessage());
    }

    @Test
    void identifierOutOfRangeOrMalformedChallenge() throws Exception {
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, failure(Map.of("CHAP_N", "iqn.initiator",
                "CHAP_R", RESPONSE, "CHAP_I", "256", "CHAP_C", "0xa0a1")));
    }

    @Test
    void malformedChallenge() throws Exception {
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, failure(Map.of("CHAP_N", "iqn.initiator",
                "CHAP_R", RESPONSE, "CHAP_I", "1", "CHAP_C", "0xzz")));
    }

    @Test
    void mutualWithoutTargetCredentials() throws Exception {
        ChapAuthenticator oneWay = new ChapAuthenticator(cred("iqn.initiator", "initiatorsecret1"), null,
                new FixedRandom());
        oneWay.chapA("5");
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE, assertThrows(ChapException.class, () -> oneWay.verify(
                Map.of("CHAP_N", "iqn.initiator", "CHAP_R", RESPONSE, "CHAP_I", "1", "CHAP_C", "0xa0a1")))
                .status());
    }

    @Test
    void missingResponseIsAMissingParameter() throws Exception {
        assertEquals(LoginStatus.MISSING_PARAMETER, failure(Map.of("CHAP_N", "iqn.initiator")));
    }

    @Test
    void noMd5OfferedOrOrderBroken() {
        assertEquals(LoginStatus.AUTHENTICATION_FAILURE,
                assertThrows(ChapException.class, () -> chap.chapA("6,7")).status());
        assertThrows(ChapException.class, () -> chap.verify(Map.of("CHAP_N", "x", "CHAP_R", RESPONSE)),
                "CHAP_R before the challenge");
    }

    @Test
    void chapATwice() throws Exception {
        chap.chapA("5");
        assertThrows(ChapException.class, () -> chap.chapA("5"));
    }
}
