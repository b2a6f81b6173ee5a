package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.verbs.QpAttrMask.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code ib_modify_qp_is_ok()} against IBTA 10.3 as the kernel encodes it. */
class QpStateTableTest {
    private static final int RC_RST2INIT = STATE | PKEY_INDEX | PORT | ACCESS_FLAGS;
    private static final int RC_INIT2RTR = STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER;
    private static final int RC_RTR2RTS = STATE | TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC;

    @Test
    void rcWalkThroughTheUsualSequence() {
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.RC, RC_RST2INIT));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.INIT, QpState.RTR, QpType.RC, RC_INIT2RTR));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RTR, QpState.RTS, QpType.RC, RC_RTR2RTS));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RTS, QpState.SQD, QpType.RC, STATE));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.SQD, QpState.RTS, QpType.RC, STATE));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RTS, QpState.ERR, QpType.RC, STATE));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.ERR, QpState.RESET, QpType.RC, STATE));
    }

    @Test
    void everyRequiredAttributeIsRequired() {
        for (int bit = 0; bit < 26; bit++) {
            int b = 1 << bit;
            if ((RC_INIT2RTR & b) != 0 && b != STATE) {
                assertFalse(QpStateTable.modifyQpIsOk(QpState.INIT, QpState.RTR, QpType.RC, RC_INIT2RTR & ~b),
                        "INIT->RTR for RC without bit " + bit);
            }
        }
    }

    @Test
    void attributesBeyondRequiredAndOptionalAreRejected() {
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.RC, RC_RST2INIT | QKEY));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.UD, STATE | PKEY_INDEX | PORT | QKEY | ACCESS_FLAGS));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.INIT, QpState.RTR, QpType.RC, RC_INIT2RTR | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.INIT, QpState.RTR, QpType.RC, RC_INIT2RTR | SQ_PSN));
    }

    @Test
    void udAndSpecialQps() {
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.UD, STATE | PKEY_INDEX | PORT | QKEY));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.UD, STATE | PKEY_INDEX | PORT));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.GSI, STATE | PKEY_INDEX | QKEY));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.GSI, STATE | PKEY_INDEX | QKEY | PORT));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.INIT, QpState.RTR, QpType.UD, STATE));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RTR, QpState.RTS, QpType.UD, STATE | SQ_PSN));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RTR, QpState.RTS, QpType.UD, STATE));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.SQE, QpState.RTS, QpType.UD, STATE | CUR_STATE | QKEY));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.SQE, QpState.RTS, QpType.UC, STATE | ACCESS_FLAGS));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.SQE, QpState.RTS, QpType.RC, STATE | ACCESS_FLAGS));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.INIT, QpType.RAW_PACKET, STATE | PORT));
    }

    @Test
    void curStateOnlyFromRtrRtsSqdSqe() {
        assertFalse(QpStateTable.modifyQpIsOk(QpState.INIT, QpState.INIT, QpType.RC, STATE | CUR_STATE));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.ERR, QpState.RESET, QpType.RC, STATE | CUR_STATE));
        assertTrue(QpStateTable.modifyQpIsOk(QpState.RTS, QpState.RTS, QpType.RC, STATE | CUR_STATE));
        // CUR_STATE is only in the optional set of the *->RTS transitions.
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RTS, QpState.ERR, QpType.RC, STATE | CUR_STATE));
    }

    @ParameterizedTest
    @EnumSource(value = QpType.class, names = {"RC", "UC", "UD", "GSI", "SMI"})
    void theTransitionMatrixIsTheKernels(QpType type) {
        List<String> valid = new ArrayList<>();
        for (QpState from : QpState.values()) {
            for (QpState to : QpState.values()) {
                if (QpStateTable.isValidTransition(from, to)) {
                    valid.add(from + ">" + to);
                }
            }
        }
        assertEquals(List.of("RESET>RESET", "RESET>INIT",
                "INIT>RESET", "INIT>INIT", "INIT>RTR", "INIT>ERR",
                "RTR>RESET", "RTR>RTS", "RTR>ERR",
                "RTS>RESET", "RTS>RTS", "RTS>SQD", "RTS>ERR",
                "SQD>RESET", "SQD>RTS", "SQD>SQD", "SQD>ERR",
                "SQE>RESET", "SQE>RTS", "SQE>ERR",
                "ERR>RESET", "ERR>ERR"), valid, type.name());
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.RTR, type, -1 & ~CUR_STATE));
        assertFalse(QpStateTable.modifyQpIsOk(QpState.RESET, QpState.ERR, type, STATE));
    }

    @Test
    void masksAreExposedForErrorMessages() {
        assertEquals(RC_RTR2RTS & ~STATE, QpStateTable.requiredMask(QpState.RTR, QpState.RTS, QpType.RC));
        assertEquals(CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE,
                QpStateTable.optionalMask(QpState.RTR, QpState.RTS, QpType.RC));
        assertEquals(0, QpStateTable.requiredMask(QpState.RESET, QpState.RTS, QpType.RC));
    }
}
