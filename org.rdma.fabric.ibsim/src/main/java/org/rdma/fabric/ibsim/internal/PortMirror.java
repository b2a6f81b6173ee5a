package org.rdma.fabric.ibsim.internal;

import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;

/**
 * Keeps the HCA's view of its port equal to ibsim's.
 *
 * <p>Why ibsim's model and not the HCA's SMA: ibsim answers every SMP for a node itself
 * ({@code process_packet()} hands an SMP to a client only when ibsim has no handler for the
 * attribute), so the SM configures ibsim's copy of the port and the HCA's embedded SMA never sees
 * those Sets. The HCA must still know its LID (to accept packets), the SM's LID (to address the
 * SA) and its PortState (to send data at all). This class plays the local SM for the HCA: it
 * reads the HCA's PortInfo with SubnGet and writes back, with SubnSet, ibsim's LID, LMC,
 * MasterSMLID/SL, GID prefix and subnet timeout, and walks PortState through the IBTA port state
 * machine (7.2: Init → Armed → Active, Down to retrain) towards ibsim's, one legal step per Set.
 * The HCA raises the events an SM's Sets cause (LID_CHANGE, SM_CHANGE, PORT_ACTIVE).
 */
final class PortMirror {
    /** At most this many Sets per synchronisation: Down, Armed, Active and a spare. */
    static final int MAX_STEPS = 4;

    /** Sends an SMP to the HCA's SMA and returns its answer, or {@code null} if none came. */
    @FunctionalInterface
    interface Smi {
        Smp exchange(Smp request);
    }

    private final Smi smi;
    private long sets;
    private long refused;

    PortMirror(Smi smi) {
        this.smi = smi;
    }

    /**
     * Brings the HCA's port in line with {@code target}, ibsim's PortInfo of the node's port.
     *
     * @param target ibsim's PortInfo
     * @return whether the HCA's port now matches (false: no answer, or a Set was refused)
     */
    synchronized boolean sync(PortInfo target) {
        for (int step = 0; step < MAX_STEPS; step++) {
            PortInfo cur = query(MadHdr.IB_MGMT_METHOD_GET, null);
            if (cur == null) {
                return false;
            }
            PortInfo want = desired(cur, target);
            if (want == null) {
                return true;
            }
            if (query(MadHdr.IB_MGMT_METHOD_SET, want) == null) {
                refused++;
                return false;
            }
            sets++;
        }
        return false;
    }

    /** @return SubnSet(PortInfo) the HCA accepted */
    synchronized long sets() {
        return sets;
    }

    /** @return SubnSet(PortInfo) the HCA refused or did not answer */
    synchronized long refused() {
        return refused;
    }

    private PortInfo query(int method, PortInfo set) {
        Smp req = Smp.lidRouted(method, PortInfo.ATTR_ID, 0, 0);
        if (set != null) {
            req.setData(set);
        }
        Smp resp = smi.exchange(req);
        if (resp == null || resp.statusCode() != 0) {
            return null;
        }
        return new PortInfo().unpack(resp.data, 0);
    }

    /**
     * The next SubnSet(PortInfo) that moves the HCA's port {@code cur} towards ibsim's
     * {@code target}, or {@code null} when they agree. PortState moves one legal step: towards
     * Active through Armed (Armed needs the LID, which the same Set carries); back to Init
     * through Down (the link retrains). A port whose cable is down is left alone.
     *
     * @param cur    the HCA's PortInfo (SubnGet)
     * @param target ibsim's PortInfo
     * @return the PortInfo to set, or {@code null}
     */
    static PortInfo desired(PortInfo cur, PortInfo target) {
        int state = nextState(cur.portState, target.portState);
        if (state < 0) {
            return null;
        }
        boolean differ = cur.lid != target.lid || cur.lmc != target.lmc || cur.masterSmLid != target.masterSmLid
                || cur.masterSmSl != target.masterSmSl || cur.gidPrefix != target.gidPrefix
                || cur.subnetTimeout != target.subnetTimeout;
        if (state == PortInfo.PORT_STATE_NOP && !differ) {
            return null;
        }
        PortInfo w = cur.copy();
        w.lid = target.lid;
        w.lmc = target.lmc;
        w.masterSmLid = target.masterSmLid;
        w.masterSmSl = target.masterSmSl;
        w.gidPrefix = target.gidPrefix;
        w.subnetTimeout = target.subnetTimeout;
        w.portState = state;
        // the remaining components as a SubnSet leaves them: no change requested
        w.portPhysState = PortInfo.PHYS_STATE_NOP;
        w.linkSpeedEnabled = 0;
        w.linkWidthEnabled = 0;
        w.operationalVls = 0;
        w.clientReregister = false;
        return w;
    }

    /** The PortState to request: a PORT_STATE_* value, NOP for none, -1 if the port is down. */
    private static int nextState(int cur, int target) {
        switch (cur) {
            case PortInfo.PORT_STATE_INIT:
                return target == PortInfo.PORT_STATE_ARMED || target == PortInfo.PORT_STATE_ACTIVE
                        ? PortInfo.PORT_STATE_ARMED : PortInfo.PORT_STATE_NOP;
            case PortInfo.PORT_STATE_ARMED:
                if (target == PortInfo.PORT_STATE_ACTIVE) {
                    return PortInfo.PORT_STATE_ACTIVE;
                }
                return target == PortInfo.PORT_STATE_ARMED ? PortInfo.PORT_STATE_NOP : PortInfo.PORT_STATE_DOWN;
            case PortInfo.PORT_STATE_ACTIVE:
                return target == PortInfo.PORT_STATE_ACTIVE ? PortInfo.PORT_STATE_NOP : PortInfo.PORT_STATE_DOWN;
            default:
                return -1;
        }
    }
}
