package org.rdma.iscsi.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The key=value data segment (RFC 7143 6.1) and its continuation across PDUs (11.10.2). */
class TextCodecTest {
    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static TextFormatException.Reason failure(String text) {
        return assertThrows(TextFormatException.class, () -> TextCodec.decode(bytes(text))).reason();
    }

    @Test
    void encodesNulTerminatedUtf8Pairs() {
        byte[] b = TextCodec.encode(List.of(new TextPair("InitiatorAlias", "h\u00f6st"), new TextPair("A", "")));
        assertEquals("496e69746961746f72416c6961733d68c3b6737400" + "413d00", HexFormat.of().formatHex(b));
    }

    @Test
    void decodesWhatItEncodes() throws Exception {
        List<TextPair> pairs = List.of(new TextPair("TargetName", "iqn.2003-01.org.rdma:t1"),
                new TextPair("X#NodeArchitecture", "java"), new TextPair("TargetAlias", "a=b"),
                new TextPair("SendTargets", ""));
        assertEquals(pairs, TextCodec.decode(ByteBuffer.wrap(TextCodec.encode(pairs))));
        assertEquals(List.of(), TextCodec.decode(ByteBuffer.allocate(0)));
    }

    @Test
    void eachRuleHasItsReason() {
        assertEquals(TextFormatException.Reason.NO_EQUALS, failure("HeaderDigest\0"));
        assertEquals(TextFormatException.Reason.NOT_TERMINATED, failure("HeaderDigest=None"));
        assertEquals(TextFormatException.Reason.BAD_KEY, failure("=None\0"));
        assertEquals(TextFormatException.Reason.BAD_KEY, failure("Header Digest=None\0"));
        assertEquals(TextFormatException.Reason.KEY_TOO_LONG, failure("K".repeat(64) + "=1\0"));
        assertEquals(TextFormatException.Reason.VALUE_TOO_LONG, failure("TargetAlias=" + "v".repeat(256) + "\0"));
        assertEquals(TextFormatException.Reason.NOT_UTF8, assertThrows(TextFormatException.class,
                () -> TextCodec.decode(ByteBuffer.wrap(new byte[] {'A', '=', (byte) 0xc3, 0}))).reason());
    }

    @Test
    void limitsAreInclusive() throws Exception {
        assertEquals(1, TextCodec.decode(bytes("K".repeat(63) + "=" + "v".repeat(255) + "\0")).size());
        String big = "0x" + "ab".repeat(1024);
        assertEquals(big, TextCodec.decode(bytes("CHAP_C=" + big + "\0")).get(0).value(),
                "a 1024-byte challenge is a large binary value");
        assertEquals(TextFormatException.Reason.VALUE_TOO_LONG, failure("CHAP_C=" + big + "ab\0"));
    }

    @Test
    void continuationSplitsAPairAnywhere() throws Exception {
        byte[] text = TextCodec.encode(List.of(new TextPair("InitiatorName", "iqn.1994-05.com.example:h1"),
                new TextPair("SessionType", "Normal")));
        for (int cut = 0; cut <= text.length; cut++) {
            TextAssembler a = new TextAssembler();
            assertNull(a.add(ByteBuffer.wrap(text, 0, cut), true));
            assertTrue(a.pending() || cut == 0);
            List<TextPair> got = a.add(ByteBuffer.wrap(text, cut, text.length - cut), false);
            assertEquals("Normal", got.get(1).value(), "cut at " + cut);
            assertFalse(a.pending());
        }
    }

    @Test
    void continuationIsBounded() throws Exception {
        TextAssembler a = new TextAssembler(100);
        assertNull(a.add(ByteBuffer.allocate(60), true));
        assertEquals(TextFormatException.Reason.TOO_LONG,
                assertThrows(TextFormatException.class, () -> a.add(ByteBuffer.allocate(41), true)).reason());
        assertFalse(a.pending(), "a refused sequence is dropped");
    }

    @Test
    void outgoingTextIsCutAtTheSegmentLimit() {
        ByteBuffer text = ByteBuffer.allocate(1100);
        ByteBuffer first = TextAssembler.nextSegment(text, 512);
        assertEquals(512, first.remaining());
        assertTrue(text.hasRemaining(), "C set on the first PDU");
        TextAssembler.nextSegment(text, 512);
        ByteBuffer last = TextAssembler.nextSegment(text, 512);
        assertEquals(76, last.remaining());
        assertFalse(text.hasRemaining(), "C clear on the last");
    }
}
