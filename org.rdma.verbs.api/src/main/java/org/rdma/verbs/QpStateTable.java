package org.rdma.verbs;

import static org.rdma.verbs.QpAttrMask.*;

import java.util.EnumMap;
import java.util.Map;

/**
 * The QP state transition table of IBTA chapter 10.3 as the kernel encodes it
 * ({@code qp_state_table} in {@code drivers/infiniband/core/verbs.c}): for each (current,
 * next) pair, whether the transition exists and, per QP type, which attributes it requires and
 * which it allows. {@link #modifyQpIsOk} mirrors {@code ib_modify_qp_is_ok()}.
 */
public final class QpStateTable {
    private QpStateTable() {
    }

    private static final class Transition {
        final Map<QpType, Integer> required = new EnumMap<>(QpType.class);
        final Map<QpType, Integer> optional = new EnumMap<>(QpType.class);
    }

    private static final Transition[][] TABLE = new Transition[QpState.values().length][QpState.values().length];

    private static final QpType[] CONNECTED = {QpType.UC, QpType.RC, QpType.XRC_INI, QpType.XRC_TGT};
    private static final QpType[] SPECIAL = {QpType.SMI, QpType.GSI};
    private static final QpType[] SEND_CAPABLE = {QpType.UD, QpType.UC, QpType.RC, QpType.XRC_INI,
        QpType.XRC_TGT, QpType.SMI, QpType.GSI};

    static {
        for (QpState s : QpState.values()) {
            if (s != QpState.RESET) {
                // Every state but RESET may go to RESET and to ERR.
                allow(s, QpState.RESET);
                allow(s, QpState.ERR);
            }
        }
        allow(QpState.RESET, QpState.RESET);

        Transition rstInit = allow(QpState.RESET, QpState.INIT);
        req(rstInit, PKEY_INDEX | PORT | QKEY, QpType.UD);
        req(rstInit, PORT, QpType.RAW_PACKET);
        req(rstInit, PKEY_INDEX | PORT | ACCESS_FLAGS, CONNECTED);
        req(rstInit, PKEY_INDEX | QKEY, SPECIAL);

        Transition initInit = allow(QpState.INIT, QpState.INIT);
        opt(initInit, PKEY_INDEX | PORT | QKEY, QpType.UD);
        opt(initInit, PKEY_INDEX | PORT | ACCESS_FLAGS, CONNECTED);
        opt(initInit, PKEY_INDEX | QKEY, SPECIAL);

        Transition initRtr = allow(QpState.INIT, QpState.RTR);
        req(initRtr, AV | PATH_MTU | DEST_QPN | RQ_PSN, QpType.UC, QpType.XRC_INI);
        req(initRtr, AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER,
                QpType.RC, QpType.XRC_TGT);
        opt(initRtr, PKEY_INDEX | QKEY, QpType.UD, QpType.SMI, QpType.GSI);
        opt(initRtr, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX, CONNECTED);

        Transition rtrRts = allow(QpState.RTR, QpState.RTS);
        req(rtrRts, SQ_PSN, QpType.UD, QpType.UC, QpType.SMI, QpType.GSI);
        req(rtrRts, TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC, QpType.RC, QpType.XRC_INI);
        req(rtrRts, TIMEOUT | SQ_PSN, QpType.XRC_TGT);
        opt(rtrRts, CUR_STATE | QKEY, QpType.UD, QpType.SMI, QpType.GSI);
        opt(rtrRts, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE, QpType.UC, QpType.XRC_INI);
        opt(rtrRts, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE,
                QpType.RC, QpType.XRC_TGT);
        opt(rtrRts, RATE_LIMIT, QpType.RAW_PACKET);

        Transition rtsRts = allow(QpState.RTS, QpState.RTS);
        copyOptional(rtrRts, rtsRts);

        Transition rtsSqd = allow(QpState.RTS, QpState.SQD);
        opt(rtsSqd, EN_SQD_ASYNC_NOTIFY, SEND_CAPABLE);

        Transition sqdRts = allow(QpState.SQD, QpState.RTS);
        copyOptional(rtrRts, sqdRts);
        sqdRts.optional.remove(QpType.RAW_PACKET);

        Transition sqdSqd = allow(QpState.SQD, QpState.SQD);
        opt(sqdSqd, PKEY_INDEX | QKEY, QpType.UD, QpType.SMI, QpType.GSI);
        opt(sqdSqd, AV | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | PATH_MIG_STATE, QpType.UC);
        opt(sqdSqd, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | MAX_DEST_RD_ATOMIC
                | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE, QpType.RC);
        opt(sqdSqd, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | ALT_PATH
                | ACCESS_FLAGS | PKEY_INDEX | PATH_MIG_STATE, QpType.XRC_INI);
        opt(sqdSqd, PORT | AV | TIMEOUT | MAX_DEST_RD_ATOMIC | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX
                | MIN_RNR_TIMER | PATH_MIG_STATE, QpType.XRC_TGT);

        Transition sqeRts = allow(QpState.SQE, QpState.RTS);
        opt(sqeRts, CUR_STATE | QKEY, QpType.UD, QpType.SMI, QpType.GSI);
        opt(sqeRts, CUR_STATE | ACCESS_FLAGS, QpType.UC);
    }

    private static Transition allow(QpState from, QpState to) {
        Transition t = new Transition();
        TABLE[from.ordinal()][to.ordinal()] = t;
        return t;
    }

    private static void req(Transition t, int mask, QpType... types) {
        for (QpType type : types) {
            t.required.put(type, mask);
        }
    }

    private static void opt(Transition t, int mask, QpType... types) {
        for (QpType type : types) {
            t.optional.put(type, mask);
        }
    }

    private static void copyOptional(Transition from, Transition to) {
        to.optional.putAll(from.optional);
    }

    /** Whether a transition from {@code cur} to {@code next} exists for some QP type. */
    public static boolean isValidTransition(QpState cur, QpState next) {
        return TABLE[cur.ordinal()][next.ordinal()] != null;
    }

    /** The attributes the transition requires for {@code type} (0 if none or invalid). */
    public static int requiredMask(QpState cur, QpState next, QpType type) {
        Transition t = TABLE[cur.ordinal()][next.ordinal()];
        return t == null ? 0 : t.required.getOrDefault(type, 0);
    }

    /** The attributes the transition allows besides the required ones. */
    public static int optionalMask(QpState cur, QpState next, QpType type) {
        Transition t = TABLE[cur.ordinal()][next.ordinal()];
        return t == null ? 0 : t.optional.getOrDefault(type, 0);
    }

    /**
     * {@code ib_modify_qp_is_ok()}: whether moving a QP of {@code type} from {@code cur} to
     * {@code next} with the attributes in {@code mask} is allowed. {@link QpAttrMask#CUR_STATE}
     * is only allowed from RTR, RTS, SQD and SQE; every required attribute must be present and
     * nothing beyond the required, the optional and {@link QpAttrMask#STATE}.
     */
    public static boolean modifyQpIsOk(QpState cur, QpState next, QpType type, int mask) {
        if ((mask & CUR_STATE) != 0 && cur != QpState.RTR && cur != QpState.RTS
                && cur != QpState.SQD && cur != QpState.SQE) {
            return false;
        }
        Transition t = TABLE[cur.ordinal()][next.ordinal()];
        if (t == null) {
            return false;
        }
        int required = t.required.getOrDefault(type, 0);
        int optional = t.optional.getOrDefault(type, 0);
        if ((mask & required) != required) {
            return false;
        }
        return (mask & ~(required | optional | STATE)) == 0;
    }
}
