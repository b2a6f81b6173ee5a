package org.rdma.rvt.internal.qp;

import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.verbs.QpType;
import org.rdma.verbs.WrOpcode;

/**
 * The send work request table: for each {@link WrOpcode} what it is (send, write, read, atomic,
 * local), on which QP types it may be posted, and the BTH operation codes of its packets
 * (ONLY, FIRST, MIDDLE, LAST). The requester picks codes from here; nothing switches on opcodes.
 */
final class WrKinds {
    private WrKinds() {
    }

    /** A local operation (REG_MR, LOCAL_INV, BIND_MW): executed by the requester, no packet. */
    static final int LOCAL = 1 << 23;
    /** Carries immediate data. */
    static final int IMM = 1 << 24;

    static final int ON_RC = 1;
    static final int ON_UC = 1 << 1;
    static final int ON_UD = 1 << 2;

    private static final int N = WrOpcode.values().length;
    private static final int[] MASK = new int[N];
    private static final int[] TYPES = new int[N];
    private static final int[][] CODES = new int[N][];

    /** Per {@link QpType}: its ON_* bit (0 for types nothing may be posted on). */
    private static final int[] ON = new int[QpType.values().length];

    static {
        for (QpType t : QpType.values()) {
            switch (t) {
                case RC: ON[t.ordinal()] = ON_RC; break;
                case UC: ON[t.ordinal()] = ON_UC; break;
                case UD: case GSI: case SMI: ON[t.ordinal()] = ON_UD; break;
                default: break;
            }
        }
        def(WrOpcode.RDMA_WRITE, Opcodes.WRITE, ON_RC | ON_UC, Opcodes.WRITE_ONLY, Opcodes.WRITE_FIRST,
                Opcodes.WRITE_MIDDLE, Opcodes.WRITE_LAST);
        def(WrOpcode.RDMA_WRITE_WITH_IMM, Opcodes.WRITE | IMM, ON_RC | ON_UC, Opcodes.WRITE_ONLY_IMM,
                Opcodes.WRITE_FIRST, Opcodes.WRITE_MIDDLE, Opcodes.WRITE_LAST_IMM);
        def(WrOpcode.SEND, Opcodes.SEND, ON_RC | ON_UC | ON_UD, Opcodes.SEND_ONLY, Opcodes.SEND_FIRST,
                Opcodes.SEND_MIDDLE, Opcodes.SEND_LAST);
        def(WrOpcode.SEND_WITH_IMM, Opcodes.SEND | IMM, ON_RC | ON_UC | ON_UD, Opcodes.SEND_ONLY_IMM,
                Opcodes.SEND_FIRST, Opcodes.SEND_MIDDLE, Opcodes.SEND_LAST_IMM);
        def(WrOpcode.SEND_WITH_INV, Opcodes.SEND | Opcodes.INV, ON_RC | ON_UC, Opcodes.SEND_ONLY_INV,
                Opcodes.SEND_FIRST, Opcodes.SEND_MIDDLE, Opcodes.SEND_LAST_INV);
        def(WrOpcode.RDMA_READ, Opcodes.READ, ON_RC, Opcodes.READ_REQUEST, -1, -1, -1);
        def(WrOpcode.ATOMIC_CMP_AND_SWP, Opcodes.ATOMIC, ON_RC, Opcodes.COMPARE_SWAP, -1, -1, -1);
        def(WrOpcode.ATOMIC_FETCH_AND_ADD, Opcodes.ATOMIC, ON_RC, Opcodes.FETCH_ADD, -1, -1, -1);
        def(WrOpcode.LOCAL_INV, LOCAL, ON_RC | ON_UC, -1, -1, -1, -1);
        def(WrOpcode.REG_MR, LOCAL, ON_RC | ON_UC, -1, -1, -1, -1);
        def(WrOpcode.REG_MR_INTEGRITY, LOCAL, ON_RC | ON_UC, -1, -1, -1, -1);
        def(WrOpcode.BIND_MW, LOCAL, ON_RC | ON_UC, -1, -1, -1, -1);
    }

    private static void def(WrOpcode op, int mask, int types, int only, int first, int middle, int last) {
        MASK[op.ordinal()] = mask;
        TYPES[op.ordinal()] = types;
        CODES[op.ordinal()] = new int[] {only, first, middle, last};
    }

    static int mask(WrOpcode op) {
        return MASK[op.ordinal()];
    }

    /** Whether {@code op} may be posted on a QP of {@code type}. */
    static boolean allowed(WrOpcode op, QpType type) {
        return (TYPES[op.ordinal()] & ON[type.ordinal()]) != 0;
    }

    /** The BTH operation code for a packet: {@code first} and {@code last} say where it sits in the message. */
    static int code(WrOpcode op, boolean first, boolean last) {
        int[] c = CODES[op.ordinal()];
        if (c[1] < 0) {
            return c[0];
        }
        return first ? (last ? c[0] : c[1]) : (last ? c[3] : c[2]);
    }

    /** The transport prefix for a QP type. */
    static int prefix(QpType type) {
        switch (type) {
            case RC: return Opcodes.RC;
            case UC: return Opcodes.UC;
            default: return Opcodes.UD;
        }
    }
}
