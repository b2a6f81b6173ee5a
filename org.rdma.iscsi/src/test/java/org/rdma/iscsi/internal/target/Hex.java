package org.rdma.iscsi.internal.target;

import java.util.HexFormat;

/** Byte layouts written as the RFC's figures show them: hex words, spaces ignored. */
final class Hex {
    private Hex() {
    }

    static byte[] bytes(String words) {
        return HexFormat.of().parseHex(words.replace(" ", ""));
    }

    /** Eight hex digits per word, a space between words, for readable assertion messages. */
    static String words(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < b.length; i++) {
            if (i > 0 && i % 4 == 0) {
                s.append(' ');
            }
            s.append(String.format("%02x", b[i]));
        }
        return s.toString();
    }
}
