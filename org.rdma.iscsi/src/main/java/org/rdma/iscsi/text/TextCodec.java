package org.rdma.iscsi.text;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The key=value text of Login and Text data segments (RFC 7143 6.1; Linux's
 * {@code iscsi_extract_key_value()} and {@code iscsi_decode_text_input()}): UTF-8 pairs, each
 * ended by a NUL, keys of at most 63 bytes from a-z A-Z 0-9 . - + @ _ (and the # of X# keys), values of at most 255
 * bytes except the large binary values of CHAP_C and CHAP_R.
 */
public final class TextCodec {
    /** RFC 7143 6.1: key names are at most 63 bytes. */
    public static final int MAX_KEY_LENGTH = 63;
    /** RFC 7143 6.1: values are at most 255 bytes unless their key says otherwise. */
    public static final int MAX_VALUE_LENGTH = 255;
    /**
     * CHAP_C and CHAP_R carry large binary values (RFC 7143 6.1, 12.1.3): a 1024-byte challenge
     * as "0x" and 2048 hex digits fits; longer ones are refused.
     */
    public static final int MAX_BINARY_VALUE_LENGTH = 2 + 2 * 1024;

    private TextCodec() {
    }

    /** Encodes the pairs, each as key=value and a NUL. */
    public static byte[] encode(List<TextPair> pairs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (TextPair p : pairs) {
            out.writeBytes(p.key().getBytes(StandardCharsets.UTF_8));
            out.write('=');
            out.writeBytes(p.value().getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    /**
     * Decodes a whole text (the data segments of a C-bit sequence joined), from {@code text}'s
     * position to its limit; the position does not move.
     *
     * @throws TextFormatException with the rule the text breaks
     */
    public static List<TextPair> decode(ByteBuffer text) throws TextFormatException {
        List<TextPair> pairs = new ArrayList<>();
        int end = text.limit();
        int at = text.position();
        if (at < end && text.get(end - 1) != 0) {
            throw new TextFormatException(TextFormatException.Reason.NOT_TERMINATED,
                    "the text does not end with a NUL");
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        while (at < end) {
            int nul = at;
            while (text.get(nul) != 0) {
                nul++;
            }
            int eq = at;
            while (eq < nul && text.get(eq) != '=') {
                eq++;
            }
            if (eq == nul) {
                throw new TextFormatException(TextFormatException.Reason.NO_EQUALS,
                        "pair " + (pairs.size() + 1) + " has no '='");
            }
            String key = key(text, at, eq);
            int valueLength = nul - eq - 1;
            int limit = key.equals("CHAP_C") || key.equals("CHAP_R") ? MAX_BINARY_VALUE_LENGTH : MAX_VALUE_LENGTH;
            if (valueLength > limit) {
                throw new TextFormatException(TextFormatException.Reason.VALUE_TOO_LONG,
                        key + " has a value of " + valueLength + " bytes, more than " + limit);
            }
            pairs.add(new TextPair(key, utf8(utf8, text, eq + 1, nul)));
            at = nul + 1;
        }
        return pairs;
    }

    private static String key(ByteBuffer text, int from, int to) throws TextFormatException {
        if (to - from > MAX_KEY_LENGTH) {
            throw new TextFormatException(TextFormatException.Reason.KEY_TOO_LONG,
                    "a key of " + (to - from) + " bytes");
        }
        if (to == from) {
            throw new TextFormatException(TextFormatException.Reason.BAD_KEY, "an empty key");
        }
        char[] k = new char[to - from];
        for (int i = from; i < to; i++) {
            int c = text.get(i) & 0xff;
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '.' || c == '-' || c == '+' || c == '@' || c == '_' || c == '#')) {
                throw new TextFormatException(TextFormatException.Reason.BAD_KEY,
                        String.format("byte 0x%02x in a key", c));
            }
            k[i - from] = (char) c;
        }
        return new String(k);
    }

    private static String utf8(CharsetDecoder utf8, ByteBuffer text, int from, int to) throws TextFormatException {
        try {
            CharBuffer chars = utf8.decode(text.duplicate().limit(to).position(from));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new TextFormatException(TextFormatException.Reason.NOT_UTF8, "a value that is not UTF-8");
        }
    }
}
