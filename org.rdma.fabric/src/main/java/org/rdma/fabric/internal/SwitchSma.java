package org.rdma.fabric.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PerfAgent;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Deth;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.GuidInfo;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.MulticastForwardingTable;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.PKeyTable;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SlToVlTable;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;
import org.rdma.verbs.wire.VlArbitrationTable;

/**
 * The switch's management agents on port 0: the subnet management agent (IBTA vol. 1, 14.2:
 * SubnGet/SubnSet of NodeDescription, NodeInfo, SwitchInfo, GUIDInfo, PortInfo, P_KeyTable,
 * SLtoVLMappingTable, VLArbitrationTable, LinearForwardingTable, MulticastForwardingTable) with
 * directed-route SMP handling ({@link DrSmp}, the kernel's smi.c rules), and a performance
 * management agent (16.1: ClassPortInfo, PortCounters, PortCountersExtended) for GMPs on QP1.
 * ibsim's {@code sim_mad.c} is the same thing for its simulated switches.
 *
 * <p>Requests are decoded with the {@code org.rdma.verbs.wire} codecs; responses are real UD
 * packets (LRH, BTH, DETH, MAD) sent back along the return path (directed route) or to the
 * requester's LID through the switch's own LFT. Port state changes requested by a Set are applied
 * after the attribute is answered, through the fabric, so no lock is held when listeners run.
 */
final class SwitchSma {
    private static final Logger LOG = Logger.getLogger(SwitchSma.class.getName());

    private static final int LRH = Lrh.IB_LRH_BYTES;
    private static final int UD_HEADERS = LRH + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES;
    private static final int MAD = MadHdr.IB_MGMT_MAD_SIZE;

    private final SwitchNode sw;
    /** SwitchInfo:PortStateChange. */
    volatile boolean portStateChange;
    /** PortStateChange went from 0 to 1 and Trap 128 has not been sent for it yet. */
    private volatile boolean trapPending;
    private long trapTid = 0x5357_0000_0000L;

    // SwitchInfo components the SM sets.
    private int defaultPort;
    private int defaultMcastPrimaryPort = 0xFF;
    private int defaultMcastNotPrimaryPort = 0xFF;
    private int lifeTimeValue = 18;
    private int mcastFdbTop = 0xBFFF;

    /** Per port: the PortInfo components the SM sets and the port does not derive itself. */
    private PortInfo[] stored;
    private int[][] pkeys;
    private int[][][] vlArb;

    SwitchSma(SwitchNode sw) {
        this.sw = sw;
    }

    private synchronized void ensureTables() {
        if (stored != null) {
            return;
        }
        int n = sw.numPorts() + 1;
        stored = new PortInfo[n];
        pkeys = new int[n][SwitchNode.PKEY_CAP];
        vlArb = new int[n][4][];
        for (int p = 0; p < n; p++) {
            PortInfo pi = new PortInfo();
            pi.gidPrefix = 0xFE80_0000_0000_0000L;
            pi.linkWidthEnabled = PortInfo.LINK_WIDTH_1X | PortInfo.LINK_WIDTH_4X;
            pi.linkSpeedEnabled = PortInfo.LINK_SPEED_SDR | PortInfo.LINK_SPEED_DDR | PortInfo.LINK_SPEED_QDR;
            pi.neighborMtu = PortInfo.MTU_4096;
            pi.vlHighLimit = 0;
            pi.vlStallCount = 7;
            pi.hoqLife = 18;
            pi.subnetTimeout = 18;
            pi.localPhyErrors = 8;
            pi.overrunErrors = 8;
            pi.linkDownDefaultState = PortInfo.PHYS_STATE_POLLING;
            stored[p] = pi;
            pkeys[p][0] = PKeyTable.IB_DEFAULT_PKEY_FULL;
        }
    }

    // ================================================================== QP0: SMPs

    /** An SMP (VL15) for this switch: directed-route processing, then the SMA. Consumes {@code p}. */
    void receive(PortImpl in, Packet p) {
        Smp smp;
        int lrhDlid;
        int lrhSlid;
        try {
            smp = parseSmp(p);
            lrhDlid = p.dlid();
            lrhSlid = p.slid();
        } finally {
            p.release();
        }
        if (smp == null) {
            in.counters.inc(Counters.VL15_DROPPED);
            return;
        }
        try {
            handle(in, smp, lrhDlid, lrhSlid);
        } catch (RuntimeException e) {
            // A malformed SMP must not throw into whoever transmitted it.
            in.counters.inc(Counters.VL15_DROPPED);
            LOG.log(Level.FINE, "SMA of " + sw + " dropped " + smp, e);
        }
    }

    private void handle(PortImpl in, Smp smp, int lrhDlid, int lrhSlid) {
        ensureTables();
        if (smp.isDirectedRoute()) {
            DrSmp.Decision d = DrSmp.receive(smp, true, in.portNum, sw.numPorts());
            if (d.verdict() == DrSmp.Verdict.DISCARD) {
                in.counters.inc(Counters.VL15_DROPPED);
                return;
            }
            if (d.verdict() == DrSmp.Verdict.FORWARD) {
                forwardDr(in, smp, d.port(), lrhDlid, lrhSlid);
                return;
            }
        }
        Smp resp = process(smp, in.portNum);
        if (resp != null ? !sendSmpResponse(in, resp, lrhSlid) : smp.method != MadHdr.IB_MGMT_METHOD_TRAP_REPRESS) {
            // Nothing to answer but a TrapRepress (the SM acknowledging this SMA's trap) is bad
            // input: a response to a request this SMA never sent, or an answer with no way back.
            in.counters.inc(Counters.VL15_DROPPED);
        }
    }

    /** A switch relays a directed-route SMP out of {@code port} (C14-9:2, C14-13:2). */
    private void forwardDr(PortImpl in, Smp smp, int port, int lrhDlid, int lrhSlid) {
        if (port < 1 || port > sw.numPorts()) {
            in.counters.inc(Counters.VL15_DROPPED);
            return;
        }
        DrSmp.Decision d = DrSmp.send(smp, true, port);
        if (d.verdict() != DrSmp.Verdict.FORWARD) {
            in.counters.inc(Counters.VL15_DROPPED);
            return;
        }
        PortImpl out = sw.portImplUnchecked(d.port());
        out.send(udPacket(out, Packet.VL15, 0, lrhDlid, lrhSlid, 0, 0xFFFF, 0, 0, pack(smp)));
    }

    /** Sends the SMA's answer back the way the request came; false if there is no way back. */
    private boolean sendSmpResponse(PortImpl in, Smp resp, int requesterLid) {
        PortImpl out;
        int dlid;
        if (resp.isDirectedRoute()) {
            DrSmp.Decision d = DrSmp.send(resp, true, in.portNum);
            if (d.verdict() != DrSmp.Verdict.FORWARD || d.port() < 1 || d.port() > sw.numPorts()) {
                return false;
            }
            out = sw.portImplUnchecked(d.port());
            dlid = Packet.LID_PERMISSIVE;
        } else {
            dlid = requesterLid;
            out = replyPort(in, dlid);
            if (out == null) {
                return false;
            }
        }
        int own = sw.port0().lid;
        out.send(udPacket(out, Packet.VL15, 0, dlid, own == 0 ? Packet.LID_PERMISSIVE : own, 0, 0xFFFF, 0, 0, pack(resp)));
        return true;
    }

    /** Where a LID-routed response leaves: the LFT entry for the requester, else back where the request came in. */
    private PortImpl replyPort(PortImpl in, int dlid) {
        int out = sw.route(dlid);
        if (out == 0 || out == SwitchNode.LFT_DROP || out > sw.numPorts()) {
            return in.portNum == 0 ? null : in;
        }
        return sw.portImplUnchecked(out);
    }

    private static Smp parseSmp(Packet p) {
        if (p.lnh() != Lrh.LNH_IBA_LOCAL || p.headerLength < UD_HEADERS
                || p.headerLength + p.payloadLength + p.padCount < UD_HEADERS + MAD) {
            return null;
        }
        if (p.opcode(LRH) != Bth.OPCODE_UD_SEND_ONLY || p.destQpn(LRH) != 0) {
            return null;
        }
        byte[] mad = new byte[MAD];
        p.readBytes(UD_HEADERS, mad, 0, MAD);
        int cls = mad[1] & 0xFF;
        if ((mad[0] & 0xFF) != MadHdr.IB_MGMT_BASE_VERSION
                || cls != MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED && cls != MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
            return null;
        }
        return new Smp().unpack(mad, 0);
    }

    private static byte[] pack(Smp smp) {
        byte[] mad = new byte[MAD];
        smp.pack(mad, 0);
        return mad;
    }

    /** Builds an IB UD packet (LRH, BTH SEND_ONLY, DETH) carrying a MAD as its payload. */
    static Packet udPacket(PortImpl out, int vl, int sl, int dlid, int slid, int destQp, int pkey, int qkey, int srcQp,
                           byte[] mad) {
        Packet p = out.allocPacket();
        Lrh lrh = new Lrh();
        lrh.vl = vl;
        lrh.sl = sl;
        lrh.lnh = Lrh.LNH_IBA_LOCAL;
        lrh.dlid = dlid;
        lrh.slid = slid;
        lrh.packetLength = (UD_HEADERS + mad.length + 4) / 4;
        lrh.pack(p.header, 0);
        Bth bth = new Bth();
        bth.opcode = Bth.OPCODE_UD_SEND_ONLY;
        bth.pkey = pkey;
        bth.destQpn = destQp;
        bth.pack(p.header, LRH);
        Deth deth = new Deth();
        deth.qkey = qkey;
        deth.srcQpn = srcQp;
        deth.pack(p.header, LRH + Bth.IB_BTH_BYTES);
        p.headerLength = UD_HEADERS;
        p.payload = ByteBuffer.wrap(mad);
        p.payloadOffset = 0;
        p.payloadLength = mad.length;
        p.padCount = 0;
        return p;
    }

    // ------------------------------------------------------------------ the SMA proper

    /**
     * Answers a SubnGet/SubnSet ({@code process_mad()} of an SMA).
     *
     * @param req     the request
     * @param inPort  the port it arrived on (PortInfo/NodeInfo LocalPortNum)
     * @return the GetResp, or {@code null} when nothing is answered
     */
    Smp process(Smp req, int inPort) {
        if (req.baseVersion != MadHdr.IB_MGMT_BASE_VERSION) {
            return null;
        }
        if ((req.method & MadHdr.IB_MGMT_METHOD_RESP) != 0 || req.method == MadHdr.IB_MGMT_METHOD_TRAP_REPRESS) {
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
            boolean set = req.method == MadHdr.IB_MGMT_METHOD_SET;
            try {
                status = attribute(req, resp, inPort, set);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "SMA of " + sw + " refused " + req, e);
                status = MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
            }
        }
        resp.status = (req.isDirectedRoute() ? Smp.IB_SMP_DIRECTION : 0) | status;
        return resp;
    }

    private int attribute(Smp req, Smp resp, int inPort, boolean set) {
        int mod = req.attrMod;
        switch (req.attrId) {
            case Smp.IB_SMP_ATTR_NODE_DESC:
                if (set) {
                    return MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
                }
                resp.setData(NodeDescription.of(sw.nodeDescription()));
                return 0;
            case Smp.IB_SMP_ATTR_NODE_INFO:
                if (set) {
                    return MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
                }
                resp.setData(nodeInfo(inPort));
                return 0;
            case Smp.IB_SMP_ATTR_SWITCH_INFO:
                return switchInfo(req, resp, set);
            case Smp.IB_SMP_ATTR_GUID_INFO:
                if (set) {
                    return MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
                }
                if (mod != 0) {
                    return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
                }
                GuidInfo gi = new GuidInfo();
                gi.guids[0] = sw.nodeGuid();
                resp.setData(gi);
                return 0;
            case Smp.IB_SMP_ATTR_PORT_INFO:
                return portInfo(req, resp, inPort, set);
            case Smp.IB_SMP_ATTR_PKEY_TABLE:
                return pkeyTable(req, resp, set);
            case Smp.IB_SMP_ATTR_SL_TO_VL_TABLE:
                return slToVl(req, resp, set);
            case Smp.IB_SMP_ATTR_VL_ARB_TABLE:
                return vlArbitration(req, resp, set);
            case Smp.IB_SMP_ATTR_LINEAR_FORWARD_TABLE:
                return linearForwardingTable(req, resp, set);
            case Smp.IB_SMP_ATTR_MCAST_FORWARD_TABLE:
                return multicastForwardingTable(req, resp, set);
            default:
                return MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
        }
    }

    NodeInfo nodeInfo(int inPort) {
        NodeInfo ni = new NodeInfo();
        ni.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
        ni.classVersion = Smp.IB_SMP_CLASS_VERSION;
        ni.nodeType = NodeInfo.NODE_TYPE_SWITCH;
        ni.numPorts = sw.numPorts();
        ni.sysImageGuid = sw.systemImageGuid();
        ni.nodeGuid = sw.nodeGuid();
        ni.portGuid = sw.nodeGuid();
        ni.partitionCap = SwitchNode.PKEY_CAP;
        ni.deviceId = sw.deviceId();
        ni.revision = 0xA0;
        ni.localPortNum = inPort;
        ni.vendorId = sw.vendorId();
        return ni;
    }

    private int switchInfo(Smp req, Smp resp, boolean set) {
        if (req.attrMod != 0) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        int status = 0;
        if (set) {
            SwitchInfo s = new SwitchInfo().unpack(req.data, 0);
            int n = sw.numPorts();
            boolean mcTopOk = s.mcastFdbTop == 0 || s.mcastFdbTop == 0xBFFF
                    || s.mcastFdbTop >= Packet.MULTICAST_LID_BASE && s.mcastFdbTop < Packet.MULTICAST_LID_BASE + SwitchNode.MCAST_FDB_CAP;
            if (s.linearFdbTop >= SwitchNode.LINEAR_FDB_CAP || s.defaultPort > n
                    || s.defaultMcastPrimaryPort > n && s.defaultMcastPrimaryPort != 0xFF
                    || s.defaultMcastNotPrimaryPort > n && s.defaultMcastNotPrimaryPort != 0xFF || !mcTopOk) {
                status = MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
            } else {
                synchronized (this) {
                    sw.linearFdbTop = s.linearFdbTop;
                    defaultPort = s.defaultPort;
                    defaultMcastPrimaryPort = s.defaultMcastPrimaryPort;
                    defaultMcastNotPrimaryPort = s.defaultMcastNotPrimaryPort;
                    lifeTimeValue = s.lifeTimeValue;
                    if (s.mcastFdbTop != 0) {
                        mcastFdbTop = s.mcastFdbTop;
                    }
                    if (s.portStateChange) {
                        portStateChange = false;
                        trapPending = false;
                    }
                }
            }
        }
        resp.setData(switchInfo());
        return status;
    }

    synchronized SwitchInfo switchInfo() {
        SwitchInfo si = new SwitchInfo();
        si.linearFdbCap = SwitchNode.LINEAR_FDB_CAP;
        si.randomFdbCap = 0;
        si.mcastFdbCap = SwitchNode.MCAST_FDB_CAP;
        si.linearFdbTop = sw.linearFdbTop;
        si.defaultPort = defaultPort;
        si.defaultMcastPrimaryPort = defaultMcastPrimaryPort;
        si.defaultMcastNotPrimaryPort = defaultMcastNotPrimaryPort;
        si.lifeTimeValue = lifeTimeValue;
        si.portStateChange = portStateChange;
        si.lidsPerPort = 0;
        si.partitionEnforcementCap = SwitchNode.PKEY_CAP;
        si.enhancedPort0 = sw.enhancedPort0();
        si.mcastFdbTop = mcastFdbTop;
        return si;
    }

    // ------------------------------------------------------------------ PortInfo

    private int portInfo(Smp req, Smp resp, int inPort, boolean set) {
        int portNum = req.attrMod;
        if (portNum < 0 || portNum > sw.numPorts()) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        int status = 0;
        if (set) {
            status = setPortInfo(portNum, new PortInfo().unpack(req.data, 0));
        }
        resp.setData(portInfo(portNum, inPort));
        return status;
    }

    /** The PortInfo of a port as its SMA reports it (IBTA 14.2.5.6). */
    synchronized PortInfo portInfo(int portNum, int inPort) {
        ensureTables();
        PortImpl port = sw.portImplUnchecked(portNum);
        PortImpl p0 = sw.port0();
        PortInfo pi = stored[portNum].copy();
        pi.lid = p0.lid;
        pi.lmc = p0.lmc;
        // CapabilityMask is meaningful on port 0 only: traps are sent, SL to VL mapping and
        // SystemImageGUID are supported (MulticastFDBTop is stored but not enforced: not claimed).
        pi.capabilityMask = portNum == 0
                ? PortCapFlags.TRAP_SUP | PortCapFlags.SL_MAP_SUP | PortCapFlags.SYS_IMAGE_GUID_SUP : 0;
        pi.localPortNum = inPort;
        pi.linkWidthSupported = PortInfo.LINK_WIDTH_1X | PortInfo.LINK_WIDTH_4X;
        pi.linkSpeedSupported = PortInfo.LINK_SPEED_SDR | PortInfo.LINK_SPEED_DDR | PortInfo.LINK_SPEED_QDR;
        LinkImpl l = port.link;
        PortWidth w = portNum == 0 ? PortWidth.WIDTH_4X : l != null ? l.width : PortWidth.WIDTH_4X;
        PortSpeed s = portNum == 0 ? PortSpeed.SDR : l != null ? l.speed : PortSpeed.SDR;
        pi.linkWidthSupported |= w.value;
        pi.linkWidthActive = w.value;
        pi.linkSpeedActive = s.value <= PortSpeed.QDR.value ? s.value : PortInfo.LINK_SPEED_QDR;
        pi.linkSpeedExtActive = extSpeed(s);
        pi.linkSpeedExtSupported = pi.linkSpeedExtActive == 0 ? 0 : (pi.linkSpeedExtActive << 1) - 1;
        if (pi.linkSpeedExtSupported != 0) {
            pi.capabilityMask |= PortCapFlags.EXTENDED_SPEEDS_SUP;
        }
        pi.portState = port.portState.value;
        pi.portPhysState = port.physState.value;
        pi.vlCap = PortInfo.VL_CAP_VL0_7;
        pi.vlArbHighCap = 8;
        pi.vlArbLowCap = 8;
        pi.mtuCap = PortInfo.MTU_4096;
        pi.operationalVls = PortInfo.vlCap(port.operationalVls);
        pi.guidCap = portNum == 0 ? 1 : 0;
        pi.respTimeValue = 8;
        return pi;
    }

    private static int extSpeed(PortSpeed s) {
        switch (s) {
            case FDR:
                return PortInfo.LINK_SPEED_EXT_FDR;
            case EDR:
                return PortInfo.LINK_SPEED_EXT_EDR;
            case HDR:
                return PortInfo.LINK_SPEED_EXT_HDR;
            case NDR:
            case XDR:
                return PortInfo.LINK_SPEED_EXT_NDR;
            default:
                return 0;
        }
    }

    /**
     * SubnSet(PortInfo): checks every component first (a Set that fails changes nothing, IBTA
     * 14.2.5.6 / C14-24), then stores the settable ones; LID/LMC only on port 0; PortState and
     * PortPhysicalState go through the port state machine (no SMA lock held: listeners run).
     */
    private int setPortInfo(int portNum, PortInfo in) {
        PortImpl port = sw.portImplUnchecked(portNum);
        int supportedWidth = PortInfo.LINK_WIDTH_1X | PortInfo.LINK_WIDTH_4X | (port.link != null ? port.link.width.value : 0);
        int supportedSpeed = PortInfo.LINK_SPEED_SDR | PortInfo.LINK_SPEED_DDR | PortInfo.LINK_SPEED_QDR;
        PortState cur = port.portState;
        boolean ok = true;
        if (portNum == 0 && (in.lid >= Packet.MULTICAST_LID_BASE || in.lmc > 7)) {
            ok = false;
        }
        if (in.linkWidthEnabled != 0 && in.linkWidthEnabled != PortInfo.LINK_WIDTH_SET_TO_SUPPORTED
                && (in.linkWidthEnabled & ~supportedWidth) != 0) {
            ok = false;
        }
        if (in.linkSpeedEnabled != 0 && in.linkSpeedEnabled != PortInfo.LINK_SPEED_SET_TO_SUPPORTED
                && (in.linkSpeedEnabled & ~supportedSpeed) != 0) {
            ok = false;
        }
        ok &= PortInfo.portStateRequestValid(in.portState, cur);
        switch (in.portPhysState) {
            case PortInfo.PHYS_STATE_NOP:
                break;
            case PortInfo.PHYS_STATE_POLLING:
            case PortInfo.PHYS_STATE_DISABLED:
                ok &= portNum != 0;
                break;
            default:
                ok = false;
                break;
        }
        if (in.operationalVls != 0 && (PortInfo.dataVls(in.operationalVls) < 0 || in.operationalVls > PortInfo.VL_CAP_VL0_7)) {
            ok = false;
        }
        if (in.neighborMtu != 0 && in.neighborMtu > PortInfo.MTU_4096) {
            ok = false;
        }
        if (!ok) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        synchronized (this) {
            PortInfo s = stored[portNum];
            s.mkey = in.mkey;
            s.gidPrefix = in.gidPrefix;
            s.masterSmLid = in.masterSmLid;
            s.masterSmSl = in.masterSmSl;
            s.mkeyLeasePeriod = in.mkeyLeasePeriod;
            s.mkeyProtectBits = in.mkeyProtectBits;
            if (in.linkWidthEnabled != 0) {
                s.linkWidthEnabled = in.linkWidthEnabled == PortInfo.LINK_WIDTH_SET_TO_SUPPORTED ? supportedWidth : in.linkWidthEnabled;
            }
            if (in.linkSpeedEnabled != 0) {
                s.linkSpeedEnabled = in.linkSpeedEnabled == PortInfo.LINK_SPEED_SET_TO_SUPPORTED ? supportedSpeed : in.linkSpeedEnabled;
            }
            if (in.neighborMtu != 0) {
                s.neighborMtu = in.neighborMtu;
                port.neighborMtu = 128 << in.neighborMtu;
            }
            s.vlHighLimit = in.vlHighLimit;
            s.vlStallCount = in.vlStallCount;
            s.hoqLife = in.hoqLife;
            s.partitionEnforcementInbound = in.partitionEnforcementInbound;
            s.partitionEnforcementOutbound = in.partitionEnforcementOutbound;
            s.filterRawInbound = in.filterRawInbound;
            s.filterRawOutbound = in.filterRawOutbound;
            s.subnetTimeout = in.subnetTimeout;
            s.localPhyErrors = in.localPhyErrors;
            s.overrunErrors = in.overrunErrors;
            s.linkDownDefaultState = in.linkDownDefaultState;
            if (in.operationalVls != 0) {
                port.operationalVls = PortInfo.dataVls(in.operationalVls);
            }
        }
        FabricImpl f = sw.fabric;
        try {
            if (portNum == 0 && (in.lid != sw.port0().lid || in.lmc != sw.port0().lmc)) {
                f.setLid(port, in.lid, in.lmc);
            }
            if (in.portPhysState != PortInfo.PHYS_STATE_NOP) {
                f.setPhysState(port, PhysPortState.of(in.portPhysState));
            }
            if (in.portState != PortInfo.PORT_STATE_NOP) {
                f.setPortState(port, PortState.of(in.portState));
            }
        } catch (RdmaException e) {
            LOG.log(Level.FINE, "SMA of " + sw + ": port state change refused", e);
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        return 0;
    }

    // ------------------------------------------------------------------ tables

    private int pkeyTable(Smp req, Smp resp, boolean set) {
        int portNum = req.attrMod >>> 16;
        int block = req.attrMod & 0xFFFF;
        if (portNum > sw.numPorts() || block >= SwitchNode.PKEY_CAP / PKeyTable.IB_PKEY_BLOCK_SIZE) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        PKeyTable t = new PKeyTable();
        synchronized (this) {
            int[] table = pkeys[portNum];
            int base = block * PKeyTable.IB_PKEY_BLOCK_SIZE;
            if (set) {
                PKeyTable in = new PKeyTable().unpack(req.data, 0);
                System.arraycopy(in.pkeys, 0, table, base, PKeyTable.IB_PKEY_BLOCK_SIZE);
            }
            System.arraycopy(table, base, t.pkeys, 0, PKeyTable.IB_PKEY_BLOCK_SIZE);
        }
        resp.setData(t);
        return 0;
    }

    private int slToVl(Smp req, Smp resp, boolean set) {
        int inPort = (req.attrMod >>> 8) & 0xFF;
        int outPort = req.attrMod & 0xFF;
        if (inPort > sw.numPorts() || outPort > sw.numPorts()) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            SlToVlTable in = new SlToVlTable().unpack(req.data, 0);
            byte[] row = new byte[16];
            for (int sl = 0; sl < 16; sl++) {
                row[sl] = (byte) in.vls[sl];
            }
            sw.setSlToVlRow(inPort, outPort, row);
        }
        SlToVlTable t = new SlToVlTable();
        byte[] row = sw.slToVlRow(inPort, outPort);
        for (int sl = 0; sl < 16; sl++) {
            t.vls[sl] = row[sl];
        }
        resp.setData(t);
        return 0;
    }

    private int vlArbitration(Smp req, Smp resp, boolean set) {
        int block = req.attrMod >>> 16;
        int portNum = req.attrMod & 0xFFFF;
        if (block < VlArbitrationTable.LOW_0_31 || block > VlArbitrationTable.HIGH_32_63 || portNum > sw.numPorts()) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        VlArbitrationTable t = new VlArbitrationTable();
        synchronized (this) {
            int[] saved = vlArb[portNum][block - 1];
            if (set) {
                VlArbitrationTable in = new VlArbitrationTable().unpack(req.data, 0);
                saved = new int[2 * VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE];
                System.arraycopy(in.vls, 0, saved, 0, VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE);
                System.arraycopy(in.weights, 0, saved, VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE, VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE);
                vlArb[portNum][block - 1] = saved;
            }
            if (saved != null) {
                System.arraycopy(saved, 0, t.vls, 0, VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE);
                System.arraycopy(saved, VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE, t.weights, 0, VlArbitrationTable.IB_VL_ARB_BLOCK_SIZE);
            }
        }
        resp.setData(t);
        return 0;
    }

    private int linearForwardingTable(Smp req, Smp resp, boolean set) {
        int block = req.attrMod;
        int base = block * LinearForwardingTable.IB_LFT_BLOCK_SIZE;
        if (block < 0 || base >= SwitchNode.LINEAR_FDB_CAP) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            LinearForwardingTable in = new LinearForwardingTable().unpack(req.data, 0);
            for (int i = 0; i < LinearForwardingTable.IB_LFT_BLOCK_SIZE; i++) {
                int port = in.ports[i];
                if (port != LinearForwardingTable.IB_LFT_NO_PATH && port > sw.numPorts()) {
                    resp.setData(lftBlock(base));
                    return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
                }
            }
            for (int i = 0; i < LinearForwardingTable.IB_LFT_BLOCK_SIZE; i++) {
                sw.setLftEntry(base + i, in.ports[i]);
            }
        }
        resp.setData(lftBlock(base));
        return 0;
    }

    private LinearForwardingTable lftBlock(int base) {
        LinearForwardingTable t = new LinearForwardingTable();
        for (int i = 0; i < LinearForwardingTable.IB_LFT_BLOCK_SIZE; i++) {
            t.ports[i] = sw.lft(base + i);
        }
        return t;
    }

    private int multicastForwardingTable(Smp req, Smp resp, boolean set) {
        int position = MulticastForwardingTable.position(req.attrMod);
        int block = MulticastForwardingTable.block(req.attrMod);
        int base = block * MulticastForwardingTable.IB_MCAST_BLOCK_SIZE;
        if (position * MulticastForwardingTable.IB_MCAST_MASK_SIZE > sw.numPorts() || base >= SwitchNode.MCAST_FDB_CAP) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            MulticastForwardingTable in = new MulticastForwardingTable().unpack(req.data, 0);
            int limit = sw.numPorts() - position * MulticastForwardingTable.IB_MCAST_MASK_SIZE;
            int allowed = limit >= 15 ? 0xFFFF : (1 << (limit + 1)) - 1;
            for (int i = 0; i < MulticastForwardingTable.IB_MCAST_BLOCK_SIZE; i++) {
                if ((in.portMasks[i] & ~allowed) != 0) {
                    resp.setData(mftBlock(base, position));
                    return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
                }
            }
            for (int i = 0; i < MulticastForwardingTable.IB_MCAST_BLOCK_SIZE; i++) {
                sw.setMftMask16(base + i, position, in.portMasks[i]);
            }
        }
        resp.setData(mftBlock(base, position));
        return 0;
    }

    private MulticastForwardingTable mftBlock(int base, int position) {
        MulticastForwardingTable t = new MulticastForwardingTable();
        for (int i = 0; i < MulticastForwardingTable.IB_MCAST_BLOCK_SIZE; i++) {
            t.portMasks[i] = sw.mftMask16(base + i, position);
        }
        return t;
    }

    // ================================================================== traps

    /**
     * A port of the switch changed its link state (fabric lock held): SwitchInfo:PortStateChange
     * is set, and on its 0 to 1 transition a Trap 128 becomes due.
     */
    void portStateChanged() {
        if (!portStateChange) {
            portStateChange = true;
            trapPending = true;
        }
    }

    /**
     * Sends the due Trap 128 ("link state of at least one port of switch at LIDADDR has
     * changed", IBTA 14.2.5.1 / table 119) to the master SM: a LID-routed SubnTrap(Notice) to
     * PortInfo:MasterSMLID of port 0 on VL15 and MasterSMSL, routed through the switch's own LFT.
     * Nothing is sent while the switch has no LID, no master SM, or no route to it; the SM learns
     * of the change from PortStateChange on its next sweep then.
     */
    void sendPendingTrap() {
        if (!trapPending) {
            return;
        }
        int own;
        int smLid;
        int smSl;
        long tid;
        synchronized (this) {
            ensureTables();
            own = sw.port0().lid;
            smLid = stored[0].masterSmLid;
            smSl = stored[0].masterSmSl;
            if (!trapPending || own == 0 || smLid == 0) {
                return;
            }
            trapPending = false;
            tid = ++trapTid;
        }
        int out = sw.route(smLid);
        if (out == 0 || out == SwitchNode.LFT_DROP || out > sw.numPorts()) {
            return;
        }
        Notice n = Notice.generic(Notice.TYPE_URGENT, Notice.PROD_SWITCH, Notice.TRAP_LINK_STATE_CHANGE, own);
        n.dataDetails[0] = (byte) (own >>> 8);
        n.dataDetails[1] = (byte) own;
        Smp trap = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_TRAP, Notice.ATTR_ID, 0, tid);
        trap.data = new byte[Smp.IB_SMP_DATA_SIZE];
        n.packSmp(trap.data, 0);
        PortImpl egress = sw.portImplUnchecked(out);
        egress.send(udPacket(egress, Packet.VL15, smSl, smLid, own, 0, 0xFFFF, 0, 0, pack(trap)));
    }

    // ================================================================== QP1: GMPs (performance management)

    /** A GMP to the switch's own LID (QP1): the PMA answers PerfMgmt; other classes get "unsupported". */
    void receiveGmp(PortImpl in, Packet p) {
        byte[] mad;
        int sl;
        int slid;
        int pkey;
        int srcQp;
        try {
            int bth = p.bthOffset();
            int deth = bth + Bth.IB_BTH_BYTES;
            if (bth < 0 || p.headerLength < deth + Deth.IB_DETH_BYTES
                    || p.headerLength + p.payloadLength + p.padCount < deth + Deth.IB_DETH_BYTES + MAD
                    || p.opcode(bth) != Bth.OPCODE_UD_SEND_ONLY || p.destQpn(bth) != 1
                    || p.u32(deth) != MadHdr.IB_QP1_QKEY) {
                in.counters.inc(Counters.RCV_STATE_DISCARDS);
                return;
            }
            sl = p.sl();
            slid = p.slid();
            pkey = p.pkey(bth);
            srcQp = p.u32(deth + 4) & 0xFF_FFFF;
            mad = new byte[MAD];
            p.readBytes(deth + Deth.IB_DETH_BYTES, mad, 0, MAD);
        } finally {
            p.release();
        }
        try {
            answerGmp(in, mad, sl, slid, pkey, srcQp);
        } catch (RuntimeException e) {
            in.counters.inc(Counters.RCV_STATE_DISCARDS);
            LOG.log(Level.FINE, "PMA of " + sw + " dropped a GMP", e);
        }
    }

    private void answerGmp(PortImpl in, byte[] mad, int sl, int slid, int pkey, int srcQp) {
        MadHdr hdr = new MadHdr().unpack(mad, 0);
        if (hdr.baseVersion != MadHdr.IB_MGMT_BASE_VERSION || hdr.isResponse()
                || hdr.method != MadHdr.IB_MGMT_METHOD_GET && hdr.method != MadHdr.IB_MGMT_METHOD_SET) {
            return;
        }
        byte[] out;
        if (hdr.mgmtClass == MadHdr.IB_MGMT_CLASS_PERF_MGMT) {
            out = pma(new PerfMgmtMad().unpack(mad, 0));
        } else {
            // No agent for the class: generate_unmatched_resp() (drivers/infiniband/core/mad.c).
            hdr.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
            hdr.status = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
            out = mad.clone();
            hdr.pack(out, 0);
        }
        PortImpl egress = replyPort(in, slid);
        if (egress == null) {
            return;
        }
        int own = sw.port0().lid;
        int vl = sl % egress.operationalVls;
        egress.send(udPacket(egress, vl, sl, slid, own, srcQp, pkey, MadHdr.IB_QP1_QKEY, 1, out));
    }

    private byte[] pma(PerfMgmtMad req) {
        return PerfAgent.process(req, PerfMgmtMad.IB_PMA_CLASS_CAP_ALLPORTSELECT | PerfMgmtMad.IB_PMA_CLASS_CAP_EXT_WIDTH,
                this::selectPorts);
    }

    private List<PortImpl> selectPorts(int portSelect) {
        List<PortImpl> ps = new ArrayList<>();
        if (portSelect == PortCounters.PORT_SELECT_ALL) {
            for (int i = 1; i <= sw.numPorts(); i++) {
                ps.add(sw.portImplUnchecked(i));
            }
        } else if (portSelect <= sw.numPorts()) {
            ps.add(sw.portImplUnchecked(portSelect));
        }
        return ps;
    }
}
