package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;

/** The SubnSet(PortInfo) steps that bring the HCA's port to ibsim's state (IBTA 7.2 state machine). */
class PortMirrorTest {
    static PortInfo pi(int state, int lid, int smLid) {
        PortInfo p = new PortInfo();
        p.portState = state;
        p.portPhysState = PortInfo.PHYS_STATE_LINK_UP;
        p.lid = lid;
        p.masterSmLid = smLid;
        p.gidPrefix = 0xfe80_0000_0000_0000L;
        p.linkSpeedEnabled = PortInfo.LINK_SPEED_SDR;
        p.linkWidthEnabled = PortInfo.LINK_WIDTH_4X;
        p.operationalVls = PortInfo.VL_CAP_VL0_7;
        return p;
    }

    @Test
    void initGoesToArmedWithTheLidThenActive() {
        PortInfo target = pi(PortInfo.PORT_STATE_ACTIVE, 5, 1);
        PortInfo w = PortMirror.desired(pi(PortInfo.PORT_STATE_INIT, 0, 0), target);
        assertEquals(PortInfo.PORT_STATE_ARMED, w.portState);
        assertEquals(5, w.lid);
        assertEquals(1, w.masterSmLid);
        // components the mirror does not own are "no change"
        assertEquals(PortInfo.PHYS_STATE_NOP, w.portPhysState);
        assertEquals(0, w.linkSpeedEnabled);
        assertEquals(0, w.linkWidthEnabled);
        assertEquals(0, w.operationalVls);
        assertEquals(PortInfo.PORT_STATE_ACTIVE,
                PortMirror.desired(pi(PortInfo.PORT_STATE_ARMED, 5, 1), target).portState);
        assertNull(PortMirror.desired(pi(PortInfo.PORT_STATE_ACTIVE, 5, 1), target));
    }

    @Test
    void fieldChangesAloneAreANopStateSet() {
        PortInfo w = PortMirror.desired(pi(PortInfo.PORT_STATE_ACTIVE, 5, 1), pi(PortInfo.PORT_STATE_ACTIVE, 5, 2));
        assertEquals(PortInfo.PORT_STATE_NOP, w.portState);
        assertEquals(2, w.masterSmLid);
        PortInfo t = pi(PortInfo.PORT_STATE_INIT, 0, 0);
        t.subnetTimeout = 18;
        assertEquals(18, PortMirror.desired(pi(PortInfo.PORT_STATE_INIT, 0, 0), t).subnetTimeout);
    }

    @Test
    void aResetPortGoesDownToRetrainAndADownCableIsLeftAlone() {
        assertEquals(PortInfo.PORT_STATE_DOWN,
                PortMirror.desired(pi(PortInfo.PORT_STATE_ACTIVE, 5, 1), pi(PortInfo.PORT_STATE_INIT, 5, 1)).portState);
        assertEquals(PortInfo.PORT_STATE_DOWN,
                PortMirror.desired(pi(PortInfo.PORT_STATE_ARMED, 5, 1), pi(PortInfo.PORT_STATE_DOWN, 5, 1)).portState);
        assertEquals(PortInfo.PORT_STATE_DOWN,
                PortMirror.desired(pi(PortInfo.PORT_STATE_ACTIVE, 5, 1), pi(PortInfo.PORT_STATE_ARMED, 5, 1)).portState);
        assertNull(PortMirror.desired(pi(PortInfo.PORT_STATE_ARMED, 5, 1), pi(PortInfo.PORT_STATE_ARMED, 5, 1)));
        assertNull(PortMirror.desired(pi(PortInfo.PORT_STATE_INIT, 0, 0), pi(PortInfo.PORT_STATE_DOWN, 0, 0)));
        assertNull(PortMirror.desired(pi(PortInfo.PORT_STATE_DOWN, 0, 0), pi(PortInfo.PORT_STATE_ACTIVE, 5, 1)));
    }

    /** An SMA that answers from {@code state}, applies Sets, and refuses or ignores on request. */
    static final class StubSma implements PortMirror.Smi {
        PortInfo state = pi(PortInfo.PORT_STATE_INIT, 0, 0);
        boolean refuseSets;
        boolean silent;
        final List<Integer> setStates = new ArrayList<>();

        @Override
        public Smp exchange(Smp req) {
            if (silent) {
                return null;
            }
            Smp resp = req.copy();
            resp.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
            if (req.method == MadHdr.IB_MGMT_METHOD_SET) {
                if (refuseSets) {
                    resp.status = MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
                    return resp;
                }
                PortInfo in = new PortInfo().unpack(req.data, 0);
                setStates.add(in.portState);
                state.lid = in.lid;
                state.masterSmLid = in.masterSmLid;
                if (in.portState != PortInfo.PORT_STATE_NOP) {
                    state.portState = in.portState == PortInfo.PORT_STATE_DOWN ? PortInfo.PORT_STATE_INIT : in.portState;
                }
            }
            resp.setData(state);
            return resp;
        }
    }

    @Test
    void syncWalksEveryStepAndReportsRefusalsAndSilence() {
        StubSma sma = new StubSma();
        PortMirror m = new PortMirror(sma);
        assertTrue(m.sync(pi(PortInfo.PORT_STATE_ACTIVE, 5, 1)));
        assertEquals(List.of(PortInfo.PORT_STATE_ARMED, PortInfo.PORT_STATE_ACTIVE), sma.setStates);
        assertEquals(2, m.sets());
        assertTrue(m.sync(pi(PortInfo.PORT_STATE_ACTIVE, 5, 1)), "in sync: no Set");
        assertEquals(2, m.sets());

        sma.refuseSets = true;
        assertFalse(m.sync(pi(PortInfo.PORT_STATE_INIT, 5, 1)));
        assertEquals(1, m.refused());
        sma.refuseSets = false;
        sma.silent = true;
        assertFalse(m.sync(pi(PortInfo.PORT_STATE_INIT, 5, 1)));
    }
}
