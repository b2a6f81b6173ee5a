package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortState;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Smp;

/**
 * Directed-route SMPs across the fabric (IBTA 14.2.2, the kernel's smi.c rules in the switches):
 * before any LID or LFT exists, with every port still in Init, as an SM's first sweep sees it.
 */
class DirectedRouteTest {
    private final VirtualClock clock = new VirtualClock();
    private Fabric f;
    private FabricPort sm;
    private final Pkts.Collector atSm = new Pkts.Collector();

    @BeforeEach
    void setUp() {
        // Fresh subnet: attached CAs, links trained (Init), no LIDs, no routes.
        String text = Nets.resource("three-switches.topo").replaceAll("lid \\d+ lmc", "lid 0 lmc")
                .replaceAll("# lid \\d+", "# lid 0");
        f = Fabrics.create("dr", Topology.parse(text), clock, 1);
        for (FabricNode n : f.nodes()) {
            if (n.nodeType() == NodeType.CA) {
                f.attach(n.name());
            }
        }
        sm = Nets.port(f, Nets.H1, 1);
        sm.setSink(atSm);
        assertEquals(PortState.INIT, sm.portState());
        assertEquals(0, Nets.sw(f, Nets.S1).port(0).lid());
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    /** The SM's side: receives the returning SMP through its own SMI (C14-13:3) and checks it. */
    private Smp response() {
        assertEquals(1, atSm.size(), "one response at the SM");
        Packet p = atSm.get(0);
        assertEquals(15, p.vl());
        assertEquals(Smp.IB_LID_PERMISSIVE, p.dlid());
        Smp resp = Pkts.smpOf(p);
        atSm.clear();
        DrSmp.Decision d = DrSmp.receive(resp, false, sm.portNum(), 2);
        assertEquals(DrSmp.Verdict.HANDLE, d.verdict(), "the SM's SMI takes the returning SMP");
        assertEquals(0, resp.hopPtr);
        return resp;
    }

    @Test
    void nodeInfoOverThreeSwitchesAndBack() {
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0x1234, 1, 2, 2);
        Pkts.sendDr(sm, req);
        Smp resp = response();
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, resp.method);
        assertTrue(resp.direction());
        assertEquals(0, resp.statusCode());
        assertEquals(0x1234, resp.tid);
        assertEquals(3, resp.hopCnt);
        // The return path each switch recorded: S1 came in on 1, S2 on 1, S3 on 1.
        assertEquals(1, resp.returnPort(1));
        assertEquals(1, resp.returnPort(2));
        assertEquals(1, resp.returnPort(3));
        assertEquals(1, resp.initialPort(1));
        assertEquals(2, resp.initialPort(2));
        assertEquals(2, resp.initialPort(3));
        NodeInfo ni = new NodeInfo().unpack(resp.data, 0);
        assertEquals(NodeInfo.NODE_TYPE_SWITCH, ni.nodeType);
        assertEquals(0x2c90300f0e2f0L, ni.nodeGuid);
        assertEquals(0x2c90300f0e2f3L, ni.sysImageGuid);
        assertEquals(36, ni.numPorts);
        assertEquals(1, ni.localPortNum);
        assertEquals(0x2c9, ni.vendorId);
        assertEquals(0xc738, ni.deviceId);
        // Every hop moved the SMP on VL15 in Init.
        assertEquals(2, Nets.port(f, Nets.S1, 2).counters().portXmitPkts() + Nets.port(f, Nets.S1, 2).counters().portRcvPkts());
    }

    @Test
    void returnPathFollowsTheInputPortsNotTheOutputPorts() {
        // H1 -> S1 (in 1) -> out 3 -> H3? No: go S1 -> S2 -> back to S1 through the same cable.
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 9, 1, 2, 1);
        Pkts.sendDr(sm, req);
        Smp resp = response();
        NodeInfo ni = new NodeInfo().unpack(resp.data, 0);
        assertEquals(0x2c90300f0e0d0L, ni.nodeGuid, "back at S1");
        assertEquals(2, ni.localPortNum, "S1 received it on port 2 the second time");
        assertEquals(1, resp.returnPort(1));
        assertEquals(1, resp.returnPort(2));
        assertEquals(2, resp.returnPort(3));
    }

    @Test
    void smpToACaIsDeliveredToItsDriverWhichAnswersThroughTheSwitches() {
        FabricPort h2 = Nets.port(f, Nets.H2, 1);
        // H2's "driver": an SMA answering NodeInfo.
        h2.setSink(p -> {
            Smp smp = Pkts.smpOf(p);
            DrSmp.Decision d = DrSmp.receive(smp, false, 1, 2);
            assertEquals(DrSmp.Verdict.HANDLE, d.verdict());
            assertEquals(smp.hopCnt + 1, smp.hopPtr);
            Smp resp = smp.copy();
            resp.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
            resp.setDirection(true);
            NodeInfo ni = new NodeInfo();
            ni.nodeType = NodeInfo.NODE_TYPE_CA;
            ni.nodeGuid = h2.node().nodeGuid();
            ni.portGuid = h2.portGuid();
            ni.localPortNum = 1;
            ni.numPorts = 2;
            resp.setData(ni);
            DrSmp.Decision out = DrSmp.send(resp, false, 1);
            assertEquals(DrSmp.Verdict.FORWARD, out.verdict());
            h2.transmit(Pkts.smp(h2, resp, Smp.IB_LID_PERMISSIVE, Smp.IB_LID_PERMISSIVE));
        });
        Pkts.sendDr(sm, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 77, 1, 2, 2, 2));
        Smp resp = response();
        NodeInfo ni = new NodeInfo().unpack(resp.data, 0);
        assertEquals(0x2c90300a1b4c0L, ni.nodeGuid);
        assertEquals(0x2c90300a1b4c1L, ni.portGuid);
        assertEquals(4, resp.hopCnt);
        // S1, S2, S3 each recorded input port 1; the CA at the end recorded its own port (C14-9:3).
        for (int hop = 1; hop <= 4; hop++) {
            assertEquals(1, resp.returnPort(hop), "return path hop " + hop);
        }
    }

    @Test
    void badPathsAreDroppedAndCounted() {
        // S1 port 5 has no cable: the forwarded SMP is discarded at S1's output.
        Pkts.sendDr(sm, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 1, 1, 5, 1));
        assertEquals(0, atSm.size());
        assertEquals(1, Nets.port(f, Nets.S1, 5).counters().portXmitDiscards());
        // A path naming port 40 of a 36-port switch fails smi_handle_dr_smp_recv (C14-9:2).
        Pkts.sendDr(sm, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 2, 1, 40, 1));
        assertEquals(0, atSm.size());
        assertEquals(1, Nets.port(f, Nets.S1, 1).counters().vl15Dropped());
    }
}
