package org.rdma.cm.internal.ib;

/** The IBTA time encodings the CM computes with (IBTA vol. 1, 12.7.2 and 13.4.6.2). */
final class CmTime {
    /** The largest 5-bit time exponent. */
    static final int MAX_EXPONENT = 31;

    private CmTime() {
    }

    /**
     * 4.096 us * 2^{@code t} in whole milliseconds, rounded up and at least 1: a CM response
     * timeout, packet life time or service timeout as a MAD layer timeout
     * ({@code cm_convert_to_ms()}, which approximates 2^(t-8) ms).
     */
    static int toMs(int t) {
        int e = Math.max(0, Math.min(t, MAX_EXPONENT));
        long ns = 4096L << e;
        return (int) Math.max(1, (ns + 999_999) / 1_000_000);
    }

    /**
     * {@code cm_ack_timeout()}: the local ACK timeout exponent covering the peer's ACK delay
     * plus a round trip of the path (4.096 us * 2^ack = 4.096 us * 2^delay + 2 * 4.096 us *
     * 2^lifetime). One more than the larger term is enough when the other is much smaller;
     * when both are close, one more again.
     */
    static int ackTimeout(int caAckDelay, int packetLifeTime) {
        int roundTrip = packetLifeTime + 1;
        int t;
        if (roundTrip >= caAckDelay) {
            t = roundTrip + (caAckDelay >= roundTrip - 1 ? 1 : 0);
        } else {
            t = caAckDelay + (roundTrip >= caAckDelay - 1 ? 1 : 0);
        }
        return Math.min(MAX_EXPONENT, t);
    }
}
