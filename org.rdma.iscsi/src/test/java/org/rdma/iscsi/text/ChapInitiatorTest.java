package org.rdma.iscsi.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The initiator's CHAP (RFC 7143 12.1.3) against the target's {@link ChapAuthenticator}. */
class ChapInitiatorTest {
    private static ChapAuthenticator.Credentials cred(String name, String secret) {
        return new ChapAuthenticator.Credentials(name, secret.getBytes(StandardCharsets.US_ASCII));
    }

    static final ChapAuthenticator.Credentials INITIATOR = cred("iqn.initiator", "initiatorsecret1");
    static final ChapAuthenticator.Credentials TARGET = cred("iqn.target", "targetsecret123");

    private static Map<String, String> keys(List<TextPair> pairs) {
        Map<String, String> m = new HashMap<>();
        pairs.forEach(p -> m.put(p.key(), p.value()));
        return m;
    }

    @Test
    void answersTheChallengeWithTheRfc1994Digest() throws Exception {
        ChapInitiator i = new ChapInitiator(INITIATOR, null, new Random(1));
        assertEquals(new TextPair("CHAP_A", "5"), i.chapA());
        assertEquals(List.of(new TextPair("CHAP_N", "iqn.initiator"), new TextPair("CHAP_R", ChapAuthenticatorTest.RESPONSE)),
                i.respond(Map.of("CHAP_A", "5", "CHAP_I", "42", "CHAP_C", ChapAuthenticatorTest.CHALLENGE)),
                "the digest ChapAuthenticatorTest checks for identifier 42 and challenge 00..0f");
    }

    @Test
    void mutualRoundTripWithTheTarget() throws Exception {
        ChapAuthenticator target = new ChapAuthenticator(INITIATOR, TARGET, new FixedRandom());
        ChapInitiator i = new ChapInitiator(INITIATOR, TARGET, new FixedRandom());
        List<TextPair> answer = i.respond(keys(target.chapA("5")));
        assertEquals(List.of("CHAP_N", "CHAP_R", "CHAP_I", "CHAP_C"), answer.stream().map(TextPair::key).toList());
        assertEquals(new TextPair("CHAP_C", "0x010102030405060708090a0b0c0d0e0f"), answer.get(3),
                "the same random bytes as the target's challenge are altered, never reflected");
        i.verify(keys(target.verify(keys(answer))));
    }

    @Test
    void aTargetThatDoesNotKnowTheSecretFails() throws Exception {
        ChapAuthenticator impostor = new ChapAuthenticator(INITIATOR, cred("iqn.target", "notthesecret1"),
                new FixedRandom());
        ChapInitiator i = new ChapInitiator(INITIATOR, TARGET, new Random(7));
        List<TextPair> answer = i.respond(keys(impostor.chapA("5")));
        Map<String, String> back = keys(impostor.verify(keys(answer)));
        ChapException e = assertThrows(ChapException.class, () -> i.verify(back));
        assertTrue(e.getMessage().startsWith("EACCES"), e.getMessage());
        Map<String, String> otherName = new HashMap<>(back);
        otherName.put("CHAP_N", "iqn.other");
        assertThrows(ChapException.class, () -> i.verify(otherName));
    }

    @Test
    void badChallengesAndOrder() throws Exception {
        ChapInitiator i = new ChapInitiator(INITIATOR, TARGET, new Random(3));
        assertThrows(ChapException.class, () -> i.verify(Map.of("CHAP_N", "iqn.target", "CHAP_R", "0x00")),
                "an answer before this side challenged");
        assertThrows(ChapException.class, () -> i.respond(Map.of("CHAP_A", "7", "CHAP_I", "1", "CHAP_C", "0x01")),
                "an algorithm never offered");
        assertThrows(ChapException.class, () -> i.respond(Map.of("CHAP_A", "5", "CHAP_I", "1")), "no challenge");
        assertThrows(ChapException.class, () -> i.respond(Map.of("CHAP_A", "5", "CHAP_I", "256", "CHAP_C", "0x01")));
        assertThrows(ChapException.class, () -> i.respond(Map.of("CHAP_A", "5", "CHAP_I", "1", "CHAP_C", "0xzz")));
        i.respond(Map.of("CHAP_A", "5", "CHAP_I", "1", "CHAP_C", "0x0102"));
        assertThrows(ChapException.class, () -> i.respond(Map.of("CHAP_A", "5", "CHAP_I", "1", "CHAP_C", "0x0102")),
                "a second challenge");
        assertThrows(ChapException.class, () -> i.verify(Map.of("CHAP_N", "iqn.target")), "no CHAP_R");
    }
}
