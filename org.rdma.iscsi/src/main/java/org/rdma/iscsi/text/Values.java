package org.rdma.iscsi.text;

import java.util.Base64;
import java.util.HexFormat;

/**
 * The value encodings of RFC 7143 6.1: numerical values (decimal, hex "0x", base64 "0b"),
 * binary values (hex or base64 constants, any length up to the text limits), the Yes/No of
 * boolean keys and the special answers. Parsers return a sentinel instead of throwing, because
 * a bad value is an answer ("Reject"), not a failure.
 */
public final class Values {
    public static final String YES = "Yes";
    public static final String NO = "No";
    public static final String REJECT = "Reject";
    public static final String IRRELEVANT = "Irrelevant";
    public static final String NOT_UNDERSTOOD = "NotUnderstood";
    public static final String NONE = "None";

    private Values() {
    }

    /** The special values a responder answers with; they are no proposal. */
    public static boolean isSpecial(String v) {
        return REJECT.equals(v) || IRRELEVANT.equals(v) || NOT_UNDERSTOOD.equals(v);
    }

    /**
     * A numerical value (6.1: decimal-constant, hex-constant or base64-constant, at most 64 bits),
     * or -1 when malformed or above {@link Long#MAX_VALUE}.
     */
    public static long parseNumber(String v) {
        if (v.startsWith("0x") || v.startsWith("0X") || v.startsWith("0b") || v.startsWith("0B")) {
            byte[] b = parseBinary(v);
            if (b == null || b.length == 0 || b.length > 8) {
                return -1;
            }
            long n = 0;
            for (byte x : b) {
                n = n << 8 | x & 0xff;
            }
            return n;
        }
        if (v.isEmpty() || v.length() > 19) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n < 0 ? -1 : n;
    }

    /** A boolean value: TRUE for "Yes", FALSE for "No", null for anything else. */
    public static Boolean parseBoolean(String v) {
        return YES.equals(v) ? Boolean.TRUE : NO.equals(v) ? Boolean.FALSE : null;
    }

    public static String bool(boolean b) {
        return b ? YES : NO;
    }

    /**
     * A binary value (6.1): "0x"/"0X" and hex digits (an odd count is padded with a leading 0, as
     * the RFC's hex-constant allows), or "0b"/"0B" and base64; null when malformed.
     */
    public static byte[] parseBinary(String v) {
        if (v.length() < 3) {
            return null;
        }
        String body = v.substring(2);
        try {
            switch (v.substring(0, 2)) {
                case "0x", "0X" -> {
                    return HexFormat.of().parseHex(body.length() % 2 == 0 ? body : "0" + body);
                }
                case "0b", "0B" -> {
                    return Base64.getDecoder().decode(body);
                }
                default -> {
                    return null;
                }
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Encodes {@code b} as a hex-constant ("0x" and lower-case digits). */
    public static String hex(byte[] b) {
        return "0x" + HexFormat.of().formatHex(b);
    }

    /** Encodes {@code b} as a base64-constant ("0b" and base64 with padding). */
    public static String base64(byte[] b) {
        return "0b" + Base64.getEncoder().encodeToString(b);
    }
}
