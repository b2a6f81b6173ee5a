package org.rdma.iscsi.internal.target;

/**
 * Serial number arithmetic on 32-bit sequence numbers (RFC 1982, which RFC 7143 4.2.2.1 applies
 * to CmdSN, StatSN, DataSN and R2TSN); Linux's {@code iscsi_sna_lt()} and friends. Two numbers
 * exactly 2^31 apart compare neither way.
 */
final class Sna {
    private Sna() {
    }

    static boolean lt(int a, int b) {
        return b - a > 0;
    }

    static boolean lte(int a, int b) {
        return a == b || lt(a, b);
    }

    static boolean gt(int a, int b) {
        return lt(b, a);
    }
}
