package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortState;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.MulticastForwardingTable;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.PKeyTable;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SlToVlTable;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/** The switch SMA through real SMPs: SubnGet/SubnSet byte-exact, the PortInfo state checks, the PMA. */
class SwitchSmaTest {
    private final VirtualClock clock = new VirtualClock();
    private Fabric f;
    private FabricPort sm;
    private final Pkts.Collector atSm = new Pkts.Collector();
    private final List<PortEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        f = Fabrics.create("sma", Topology.parse(Nets.resource("three-switches.topo")), clock, 1);
        for (FabricNode n : f.nodes()) {
            if (n.nodeType() == NodeType.CA) {
                f.attach(n.name());
            }
        }
        sm = Nets.port(f, Nets.H1, 1);
        sm.setSink(atSm);
        Nets.port(f, Nets.S2, 2).addListener(events::add);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    /** SubnGet/SubnSet to S2 (path 1, 2) and back through S1's SMI. */
    private Smp toS2(int method, int attrId, int attrMod, byte[] data) {
        Smp req = Smp.directed(method, attrId, attrMod, 0xABCD, 1, 2);
        if (data != null) {
            req.data = data.clone();
        }
        Pkts.sendDr(sm, req);
        assertEquals(1, atSm.size(), "a response");
        Smp resp = Pkts.smpOf(atSm.get(0));
        atSm.clear();
        assertEquals(DrSmp.Verdict.HANDLE, DrSmp.receive(resp, false, 1, 2).verdict());
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, resp.method);
        assertEquals(0xABCD, resp.tid);
        assertEquals(attrId, resp.attrId);
        assertEquals(attrMod, resp.attrMod);
        return resp;
    }

    @Test
    void linearForwardingTableSetGetIsByteExact() {
        byte[] block = new byte[64];
        for (int i = 0; i < 64; i++) {
            block[i] = (byte) (i % 3 == 0 ? 0xFF : i % 37);
        }
        Smp set = toS2(MadHdr.IB_MGMT_METHOD_SET, LinearForwardingTable.ATTR_ID, 2, block);
        assertEquals(0, set.statusCode());
        assertArrayEquals(block, set.data);
        Smp get = toS2(MadHdr.IB_MGMT_METHOD_GET, LinearForwardingTable.ATTR_ID, 2, null);
        assertArrayEquals(block, get.data);
        FabricSwitch s2 = Nets.sw(f, Nets.S2);
        assertEquals(1, s2.lft(128 + 1));
        assertEquals(FabricSwitch.LFT_DROP, s2.lft(128));
        // Port 37 does not exist on a 36-port switch: invalid value, nothing written.
        byte[] bad = block.clone();
        bad[5] = 37;
        Smp refused = toS2(MadHdr.IB_MGMT_METHOD_SET, LinearForwardingTable.ATTR_ID, 2, bad);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, refused.statusCode());
        assertArrayEquals(block, refused.data);
        // Beyond LinearFDBCap (0xC000 LIDs = 768 blocks).
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE,
                toS2(MadHdr.IB_MGMT_METHOD_GET, LinearForwardingTable.ATTR_ID, 768, null).statusCode());
    }

    @Test
    void switchInfoLinearFdbTopControlsForwarding() {
        Smp get = toS2(MadHdr.IB_MGMT_METHOD_GET, SwitchInfo.ATTR_ID, 0, null);
        SwitchInfo si = new SwitchInfo().unpack(get.data, 0);
        assertEquals(0xC000, si.linearFdbCap);
        assertEquals(1024, si.mcastFdbCap);
        assertEquals(0, si.linearFdbTop);
        assertTrue(si.portStateChange, "links trained since reset");
        si.linearFdbTop = 0x3F;
        si.portStateChange = true; // write 1 to clear
        byte[] data = new byte[64];
        si.pack(data, 0);
        SwitchInfo after = new SwitchInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_SET, SwitchInfo.ATTR_ID, 0, data).data, 0);
        assertEquals(0x3F, after.linearFdbTop);
        assertFalse(after.portStateChange);
        assertEquals(0x3F, Nets.sw(f, Nets.S2).linearFdbTop());
    }

    @Test
    void multicastForwardingTableSetGetIsByteExact() {
        MulticastForwardingTable t = new MulticastForwardingTable();
        for (int i = 0; i < 32; i++) {
            t.portMasks[i] = i == 0 ? 0 : (i * 0x1357) & 0xFFFE;
        }
        byte[] data = new byte[64];
        t.pack(data, 0);
        int mod = MulticastForwardingTable.attrMod(1, 3);     // ports 16..31, MLIDs 0xC060..0xC07F
        Smp set = toS2(MadHdr.IB_MGMT_METHOD_SET, MulticastForwardingTable.ATTR_ID, mod, data);
        assertEquals(0, set.statusCode());
        assertArrayEquals(data, set.data);
        assertArrayEquals(data, toS2(MadHdr.IB_MGMT_METHOD_GET, MulticastForwardingTable.ATTR_ID, mod, null).data);
        BitSet expect = new BitSet();
        int mask = t.portMasks[5];
        for (int b = 0; b < 16; b++) {
            if ((mask & (1 << b)) != 0) {
                expect.set(16 + b);
            }
        }
        assertEquals(expect, Nets.sw(f, Nets.S2).mft(0xC060 + 5));
        // Position 2 covers ports 32..47 of a 36-port switch: bits above port 36 are refused.
        MulticastForwardingTable hi = new MulticastForwardingTable();
        hi.portMasks[0] = 0x0020;                              // port 37
        byte[] hiData = new byte[64];
        hi.pack(hiData, 0);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE,
                toS2(MadHdr.IB_MGMT_METHOD_SET, MulticastForwardingTable.ATTR_ID, MulticastForwardingTable.attrMod(2, 0), hiData)
                        .statusCode());
    }

    @Test
    void portInfoGetReportsTheLink() {
        Smp get = toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 2, null);
        PortInfo pi = new PortInfo().unpack(get.data, 0);
        assertEquals(PortInfo.PORT_STATE_INIT, pi.portState);
        assertEquals(PortInfo.PHYS_STATE_LINK_UP, pi.portPhysState);
        assertEquals(2, pi.lid, "a switch port reports port 0's LID");
        assertEquals(1, pi.localPortNum, "the SMP came in on port 1");
        assertEquals(PortInfo.LINK_WIDTH_4X, pi.linkWidthActive);
        assertEquals(PortInfo.LINK_SPEED_EXT_FDR, pi.linkSpeedExtActive);
        assertEquals(PortInfo.VL_CAP_VL0_7, pi.vlCap);
        assertEquals(0xFE80_0000_0000_0000L, pi.gidPrefix);
        PortInfo idle = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 9, null).data, 0);
        assertEquals(PortInfo.PORT_STATE_DOWN, idle.portState);
        assertEquals(PortInfo.PHYS_STATE_POLLING, idle.portPhysState);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE,
                toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 37, null).statusCode());
    }

    @Test
    void portInfoSetGetIsByteExactForTheSettableComponents() {
        PortInfo pi = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 3, null).data, 0);
        pi.portState = PortInfo.PORT_STATE_NOP;
        pi.portPhysState = PortInfo.PHYS_STATE_NOP;
        pi.mkey = 0x1122334455667788L;
        pi.gidPrefix = 0xFEC0_0000_0000_1234L;
        pi.masterSmLid = 10;
        pi.masterSmSl = 3;
        pi.mkeyLeasePeriod = 600;
        pi.mkeyProtectBits = 1;
        pi.linkWidthEnabled = PortInfo.LINK_WIDTH_4X;
        pi.linkSpeedEnabled = PortInfo.LINK_SPEED_QDR;
        pi.neighborMtu = PortInfo.MTU_2048;
        pi.vlHighLimit = 4;
        pi.vlStallCount = 5;
        pi.hoqLife = 16;
        pi.operationalVls = PortInfo.VL_CAP_VL0_3;
        pi.partitionEnforcementInbound = true;
        pi.subnetTimeout = 17;
        pi.localPhyErrors = 9;
        pi.overrunErrors = 10;
        byte[] data = new byte[64];
        pi.pack(data, 0);
        Smp set = toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 3, data);
        assertEquals(0, set.statusCode());
        // The answer is what was set, with the port's own state (Down, Polling: nothing on port 3).
        PortInfo expect = pi.copy();
        expect.portState = PortInfo.PORT_STATE_DOWN;
        expect.portPhysState = PortInfo.PHYS_STATE_POLLING;
        byte[] want = new byte[64];
        expect.pack(want, 0);
        assertArrayEquals(want, set.data);
        assertArrayEquals(want, toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 3, null).data);
        assertEquals(4, Nets.port(f, Nets.S2, 3).operationalVls());
        // NeighborMTU 2048 now limits what S2 sends out of port 2 (the path to H2).
        PortInfo p2 = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 2, null).data, 0);
        p2.portState = PortInfo.PORT_STATE_NOP;
        p2.portPhysState = PortInfo.PHYS_STATE_NOP;
        p2.neighborMtu = PortInfo.MTU_2048;
        byte[] mtu = new byte[64];
        p2.pack(mtu, 0);
        assertEquals(0, toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, mtu).statusCode());
        Nets.activateAll(f);
        Nets.programLfts(f);
        Pkts.Collector at2 = new Pkts.Collector();
        Nets.port(f, Nets.H2, 1).setSink(at2);
        sm.transmit(Pkts.ud(sm, 11, 10, 1, 2048));
        sm.transmit(Pkts.ud(sm, 11, 10, 2, 2052));
        assertEquals(List.of(1), at2.psns());
        assertEquals(1, Nets.port(f, Nets.S2, 2).counters().portXmitDiscards());
        // One invalid component (NeighborMTU 6) refuses the whole Set: nothing changes.
        PortInfo bad = pi.copy();
        bad.neighborMtu = 6;
        bad.masterSmLid = 99;
        bad.pack(data, 0);
        Smp refused = toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 3, data);
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, refused.statusCode());
        assertArrayEquals(want, refused.data);
    }

    private byte[] portInfoSet(int port, int state) {
        PortInfo pi = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, port, null).data, 0);
        pi.portState = state;
        pi.portPhysState = PortInfo.PHYS_STATE_NOP;
        byte[] data = new byte[64];
        pi.pack(data, 0);
        return data;
    }

    @Test
    void portInfoSetWalksTheStateMachineWithItsChecks() {
        FabricPort p2 = Nets.port(f, Nets.S2, 2);
        assertEquals(PortState.INIT, p2.portState());
        // Init -> Active is refused (C14-?: only from Armed), and nothing changes.
        Smp refused = toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, portInfoSet(2, PortInfo.PORT_STATE_ACTIVE));
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE, refused.statusCode());
        assertEquals(PortInfo.PORT_STATE_INIT, new PortInfo().unpack(refused.data, 0).portState);
        assertEquals(PortState.INIT, p2.portState());
        // Init -> Armed -> Active.
        Smp armed = toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, portInfoSet(2, PortInfo.PORT_STATE_ARMED));
        assertEquals(0, armed.statusCode());
        assertEquals(PortInfo.PORT_STATE_ARMED, new PortInfo().unpack(armed.data, 0).portState);
        Smp active = toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, portInfoSet(2, PortInfo.PORT_STATE_ACTIVE));
        assertEquals(0, active.statusCode());
        assertEquals(PortState.ACTIVE, p2.portState());
        assertEquals(List.of(PortEvent.Type.PORT_STATE_CHANGE, PortEvent.Type.PORT_STATE_CHANGE),
                events.stream().map(PortEvent::type).toList());
        // Init is never settable; Down bounces the link back to Init.
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE,
                toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, portInfoSet(2, PortInfo.PORT_STATE_INIT)).statusCode());
        Smp down = toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, portInfoSet(2, PortInfo.PORT_STATE_DOWN));
        assertEquals(0, down.statusCode());
        assertEquals(PortState.INIT, p2.portState());
        assertEquals(1, p2.counters().linkDownedCounter());
        // PortPhysicalState Disabled keeps the link down; Polling brings it back.
        PortInfo pi = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 2, null).data, 0);
        pi.portState = PortInfo.PORT_STATE_NOP;
        pi.portPhysState = PortInfo.PHYS_STATE_DISABLED;
        byte[] data = new byte[64];
        pi.pack(data, 0);
        assertEquals(0, toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 2, data).statusCode());
        assertEquals(PhysPortState.DISABLED, p2.physState());
        assertEquals(PortState.DOWN, p2.portState());
        assertEquals(PhysPortState.POLLING, p2.peer().physState());
        p2.setPhysState(PhysPortState.POLLING);
        assertEquals(PortState.INIT, p2.portState());
    }

    @Test
    void portZeroLidIsSetThroughPortInfoAndAnswersLidRoutedSmps() {
        PortInfo pi = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 0, null).data, 0);
        pi.lid = 0x20;
        pi.lmc = 0;
        pi.portState = PortInfo.PORT_STATE_NOP;
        pi.portPhysState = PortInfo.PHYS_STATE_NOP;
        pi.masterSmLid = 10;
        byte[] data = new byte[64];
        pi.pack(data, 0);
        PortInfo after = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 0, data).data, 0);
        assertEquals(0x20, after.lid);
        assertEquals(10, after.masterSmLid);
        assertEquals(0x20, Nets.port(f, Nets.S2, 0).lid());
        // LID-routed SubnGet(NodeDescription) to LID 0x20 through S1's LFT; the answer comes back by LID.
        Nets.activateAll(f);
        Nets.programLfts(f);
        Smp req = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, NodeDescription.ATTR_ID, 0, 5);
        sm.transmit(Pkts.smp(sm, req, 0x20, 10));
        assertEquals(1, atSm.size());
        Packet p = atSm.get(0);
        assertEquals(10, p.dlid());
        assertEquals(0x20, p.slid());
        Smp resp = Pkts.smpOf(p);
        assertEquals(0, resp.status);
        assertEquals("SwitchX -  Mellanox Technologies", new NodeDescription().unpack(resp.data, 0).text());
    }

    @Test
    void aLinkChangeSendsTrap128ToTheMasterSm() {
        Nets.activateAll(f);
        Nets.programLfts(f);
        // The SM tells S2 where it is (PortInfo:MasterSMLID of port 0) and clears PortStateChange.
        PortInfo pi = new PortInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 0, null).data, 0);
        pi.portState = PortInfo.PORT_STATE_NOP;
        pi.portPhysState = PortInfo.PHYS_STATE_NOP;
        pi.masterSmLid = 10;
        pi.masterSmSl = 1;
        byte[] data = new byte[64];
        pi.pack(data, 0);
        assertEquals(0, toS2(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 0, data).statusCode());
        SwitchInfo si = new SwitchInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, SwitchInfo.ATTR_ID, 0, null).data, 0);
        si.portStateChange = true;
        si.pack(data, 0);
        assertFalse(new SwitchInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_SET, SwitchInfo.ATTR_ID, 0, data).data, 0)
                .portStateChange);
        // The S2-S3 cable is pulled: S2 reports it.
        Nets.port(f, Nets.S2, 2).link().cablePull();
        assertEquals(1, atSm.size());
        Packet p = atSm.get(0);
        assertEquals(10, p.dlid());
        assertEquals(2, p.slid());
        assertEquals(15, p.vl());
        assertEquals(1, p.sl());
        Smp trap = Pkts.smpOf(p);
        atSm.clear();
        assertEquals(MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED, trap.mgmtClass);
        assertEquals(MadHdr.IB_MGMT_METHOD_TRAP, trap.method);
        assertEquals(org.rdma.verbs.wire.Notice.ATTR_ID, trap.attrId);
        org.rdma.verbs.wire.Notice n = new org.rdma.verbs.wire.Notice().unpackSmp(trap.data, 0);
        assertTrue(n.isGeneric);
        assertEquals(org.rdma.verbs.wire.Notice.PROD_SWITCH, n.producerTypeOrVendorId);
        assertEquals(org.rdma.verbs.wire.Notice.TRAP_LINK_STATE_CHANGE, n.trapNumberOrDeviceId);
        assertEquals(2, n.issuerLid);
        assertEquals(2, (n.dataDetails[0] & 0xFF) << 8 | n.dataDetails[1] & 0xFF, "LIDADDR");
        // PortStateChange is still set: no new trap until the SM clears it.
        Nets.port(f, Nets.S2, 2).link().cableRestore();
        assertEquals(0, atSm.size());
        assertTrue(new SwitchInfo().unpack(toS2(MadHdr.IB_MGMT_METHOD_GET, SwitchInfo.ATTR_ID, 0, null).data, 0)
                .portStateChange);
    }

    @Test
    void pkeyAndSlToVlTables() {
        PKeyTable pk = new PKeyTable();
        pk.pkeys[0] = 0xFFFF;
        pk.pkeys[1] = 0x8001;
        byte[] data = new byte[64];
        pk.pack(data, 0);
        int mod = PKeyTable.attrMod(3, 0);
        assertArrayEquals(data, toS2(MadHdr.IB_MGMT_METHOD_SET, PKeyTable.ATTR_ID, mod, data).data);
        assertArrayEquals(data, toS2(MadHdr.IB_MGMT_METHOD_GET, PKeyTable.ATTR_ID, mod, null).data);
        SlToVlTable t = new SlToVlTable();
        for (int sl = 0; sl < 16; sl++) {
            t.vls[sl] = 7 - (sl & 7);
        }
        byte[] sl2vl = new byte[64];
        t.pack(sl2vl, 0);
        int m = SlToVlTable.attrMod(1, 2);
        assertArrayEquals(sl2vl, toS2(MadHdr.IB_MGMT_METHOD_SET, SlToVlTable.ATTR_ID, m, sl2vl).data);
        assertEquals(4, Nets.sw(f, Nets.S2).slToVl(1, 2, 3));
    }

    @Test
    void errorsCarryTheMadStatus() {
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB,
                toS2(MadHdr.IB_MGMT_METHOD_GET, 0x20 /* SMInfo: no SM here */, 0, null).statusCode());
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB,
                toS2(MadHdr.IB_MGMT_METHOD_SET, NodeDescription.ATTR_ID, 0, new byte[64]).statusCode());
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD,
                toS2(MadHdr.IB_MGMT_METHOD_SEND, NodeDescription.ATTR_ID, 0, null).statusCode());
        Smp v2 = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeDescription.ATTR_ID, 0, 0xABCD, 1, 2);
        v2.classVersion = 2;
        Pkts.sendDr(sm, v2);
        Smp resp = Pkts.smpOf(atSm.get(0));
        atSm.clear();
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_BAD_VERSION, resp.statusCode());
    }

    /** An SMA answers requests only: a response is bad input, counted; a TrapRepress ends a trap. */
    @Test
    void unsolicitedResponsesAreCountedAndDropped() {
        FabricPort in = Nets.port(f, Nets.S2, 1);
        long dropped = in.counters().vl15Dropped();
        Pkts.sendDr(sm, Smp.directed(MadHdr.IB_MGMT_METHOD_GET_RESP, NodeDescription.ATTR_ID, 0, 0xABCD, 1, 2));
        assertEquals(0, atSm.size(), "no answer to a response");
        assertEquals(dropped + 1, in.counters().vl15Dropped());
        Pkts.sendDr(sm, Smp.directed(MadHdr.IB_MGMT_METHOD_TRAP_REPRESS, 0x0002, 0, 0xABCE, 1, 2));
        assertEquals(0, atSm.size());
        assertEquals(dropped + 1, in.counters().vl15Dropped(), "a TrapRepress is taken, not dropped");
    }

    @Test
    void perfMgtPortCountersOfTheSwitch() {
        Nets.activateAll(f);
        Nets.programLfts(f);
        FabricPort h2 = Nets.port(f, Nets.H2, 1);
        h2.setSink(p -> { });
        for (int i = 0; i < 5; i++) {
            sm.transmit(Pkts.ud(sm, 11, 10, i, 64));
        }
        PerfMgmtMad req = PerfMgmtMad.of(MadHdr.IB_MGMT_METHOD_GET, PortCounters.ATTR_ID, 0, 99);
        PortCounters sel = new PortCounters();
        sel.portSelect = 2;
        req.setData(sel);
        byte[] mad = new byte[256];
        req.pack(mad, 0);
        Packet gmp = Pkts.ud(sm, 0, 0, 2, 10, 1, 0, java.nio.ByteBuffer.wrap(mad), 0, 256);
        gmp.header[20] = (byte) 0x80;   // DETH Q_Key 0x80010000
        gmp.header[21] = 0x01;
        gmp.header[22] = 0;
        gmp.header[23] = 0;
        sm.transmit(gmp);
        assertEquals(1, atSm.size());
        Packet p = atSm.get(0);
        assertEquals(10, p.dlid());
        assertEquals(2, p.slid());
        assertEquals(0x42, p.destQpn(8), "back to the requester's QP");
        PerfMgmtMad resp = new PerfMgmtMad().unpack(Pkts.madOf(p), 0);
        assertEquals(0, resp.madHdr.status);
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, resp.madHdr.method);
        PortCounters pc = new PortCounters().unpack(resp.data, 0);
        assertEquals(5, pc.portXmitPkts);
        assertEquals(5 * (28 + 64 + 4) / 4, pc.portXmitData);
        assertEquals(Nets.port(f, Nets.S2, 2).counters().portXmitPkts(), pc.portXmitPkts);
    }
}
