package org.rdma.hca.mlx4sim.internal;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.GuidInfo;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.PKeyTable;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SlToVlTable;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.VlArbitrationTable;

/**
 * The embedded subnet management agent of one IB port: the ConnectX firmware answering
 * SubnGet/SubnSet on QP0 itself, the work {@code mlx4_ib_process_mad()} hands to the firmware
 * through {@code MAD_IFC} (drivers/infiniband/hw/mlx4/mad.c), with the kernel-side snooping of
 * {@code smp_snoop()} that turns accepted Sets into IB events (LID_CHANGE, PKEY_CHANGE, GID_CHANGE,
 * SM_CHANGE, CLIENT_REREGISTER).
 *
 * <p>Attributes: NodeInfo, NodeDescription, PortInfo (IBTA 14.2.5.6, with the port state machine
 * of 7.2: ARMED only from INIT and with a LID, ACTIVE only from ARMED), P_KeyTable, GUIDInfo,
 * SLtoVLMappingTable, VLArbitrationTable. Directed-route SMPs are handled through {@link DrSmp}
 * (the HCA is the end of the path; responses travel back with the direction bit). Traps and
 * responses (methods with the response bit, Trap, Report) and SMInfo are the host's business: they
 * go to QP0 through rvt. Sends Trap 128 (link state change, a Notice to the master SM) on
 * PortState changes and Trap 144 when the port's CapabilityMask changes.
 */
final class Sma {
    private static final Logger LOG = Logger.getLogger(Sma.class.getName());
    private static final int STATUS_INVALID = MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
    private static final int STATUS_UNSUP_ATTR = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;

    private final Mlx4Port port;
    private long trapTid = 0x4d4c_5834_0000_0000L;
    /** Traps sent (for tests and {@code rdma statistic}). */
    volatile long trapsSent;

    Sma(Mlx4Port port) {
        this.port = port;
    }

    // ================================================================== packet side

    /**
     * An SMP arrived on VL15 for QP0: answers requests (the firmware's role), returns
     * {@code false} for what belongs to the host's QP0 (responses, traps, SMInfo) so that the
     * caller hands it to rvt.
     *
     * @param p   the packet
     * @param bth BTH offset
     * @return whether the SMA consumed the packet
     */
    boolean handle(Packet p, int bth) {
        byte[] mad = MadFrames.madOf(p, bth);
        if (mad == null || !isSmpClass(mad[1] & 0xFF)) {
            return false;
        }
        Smp smp = new Smp().unpack(mad, 0);
        if (!forSma(smp)) {
            return false;
        }
        if (smp.isDirectedRoute()) {
            DrSmp.Decision d = DrSmp.receive(smp, false, port.num, port.dev.numPorts());
            if (d.verdict() != DrSmp.Verdict.HANDLE) {
                port.dev.rxDropped.incrementAndGet();
                return true;
            }
        }
        Smp resp = process(smp);
        if (resp != null) {
            respond(resp, p.slid(), false);
        }
        return true;
    }

    /**
     * An SMP this HCA's own QP0 sends to its own SMA (directed route with hop count 0, or
     * LID-routed to its own LID): answered inside the HCA, the way the MAD layer calls
     * {@code process_mad()} for local SMPs. Called from transmit.
     *
     * @return whether the SMP was handled locally
     */
    boolean interceptLocal(RvtPacket pkt) {
        if (pkt.payloadLength < MadHdr.IB_MGMT_MAD_SIZE) {
            return false;
        }
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        pkt.payload.get(pkt.payloadOffset, mad, 0, mad.length);
        if (!isSmpClass(mad[1] & 0xFF)) {
            return false;
        }
        Smp smp = new Smp().unpack(mad, 0);
        boolean local = smp.isDirectedRoute() ? smp.hopCnt == 0 && !smp.direction()
                : pkt.av.dlid != MadFrames.PERMISSIVE && port.ownsLid(pkt.av.dlid);
        if (!local || !forSma(smp)) {
            return false;
        }
        Smp resp = process(smp);
        if (resp != null) {
            if (resp.isDirectedRoute()) {
                resp.hopPtr = 0;
            }
            respond(resp, port.fport.lid(), true);
        }
        return true;
    }

    private static boolean isSmpClass(int cls) {
        return cls == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED || cls == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
    }

    /** Requests the agent answers; everything else is for the SM on the host (QP0). */
    private static boolean forSma(Smp smp) {
        return (smp.method & MadHdr.IB_MGMT_METHOD_RESP) == 0 && smp.method != MadHdr.IB_MGMT_METHOD_TRAP
                && smp.method != MadHdr.IB_MGMT_METHOD_REPORT && smp.attrId != Smp.IB_SMP_ATTR_SM_INFO;
    }

    /** Sends a GetResp back: on the return path (DR) or to the requester's LID. */
    private void respond(Smp resp, int requesterLid, boolean local) {
        int dlid;
        int slid;
        if (resp.isDirectedRoute()) {
            if (!local) {
                DrSmp.Decision d = DrSmp.send(resp, false, port.num);
                if (d.verdict() == DrSmp.Verdict.DISCARD) {
                    return;
                }
                local = d.verdict() == DrSmp.Verdict.HANDLE;
            }
            dlid = MadFrames.PERMISSIVE;
            slid = MadFrames.PERMISSIVE;
        } else {
            dlid = requesterLid;
            int own = port.fport.lid();
            slid = own == 0 ? MadFrames.PERMISSIVE : own;
        }
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        resp.pack(mad, 0);
        Packet p = MadFrames.ud(port, Packet.VL15, 0, dlid, slid, 0, 0xFFFF, 0, 0, mad);
        if (local) {
            try {
                port.io.receive(p);
            } finally {
                p.release();
            }
        } else {
            port.io.sendFrame(p);
        }
    }

    // ================================================================== the agent

    /**
     * Answers one SubnGet/SubnSet ({@code process_mad} of an SMA, IBTA 14.2.5).
     *
     * @return the GetResp, or {@code null} when nothing is answered (TrapRepress, bad base version)
     */
    Smp process(Smp req) {
        if (req.baseVersion != MadHdr.IB_MGMT_BASE_VERSION || req.method == MadHdr.IB_MGMT_METHOD_TRAP_REPRESS) {
            return null;
        }
        Smp resp = req.copy();
        resp.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        int status;
        if (req.classVersion != Smp.IB_SMP_CLASS_VERSION) {
            status = MadHdr.IB_MGMT_MAD_STATUS_BAD_VERSION;
        } else if (req.method != MadHdr.IB_MGMT_METHOD_GET && req.method != MadHdr.IB_MGMT_METHOD_SET) {
            status = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
        } else {
            try {
                status = attribute(req, resp, req.method == MadHdr.IB_MGMT_METHOD_SET);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "SMA of " + port + " refused " + req, e);
                status = STATUS_INVALID;
            }
        }
        resp.status = (req.isDirectedRoute() ? Smp.IB_SMP_DIRECTION : 0) | status;
        return resp;
    }

    private int attribute(Smp req, Smp resp, boolean set) {
        switch (req.attrId) {
            case Smp.IB_SMP_ATTR_NODE_DESC:
                if (set) {
                    return STATUS_UNSUP_ATTR;
                }
                resp.setData(NodeDescription.of(port.dev.nodeDesc()));
                return 0;
            case Smp.IB_SMP_ATTR_NODE_INFO:
                if (set) {
                    return STATUS_UNSUP_ATTR;
                }
                resp.setData(nodeInfo());
                return 0;
            case Smp.IB_SMP_ATTR_PORT_INFO: {
                int mod = req.attrMod;
                Mlx4Port target = mod == 0 ? port : port.dev.port(mod);
                if (target == null || !target.isIb()) {
                    resp.setData(portInfo(port));
                    return STATUS_INVALID;
                }
                int status = set ? target.sma.setPortInfo(new PortInfo().unpack(req.data, 0)) : 0;
                resp.setData(portInfo(target));
                return status;
            }
            case Smp.IB_SMP_ATTR_PKEY_TABLE:
                return pkeyTable(req, resp, set);
            case Smp.IB_SMP_ATTR_GUID_INFO:
                return guidInfo(req, resp, set);
            case Smp.IB_SMP_ATTR_SL_TO_VL_TABLE:
                return slToVl(req, resp, set);
            case Smp.IB_SMP_ATTR_VL_ARB_TABLE:
                return vlArb(req, resp, set);
            default:
                return STATUS_UNSUP_ATTR;
        }
    }

    /** NodeInfo of the HCA as seen through this port (IBTA 14.2.5.3). */
    NodeInfo nodeInfo() {
        NodeInfo ni = new NodeInfo();
        ni.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
        ni.classVersion = Smp.IB_SMP_CLASS_VERSION;
        ni.nodeType = NodeInfo.NODE_TYPE_CA;
        ni.numPorts = port.dev.numPorts();
        ni.sysImageGuid = port.dev.sysImageGuid();
        ni.nodeGuid = port.dev.nodeGuid();
        ni.portGuid = port.guids[0];
        ni.partitionCap = Mlx4Identity.PKEY_TABLE_LEN;
        ni.deviceId = Mlx4Identity.VENDOR_PART_ID;
        ni.revision = Mlx4Identity.HW_VER;
        ni.localPortNum = port.num;
        ni.vendorId = Mlx4Identity.VENDOR_ID;
        return ni;
    }

    /** PortInfo of {@code p} as the firmware reports it (IBTA 14.2.5.6). */
    static PortInfo portInfo(Mlx4Port p) {
        PortInfo pi = new PortInfo();
        pi.mkey = p.mkey;
        pi.gidPrefix = p.gidPrefix;
        pi.lid = p.fport.lid();
        pi.masterSmLid = p.smLid;
        pi.capabilityMask = p.capMask;
        pi.mkeyLeasePeriod = p.mkeyLeasePeriod;
        pi.localPortNum = p.num;
        pi.linkWidthSupported = PortInfo.LINK_WIDTH_1X | PortInfo.LINK_WIDTH_4X;
        pi.linkWidthEnabled = pi.linkWidthSupported;
        PortWidth w = p.fport.linkWidthActive();
        PortSpeed s = p.fport.linkSpeedActive();
        pi.linkWidthActive = w == null ? 0 : w.value;
        pi.linkSpeedSupported = PortInfo.LINK_SPEED_SDR | PortInfo.LINK_SPEED_DDR | PortInfo.LINK_SPEED_QDR;
        pi.linkSpeedEnabled = pi.linkSpeedSupported;
        pi.linkSpeedActive = s == null ? 0 : Math.min(s.value, PortInfo.LINK_SPEED_QDR);
        pi.linkSpeedExtSupported = PortInfo.LINK_SPEED_EXT_FDR;
        pi.linkSpeedExtEnabled = PortInfo.LINK_SPEED_EXT_FDR;
        pi.linkSpeedExtActive = s == PortSpeed.FDR ? PortInfo.LINK_SPEED_EXT_FDR : 0;
        pi.portState = p.fport.portState().value;
        pi.portPhysState = p.physStateValue();
        pi.linkDownDefaultState = p.linkDownDefaultState;
        pi.mkeyProtectBits = p.mkeyProtectBits;
        pi.lmc = p.fport.lmc();
        pi.neighborMtu = p.neighborMtu;
        pi.masterSmSl = p.smSl;
        pi.vlCap = PortInfo.VL_CAP_VL0_7;
        pi.vlHighLimit = p.vlHighLimit;
        pi.vlArbHighCap = 8;
        pi.vlArbLowCap = 8;
        pi.mtuCap = PortInfo.MTU_4096;
        pi.vlStallCount = p.vlStallCount;
        pi.hoqLife = p.hoqLife;
        pi.operationalVls = PortInfo.vlCap(p.fport.operationalVls());
        pi.partitionEnforcementInbound = p.partitionEnforcementInbound;
        pi.partitionEnforcementOutbound = p.partitionEnforcementOutbound;
        pi.mkeyViolations = p.mkeyViolations;
        pi.pkeyViolations = p.pkeyViolations;
        pi.qkeyViolations = p.qkeyViolations;
        pi.guidCap = Mlx4Port.GUID_CAP;
        pi.subnetTimeout = p.subnetTimeout;
        pi.respTimeValue = 8;
        return pi;
    }

    /**
     * SubnSet(PortInfo) on this port (IBTA 14.2.5.6, C14-24: a Set that fails changes nothing):
     * validates every component, stores the settable ones, then applies LID/LMC and the
     * PortState/PortPhysicalState through the fabric port's state machine, and raises the events
     * {@code smp_snoop()} raises.
     *
     * @return the MAD status
     */
    int setPortInfo(PortInfo in) {
        Mlx4Port p = port;
        PortState cur = p.fport.portState();
        int newLid = in.lid;
        boolean ok = newLid < 0xC000 && in.lmc <= 7 && in.masterSmLid < 0xC000;
        // IBTA 7.2.4: a CA port is armed only with a LID assigned
        ok &= PortInfo.portStateRequestValid(in.portState, cur)
                && (in.portState != PortInfo.PORT_STATE_ARMED || newLid != 0);
        switch (in.portPhysState) {
            case PortInfo.PHYS_STATE_NOP:
            case PortInfo.PHYS_STATE_POLLING:
            case PortInfo.PHYS_STATE_DISABLED:
                break;
            default:
                ok = false;
                break;
        }
        if (in.operationalVls > PortInfo.VL_CAP_VL0_7 || in.neighborMtu > PortInfo.MTU_4096) {
            ok = false;
        }
        if (!ok) {
            return STATUS_INVALID;
        }
        boolean smChange;
        boolean gidChange;
        synchronized (p) {
            smChange = p.smLid != in.masterSmLid || p.smSl != in.masterSmSl;
            gidChange = p.gidPrefix != in.gidPrefix;
            p.mkey = in.mkey;
            p.gidPrefix = in.gidPrefix;
            p.smLid = in.masterSmLid;
            p.smSl = in.masterSmSl;
            p.mkeyLeasePeriod = in.mkeyLeasePeriod;
            p.mkeyProtectBits = in.mkeyProtectBits;
            p.subnetTimeout = in.subnetTimeout;
            p.vlHighLimit = in.vlHighLimit;
            p.vlStallCount = in.vlStallCount;
            p.hoqLife = in.hoqLife;
            if (in.linkDownDefaultState != 0) {
                p.linkDownDefaultState = in.linkDownDefaultState;
            }
            if (in.neighborMtu != 0) {
                p.neighborMtu = in.neighborMtu;
            }
            p.partitionEnforcementInbound = in.partitionEnforcementInbound;
            p.partitionEnforcementOutbound = in.partitionEnforcementOutbound;
        }
        try {
            if (in.operationalVls != 0) {
                p.fport.setOperationalVls(PortInfo.dataVls(in.operationalVls));
            }
            if (newLid != p.fport.lid() || in.lmc != p.fport.lmc()) {
                p.fport.setLid(newLid, in.lmc);
            }
            if (in.portPhysState != PortInfo.PHYS_STATE_NOP) {
                p.fport.setPhysState(PhysPortState.of(in.portPhysState));
            }
            if (in.portState != PortInfo.PORT_STATE_NOP) {
                p.fport.setPortState(PortState.of(in.portState));
            }
        } catch (RdmaException e) {
            LOG.log(Level.FINE, "SMA of " + p + ": port change refused", e);
            return STATUS_INVALID;
        } finally {
            p.dev.refreshPort(p.num);
        }
        if (smChange) {
            p.dev.dispatch(IbEventType.SM_CHANGE, p.num);
        }
        if (gidChange) {
            p.dev.dispatch(IbEventType.GID_CHANGE, p.num);
        }
        if (in.clientReregister) {
            p.dev.dispatch(IbEventType.CLIENT_REREGISTER, p.num);
        }
        return 0;
    }

    private int pkeyTable(Smp req, Smp resp, boolean set) {
        int block = req.attrMod & 0xFFFF;
        int blocks = Mlx4Identity.PKEY_TABLE_LEN / PKeyTable.IB_PKEY_BLOCK_SIZE;
        if (block >= blocks) {
            resp.setData(new PKeyTable());
            return STATUS_INVALID;
        }
        int base = block * PKeyTable.IB_PKEY_BLOCK_SIZE;
        boolean changed = false;
        if (set) {
            PKeyTable in = new PKeyTable().unpack(req.data, 0);
            synchronized (port) {
                for (int i = 0; i < PKeyTable.IB_PKEY_BLOCK_SIZE; i++) {
                    changed |= port.pkeys[base + i] != in.pkeys[i];
                    port.pkeys[base + i] = in.pkeys[i];
                }
            }
        }
        PKeyTable t = new PKeyTable();
        System.arraycopy(port.pkeys, base, t.pkeys, 0, PKeyTable.IB_PKEY_BLOCK_SIZE);
        resp.setData(t);
        if (changed) {
            port.dev.refreshPort(port.num);
            port.dev.dispatch(IbEventType.PKEY_CHANGE, port.num);
        }
        return 0;
    }

    private int guidInfo(Smp req, Smp resp, boolean set) {
        if (req.attrMod != 0) {
            resp.setData(new GuidInfo());
            return STATUS_INVALID;
        }
        boolean changed = false;
        if (set) {
            GuidInfo in = new GuidInfo().unpack(req.data, 0);
            synchronized (port) {
                // entry 0 is the port GUID, read-only (IBTA 14.2.5.5)
                for (int i = 1; i < Mlx4Port.GUID_CAP; i++) {
                    changed |= port.guids[i] != in.guids[i];
                    port.guids[i] = in.guids[i];
                }
            }
        }
        GuidInfo gi = new GuidInfo();
        System.arraycopy(port.guids, 0, gi.guids, 0, Mlx4Port.GUID_CAP);
        resp.setData(gi);
        if (changed) {
            port.dev.dispatch(IbEventType.GID_CHANGE, port.num);
        }
        return 0;
    }

    private int slToVl(Smp req, Smp resp, boolean set) {
        if (set) {
            SlToVlTable in = new SlToVlTable().unpack(req.data, 0);
            for (int sl = 0; sl < 16; sl++) {
                if (in.vls[sl] > 7 && in.vls[sl] != 15) {
                    resp.setData(table());
                    return STATUS_INVALID;
                }
            }
            synchronized (port) {
                System.arraycopy(in.vls, 0, port.sl2vl, 0, 16);
            }
        }
        resp.setData(table());
        return 0;
    }

    private SlToVlTable table() {
        SlToVlTable t = new SlToVlTable();
        System.arraycopy(port.sl2vl, 0, t.vls, 0, 16);
        return t;
    }

    private int vlArb(Smp req, Smp resp, boolean set) {
        int block = req.attrMod >>> 16;
        if (block < VlArbitrationTable.LOW_0_31 || block > VlArbitrationTable.HIGH_32_63) {
            resp.setData(new VlArbitrationTable());
            return STATUS_INVALID;
        }
        if (set) {
            VlArbitrationTable in = new VlArbitrationTable().unpack(req.data, 0);
            synchronized (port) {
                port.vlArb[block - 1] = in;
            }
        }
        resp.setData(port.vlArb[block - 1].copy());
        return 0;
    }

    // ================================================================== traps

    /**
     * Sends Trap 128 (IBTA 14.2.5.1, "link state of a port changed") as a LID-routed
     * SubnTrap(Notice) on VL15 to PortInfo:MasterSMLID, once the port has a LID and knows its SM.
     */
    void linkStateTrap() {
        int own = port.fport.lid();
        Notice n = Notice.generic(Notice.TYPE_URGENT, Notice.PROD_CA, Notice.TRAP_LINK_STATE_CHANGE, own);
        n.dataDetails[0] = (byte) (own >>> 8);
        n.dataDetails[1] = (byte) own;
        sendTrap(n);
    }

    /**
     * Sends Trap 144 ("local changes": here a new CapabilityMask, which the port promises by
     * IsCapabilityMaskNoticeSupported) so that the SM re-reads the port, as OpenSM sweeps on it.
     * DataDetails as {@code ntc_144}: LID at byte 2, LocalChanges 0 (nothing but the mask), the
     * new CapabilityMask at byte 6, no change flags, CapabilityMask2 0.
     */
    void capabilityMaskTrap(int newCapMask) {
        int own = port.fport.lid();
        Notice n = Notice.generic(Notice.TYPE_INFO, Notice.PROD_CA, Notice.TRAP_CAP_MASK_CHG, own);
        n.dataDetails[2] = (byte) (own >>> 8);
        n.dataDetails[3] = (byte) own;
        for (int i = 0; i < 4; i++) {
            n.dataDetails[6 + i] = (byte) (newCapMask >>> (24 - 8 * i));
        }
        sendTrap(n);
    }

    private void sendTrap(Notice n) {
        int own = port.fport.lid();
        int sm = port.smLid;
        if (own == 0 || sm == 0 || port.fport.portState() == PortState.DOWN) {
            return;
        }
        long tid;
        synchronized (this) {
            tid = ++trapTid;
        }
        Smp trap = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_TRAP, Notice.ATTR_ID, 0, tid);
        trap.data = new byte[Smp.IB_SMP_DATA_SIZE];
        n.packSmp(trap.data, 0);
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        trap.pack(mad, 0);
        trapsSent++;
        port.io.sendFrame(MadFrames.ud(port, Packet.VL15, port.smSl, sm, own, 0, 0xFFFF, 0, 0, mad));
    }
}
