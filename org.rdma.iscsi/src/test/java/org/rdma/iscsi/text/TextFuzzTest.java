package org.rdma.iscsi.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The text of Login and Text PDUs as a peer may send it: byte 0 chooses the phase and whether the
 * login is a leading one, byte 1 the data segment size it arrives in (with the C bit on all but the
 * last), the rest is the text. Only {@link TextFormatException} may come out; decoded pairs encode
 * back to the same pairs; the negotiator answers only keys that were offered, once each, and its
 * numerical answers are inside their key's range.
 */
class TextFuzzTest {

    @FuzzTest
    void decodeAndNegotiate(byte[] input) {
        if (input.length < 2) {
            return;
        }
        Negotiator.Phase phase = Negotiator.Phase.values()[(input[0] & 0xff) % 3];
        boolean leading = (input[0] & 4) == 0;
        int segment = 1 + (input[1] & 0xff);
        ByteBuffer text = ByteBuffer.wrap(input, 2, input.length - 2);
        TextAssembler assembler = new TextAssembler(4096);
        List<TextPair> pairs = null;
        try {
            do {
                ByteBuffer seg = TextAssembler.nextSegment(text, segment);
                pairs = assembler.add(seg, text.hasRemaining());
            } while (text.hasRemaining());
        } catch (TextFormatException e) {
            return;
        }
        try {
            assertEquals(pairs, TextCodec.decode(ByteBuffer.wrap(TextCodec.encode(pairs))));
        } catch (TextFormatException e) {
            throw new AssertionError("what was decoded does not decode again: " + e.getMessage(), e);
        }
        Negotiator n = new Negotiator(NegotiatorTest.OWN, leading, true);
        List<TextPair> answers;
        try {
            answers = n.respond(pairs, phase);
        } catch (TextFormatException e) {
            return;
        }
        Set<String> offered = new HashSet<>();
        pairs.forEach(p -> offered.add(p.key()));
        Set<String> answered = new HashSet<>();
        for (TextPair a : answers) {
            assertTrue(offered.contains(a.key()), "answered a key not offered: " + a);
            assertTrue(answered.add(a.key()), "answered twice: " + a);
            Key k = Key.of(a.key());
            if (k != null && k.numerical() && !Values.isSpecial(a.value())) {
                long v = Values.parseNumber(a.value());
                assertTrue(v >= k.min() && v <= k.max(), "answer outside the range: " + a);
            }
        }
        n.result();
    }
}
