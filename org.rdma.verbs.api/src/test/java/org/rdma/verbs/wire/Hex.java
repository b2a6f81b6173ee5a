package org.rdma.verbs.wire;

import java.util.HexFormat;

/** Test helper: hex strings with arbitrary whitespace to bytes and back. */
final class Hex {

    private Hex() {
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    }

    static String str(byte[] b, int off, int len) {
        return HexFormat.ofDelimiter(" ").formatHex(b, off, off + len);
    }

    static String str(byte[] b) {
        return str(b, 0, b.length);
    }
}
