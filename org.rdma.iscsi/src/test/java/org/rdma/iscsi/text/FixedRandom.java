package org.rdma.iscsi.text;

import java.util.Random;

/** A Random for CHAP tests: identifier 0x2a and challenge 00..0f, so the expected digests are known. */
public final class FixedRandom extends Random {
    private static final long serialVersionUID = 1L;
    /** The challenge it makes, as CHAP_C carries it. */
    public static final String CHALLENGE = "0x000102030405060708090a0b0c0d0e0f";

    @Override
    public int nextInt(int bound) {
        return 0x2a;
    }

    @Override
    public void nextBytes(byte[] b) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) i;
        }
    }
}
