package org.rdma.hca.mlx4sim.internal;

import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricSwitch;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.PortState;
import org.rdma.verbs.Wc;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortCountersExtended;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/** Two mlx4sim HCAs across a switch, brought up by a test SM on HCA A's QP0 with directed-route SMPs. */
class IbSubnetTest {
    static final long SW_GUID = 0x0002c90300f0e0d0L;
    static final long A_GUID = 0x0002c90300a1b2c0L;
    static final long B_GUID = 0x0002c90300a1b4c0L;
    static final int LID_SW = 1;
    static final int LID_A = 10;
    static final int LID_B = 11;

    final VirtualClock clock = new VirtualClock();
    Fabric fabric;
    Mlx4Device da;
    Mlx4Device db;
    Host ha;
    Host hb;
    Sm sm;

    static Topology topology() {
        return Topology.builder().addSwitch("S", 8, SW_GUID).addCa("HA", 1, A_GUID).addCa("HB", 1, B_GUID)
                .link("HA", 1, "S", 1).link("HB", 1, "S", 2).build();
    }

    static Mlx4Device hca(Fabric f, VirtualClock clock, String slot, String host) {
        Mlx4Params p = Mlx4Params.of(f, clock, org.rdma.verbs.LinkLayer.INFINIBAND);
        p.caSlot = slot;
        p.hostname = host;
        return new Mlx4Device(p);
    }

    @BeforeEach
    public void setUp() {
        fabric = Fabrics.create("ib", topology(), clock, 1);
        da = hca(fabric, clock, "HA", "hosta");
        db = hca(fabric, clock, "HB", "hostb");
        ha = new Host(da.provider());
        hb = new Host(db.provider());
        sm = new Sm(ha);
    }

    @AfterEach
    public void tearDown() {
        da.close();
        db.close();
        fabric.close();
    }

    // ---------------------------------------------------------------- SM helpers

    PortInfo getPortInfo(int attrMod, int... path) {
        Smp r = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, attrMod, sm.nextTid(), path));
        assertNotNull(r, "PortInfo response");
        assertEquals(0, r.statusCode());
        return new PortInfo().unpack(r.data, 0);
    }

    Smp setPortInfo(PortInfo pi, int attrMod, int... path) {
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, attrMod, sm.nextTid(), path);
        pi.portPhysState = 0;
        req.setData(pi);
        Smp r = sm.smp(req);
        assertNotNull(r, "SubnSet response");
        return r;
    }

    void set(int attrMod, int lid, int state, int... path) {
        PortInfo pi = getPortInfo(attrMod, path);
        if (lid >= 0) {
            pi.lid = lid;
        }
        pi.masterSmLid = LID_A;
        pi.portState = state;
        pi.portPhysState = 0;
        pi.linkSpeedEnabled = 0;
        pi.linkWidthEnabled = 0;
        Smp r = setPortInfo(pi, attrMod, path);
        assertEquals(0, r.statusCode(), "SubnSet(PortInfo) status on " + java.util.Arrays.toString(path));
    }

    /** The SM's sweep: LIDs, LFT, then Init -> Armed -> Active everywhere. */
    void bringUp() {
        set(0, LID_A, PortInfo.PORT_STATE_NOP);
        set(0, LID_SW, PortInfo.PORT_STATE_NOP, 1);
        set(0, LID_B, PortInfo.PORT_STATE_NOP, 1, 2);
        LinearForwardingTable lft = new LinearForwardingTable();
        java.util.Arrays.fill(lft.ports, LinearForwardingTable.IB_LFT_NO_PATH);
        lft.ports[LID_SW] = 0;
        lft.ports[LID_A] = 1;
        lft.ports[LID_B] = 2;
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, LinearForwardingTable.ATTR_ID, 0, sm.nextTid(), 1);
        req.setData(lft);
        assertEquals(0, sm.smp(req).statusCode());
        Smp si = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, SwitchInfo.ATTR_ID, 0, sm.nextTid(), 1));
        SwitchInfo info = new SwitchInfo().unpack(si.data, 0);
        info.linearFdbTop = LID_B;
        req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, SwitchInfo.ATTR_ID, 0, sm.nextTid(), 1);
        req.setData(info);
        assertEquals(0, sm.smp(req).statusCode());
        for (int state : new int[] {PortInfo.PORT_STATE_ARMED, PortInfo.PORT_STATE_ACTIVE}) {
            set(0, -1, state);
            set(1, -1, state, 1);
            set(2, -1, state, 1);
            set(0, -1, state, 1, 2);
        }
        assertEquals(PortState.ACTIVE, da.fabricPort(1).portState());
        assertEquals(PortState.ACTIVE, db.fabricPort(1).portState());
        assertEquals(2, ((FabricSwitch) fabric.findNode("S").orElseThrow()).lft(LID_B));
    }

    static AhAttr ib(int dlid) {
        AhAttr a = new AhAttr();
        a.portNum = 1;
        a.dlid = dlid;
        a.sl = 0;
        return a;
    }

    // ---------------------------------------------------------------- tests

    @Test
    void deviceLooksLikeAConnectX3() {
        DeviceAttr a = da.provider().queryDevice();
        assertEquals(0x02c9, a.vendorId);
        assertEquals(4099, a.vendorPartId);
        assertEquals((2L << 32) | (42 << 16) | 5000, a.fwVer);
        assertEquals("2.42.5000", Mlx4Identity.fwString(a.fwVer));
        assertTrue(a.has(DeviceCapFlags.MEM_MGT_EXTENSIONS));
        assertTrue(a.has(DeviceCapFlags.MEM_WINDOW_TYPE_2B));
        assertEquals(A_GUID, da.provider().info().nodeGuid);
        assertEquals("mlx4_%d", da.provider().info().nameTemplate);
        assertEquals(0x100, da.provider().info().localDmaLkey);
        PortAttr pa = da.provider().queryPort(1);
        assertEquals(PortState.INIT, pa.state);
        assertEquals(A_GUID + 1, da.provider().queryGid(1, 0).gid.interfaceId());
    }

    @Test
    void modifyPortSetsAndClearsCapabilityBitsAndResetsQkeyViolations() {
        da.provider().modifyPort(1, 0, PortModify.capability(PortCapFlags.SM, true));
        assertEquals(Mlx4Identity.IB_PORT_CAP_MASK | PortCapFlags.SM, da.provider().queryPort(1).portCapFlags,
                "IsSM, as ibstat shows 0x0251486a on the SM's port");
        da.port(1).qkeyViolations = 3;
        da.provider().modifyPort(1, PortModify.RESET_QKEY_CNTR,
                PortModify.capability(PortCapFlags.SM | PortCapFlags.CM_SUP, false));
        assertEquals(Mlx4Identity.IB_PORT_CAP_MASK & ~PortCapFlags.CM_SUP, da.provider().queryPort(1).portCapFlags);
        assertEquals(0, da.port(1).qkeyViolations);
        assertEquals(Mlx4Identity.IB_PORT_CAP_MASK, db.provider().queryPort(1).portCapFlags, "the other HCA's port");
    }

    @Test
    void smBringsTheSubnetUpAndRcUcUdTrafficFlowsThroughTheSwitch() {
        bringUp();
        assertEquals(1, ha.count(IbEventType.PORT_ACTIVE, 1));
        assertEquals(1, hb.count(IbEventType.PORT_ACTIVE, 1));
        assertEquals(LID_B, db.provider().queryPort(1).lid);
        assertEquals(LID_A, db.provider().queryPort(1).smLid);
        Ops ops = new Ops(ha, hb, Ops.virtualTime(clock), () -> ib(LID_B), () -> ib(LID_A), Mtu.MTU_2048);
        assertEquals(11, ops.all(true));
        // GRH on IB: UD with a global route
        Ops g = new Ops(ha, hb, Ops.virtualTime(clock), () -> {
            AhAttr a = ib(LID_B);
            a.setGrh(db.provider().queryGid(1, 0).gid, 0x1234, 0, 64, 0, null);
            return a;
        }, () -> {
            AhAttr a = ib(LID_A);
            a.setGrh(da.provider().queryGid(1, 0).gid, 0x1234, 0, 64, 0, null);
            return a;
        }, Mtu.MTU_1024);
        assertEquals(1, g.ud());
        assertEquals(8, g.rc(false));
        assertEquals(0, da.rxDropped() + db.rxDropped());
    }

    @Test
    void nodeInfoAndPortInfoAreByteExact() {
        Smp r = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0x77, 1, 2));
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, r.method);
        assertTrue(r.direction());
        assertEquals(0x77, r.tid);
        byte[] expect = new byte[64];
        int i = 0;
        expect[i++] = 1; // BaseVersion
        expect[i++] = 1; // ClassVersion
        expect[i++] = 1; // NodeType CA
        expect[i++] = 1; // NumPorts
        put64(expect, 4, B_GUID); // SystemImageGUID
        put64(expect, 12, B_GUID); // NodeGUID
        put64(expect, 20, B_GUID + 1); // PortGUID
        expect[28] = 0;
        expect[29] = (byte) 128; // PartitionCap
        expect[30] = 0x10;
        expect[31] = 0x03; // DeviceID
        expect[35] = 1; // Revision
        expect[36] = 1; // LocalPortNum
        expect[37] = 0;
        expect[38] = 0x02;
        expect[39] = (byte) 0xc9; // VendorID
        assertArrayEquals(expect, r.data);
        Smp nd = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeDescription.ATTR_ID, 0, 0x78, 1, 2));
        assertEquals("hostb mlx4_0", new NodeDescription().unpack(nd.data, 0).text());

        set(0, LID_B, PortInfo.PORT_STATE_NOP, 1, 2);
        Smp pr = sm.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 0, 0x79, 1, 2));
        byte[] d = pr.data;
        assertEquals(0, (int) MadFrames.get64(d, 0)); // M_Key
        assertEquals(0xfe80000000000000L, MadFrames.get64(d, 8)); // GidPrefix
        assertEquals(LID_B, (d[16] & 0xff) << 8 | d[17] & 0xff); // LID
        assertEquals(LID_A, (d[18] & 0xff) << 8 | d[19] & 0xff); // MasterSMLID
        assertEquals(Mlx4Identity.IB_PORT_CAP_MASK, (int) MadFrames.get64(d, 16)); // CapabilityMask (20..23)
        assertEquals(1, d[28] & 0xff); // LocalPortNum
        assertEquals(PortInfo.PORT_STATE_INIT, d[32] & 0xf); // LinkSpeedSupported:4 PortState:4
        assertEquals(PortInfo.PHYS_STATE_LINK_UP, d[33] >>> 4 & 0xf); // PortPhysicalState
        PortInfo pi = new PortInfo().unpack(d, 0);
        byte[] again = new byte[64];
        pi.pack(again, 0);
        assertArrayEquals(d, again);
    }

    static void put64(byte[] b, int at, long v) {
        MadFrames.put64(b, at, v);
    }

    @Test
    void invalidTransitionsAreRejectedWithStatusAndNothingChanges() {
        // Armed without a LID
        PortInfo pi = getPortInfo(0, 1, 2);
        pi.portState = PortInfo.PORT_STATE_ARMED;
        Smp r = setPortInfo(pi, 0, 1, 2);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, r.statusCode());
        assertEquals(PortState.INIT, db.fabricPort(1).portState());
        // Active from Init
        set(0, LID_B, PortInfo.PORT_STATE_NOP, 1, 2);
        pi = getPortInfo(0, 1, 2);
        pi.portState = PortInfo.PORT_STATE_ACTIVE;
        r = setPortInfo(pi, 0, 1, 2);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, r.statusCode());
        assertEquals(PortInfo.PORT_STATE_INIT, new PortInfo().unpack(r.data, 0).portState);
        // Init cannot be set; a multicast LID is refused and changes nothing
        pi.portState = PortInfo.PORT_STATE_INIT;
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, setPortInfo(pi, 0, 1, 2).statusCode());
        pi.portState = 0;
        pi.lid = 0xC001;
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, setPortInfo(pi, 0, 1, 2).statusCode());
        assertEquals(LID_B, db.fabricPort(1).lid());
        // NodeInfo cannot be set; an unknown attribute is unsupported
        Smp ni = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, NodeInfo.ATTR_ID, 0, 5, 1, 2);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB, sm.smp(ni).statusCode());
        Smp other = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, 0x0031, 0, 6, 1, 2);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB, sm.smp(other).statusCode());
    }

    @Test
    void portStateChangesSendTrap128ToTheSm() {
        bringUp();
        assertTrue(db.trapsSent(1) >= 2, "B trapped on Armed and Active");
        long before = db.trapsSent(1);
        PortInfo pi = getPortInfo(0, 1, 2);
        pi.portState = PortInfo.PORT_STATE_DOWN;
        setPortInfo(pi, 0, 1, 2);
        // Down then retrain to Init: the trap is sent on Init (LID still set)
        assertTrue(db.trapsSent(1) > before);
    }

    @Test
    void aNewCapabilityMaskIsTrap144ToTheSm() {
        bringUp();
        sm.qp0.rcq().drain();
        long before = db.trapsSent(1);
        db.provider().modifyPort(1, 0, PortModify.capability(PortCapFlags.SM, true));
        db.provider().modifyPort(1, 0, PortModify.capability(PortCapFlags.SM, true));
        assertEquals(before + 1, db.trapsSent(1), "a trap for a change, none for the same mask again");
        List<Notice> traps = new ArrayList<>();
        for (Wc wc : sm.qp0.rcq().drain()) {
            Smp s = new Smp().unpack(sm.mad(wc), 0);
            if (s.method == MadHdr.IB_MGMT_METHOD_TRAP) {
                traps.add(new Notice().unpackSmp(s.data, 0));
            }
        }
        assertEquals(1, traps.size(), "B's trap at the SM's QP0 (A's LID)");
        Notice n = traps.get(0);
        assertEquals(Notice.TRAP_CAP_MASK_CHG, n.trapNumberOrDeviceId);
        assertEquals(Notice.TYPE_INFO, n.type);
        assertEquals(LID_B, n.issuerLid);
        byte[] d = n.dataDetails;
        assertEquals(LID_B, (d[2] & 0xff) << 8 | d[3] & 0xff, "ntc_144.lid");
        assertEquals(0, d[5], "no other local changes");
        int newMask = (d[6] & 0xff) << 24 | (d[7] & 0xff) << 16 | (d[8] & 0xff) << 8 | d[9] & 0xff;
        assertEquals(Mlx4Identity.IB_PORT_CAP_MASK | PortCapFlags.SM, newMask, "ntc_144.new_cap_mask");
    }

    @Test
    void trapNoticeIsDeliveredToTheSmQp0() {
        set(0, LID_A, PortInfo.PORT_STATE_NOP);
        // A's own port going Armed traps to SM LID = A itself (loopback inside the HCA)
        PortInfo pi = getPortInfo(0);
        pi.portState = PortInfo.PORT_STATE_ARMED;
        pi.portPhysState = 0;
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 0, sm.nextTid());
        req.setData(pi);
        org.rdma.verbs.wire.DrSmp.send(req, false, 1);
        List<Wc> wcs = sm.exchange(sm.qp0, Sm.pack(req), 0xFFFF, 0, 0);
        wcs.addAll(sm.qp0.rcq().drain());
        boolean trap = false;
        boolean resp = false;
        for (Wc wc : wcs) {
            Smp s = new Smp().unpack(sm.mad(wc), 0);
            if (s.method == MadHdr.IB_MGMT_METHOD_TRAP) {
                Notice n = new Notice().unpackSmp(s.data, 0);
                assertEquals(Notice.TRAP_LINK_STATE_CHANGE, n.trapNumberOrDeviceId);
                assertEquals(LID_A, n.issuerLid);
                trap = true;
            } else if (s.method == MadHdr.IB_MGMT_METHOD_GET_RESP) {
                assertEquals(0, s.statusCode());
                resp = true;
            }
        }
        assertTrue(trap && resp, "trap and GetResp on QP0: " + wcs);
    }

    @Test
    void pmaCountersMoveWithTraffic() {
        bringUp();
        Ops ops = new Ops(ha, hb, Ops.virtualTime(clock), () -> ib(LID_B), () -> ib(LID_A), Mtu.MTU_2048);
        PortCounters before = portCounters();
        ops.uc();
        PortCounters after = portCounters();
        assertTrue(after.portXmitPkts > before.portXmitPkts, before + " -> " + after);
        assertTrue(after.portRcvData > before.portRcvData);
        PortCountersExtended x = portCountersExt();
        assertTrue(x.portXmitData >= after.portXmitData);
        // Set(PortCounters) clears the selected counters
        PerfMgmtMad clr = PerfMgmtMad.of(MadHdr.IB_MGMT_METHOD_SET, PortCounters.ATTR_ID, 0, 3);
        PortCounters sel = new PortCounters();
        sel.portSelect = 1;
        sel.counterSelect = PortCounters.SEL_PORT_XMIT_PACKETS;
        clr.setData(sel);
        PerfMgmtMad resp = pma(clr);
        PortCounters c = new PortCounters().unpack(resp.data, 0);
        assertEquals(0, c.portXmitPkts);
        assertTrue(c.portRcvPkts > 0);
    }

    PortCounters portCounters() {
        PerfMgmtMad req = PerfMgmtMad.of(MadHdr.IB_MGMT_METHOD_GET, PortCounters.ATTR_ID, 0, 1);
        PortCounters sel = new PortCounters();
        sel.portSelect = 1;
        req.setData(sel);
        return new PortCounters().unpack(pma(req).data, 0);
    }

    PortCountersExtended portCountersExt() {
        PerfMgmtMad req = PerfMgmtMad.of(MadHdr.IB_MGMT_METHOD_GET, PortCountersExtended.ATTR_ID, 0, 2);
        PortCountersExtended sel = new PortCountersExtended();
        sel.portSelect = 1;
        req.setData(sel);
        return new PortCountersExtended().unpack(pma(req).data, 0);
    }

    /** A PerfMgt MAD from A's QP1 to B's PMA. */
    PerfMgmtMad pma(PerfMgmtMad req) {
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        req.pack(m, 0);
        List<Wc> wcs = sm.exchange(sm.qp1, m, LID_B, 1, MadHdr.IB_QP1_QKEY);
        assertEquals(1, wcs.size(), "PMA response");
        PerfMgmtMad r = new PerfMgmtMad().unpack(sm.mad(wcs.get(0)), 0);
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, r.madHdr.method);
        assertEquals(0, r.madHdr.status);
        return r;
    }

    @Test
    void cablePullAndLidChangeRaisePortEvents() {
        bringUp();
        int lidEvents = hb.count(IbEventType.LID_CHANGE, 1);
        assertTrue(lidEvents >= 1);
        set(0, 12, PortInfo.PORT_STATE_NOP, 1, 2);
        assertEquals(lidEvents + 1, hb.count(IbEventType.LID_CHANGE, 1));
        assertEquals(12, db.provider().queryPort(1).lid);
        db.fabricPort(1).link().cablePull();
        assertEquals(1, hb.count(IbEventType.PORT_ERR, 1));
        assertEquals(PortState.DOWN, db.provider().queryPort(1).state);
        db.fabricPort(1).link().cableRestore();
        assertEquals(PortState.INIT, db.provider().queryPort(1).state);
    }
}
