package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.sm.internal.Subnet.EndPort;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SmInfo;
import org.rdma.verbs.wire.Smp;

/** Discovery, LIDs, routing, port states, path records and re-sweeps on a ring of switches. */
class SubnetManagerTest {
    SmNet net;
    final SaClient client = new SaClient();

    @AfterEach
    void tearDown() {
        if (net != null) {
            net.close();
        }
    }

    static PathRecord query(IbDevice from, IbDevice to) {
        PathRecord q = new PathRecord();
        q.sgid = from.queryGid(1, 0);
        q.dgid = to.queryGid(1, 0);
        q.numbPath = 1;
        return q;
    }

    /** SaService.pathRecGet from {@code from} to {@code to}: the record, or null with the status. */
    static PathRecord path(SmNet net, SaClient client, IbDevice from, IbDevice to) {
        List<Object[]> res = new ArrayList<>();
        int id = net.sa.pathRecGet(client, from, 1, query(from, to),
                PathRecord.SGID | PathRecord.DGID | PathRecord.NUMB_PATH, 1000, (st, r) -> res.add(new Object[] {st, r}));
        assertTrue(id >= 0, "query id " + id);
        net.settle();
        assertEquals(1, res.size());
        assertEquals(0, res.get(0)[0], "path " + from.name() + " -> " + to.name());
        return (PathRecord) res.get(0)[1];
    }

    @Test
    void everyPortComesUpActiveWithUniqueLidsAndEveryPairHasAPath() {
        net = new SmNet(SmNet.ring(3, 2), 10_000).up();
        net.sa.registerClient(client);
        assertTrue(net.sm.sweeps() >= 1);
        assertTrue(!net.sm.busy());
        Set<Integer> lids = new HashSet<>();
        Map<String, Integer> lidOf = new HashMap<>();
        for (Map.Entry<String, CoreDevice> e : net.devs.entrySet()) {
            PortAttr pa = e.getValue().queryPort(1);
            assertEquals(PortState.ACTIVE, pa.state, e.getKey());
            assertNotEquals(0, pa.lid);
            assertEquals(SubnetManager.SM_LID, pa.smLid);
            assertTrue(lids.add(pa.lid), "unique LID " + pa.lid);
            lidOf.put(e.getKey(), pa.lid);
        }
        assertEquals(1, lidOf.get("h0"), "the SM's own port has LID 1");
        Subnet s = net.sm.subnet();
        assertEquals(9, s.nodes.size());
        assertEquals(9, s.ports.size());
        for (Subnet.Node sw : s.switches()) {
            assertTrue(lids.add(net.sm.lidOf(sw.info.portGuid)), "switch LID unique");
            assertEquals(net.sm.lidOf(sw.info.portGuid), sw.ports[0].lid, "the switch has its LID");
            assertEquals(SubnetManager.SM_LID, sw.ports[0].masterSmLid);
            for (int p = 1; p <= sw.info.numPorts; p++) {
                assertEquals(PortInfo.PORT_STATE_ACTIVE, sw.ports[p].portState, sw + " port " + p);
            }
        }
        // path records between every pair, through the SA client
        for (CoreDevice a : net.devs.values()) {
            for (CoreDevice b : net.devs.values()) {
                PathRecord p = path(net, client, a, b);
                assertEquals(a.queryPort(1).lid, p.slid);
                assertEquals(b.queryPort(1).lid, p.dlid);
                assertEquals(b.queryGid(1, 0), p.dgid);
                assertTrue(p.mtu >= PortInfo.MTU_256 && p.mtu <= PortInfo.MTU_4096);
                assertTrue(p.rate >= 2);
            }
        }
        // LIDs are stable across sweeps, periodic and requested
        long smps = net.sm.smpsSent();
        int sweeps = net.sm.sweeps();
        net.advance(10_000);
        assertEquals(sweeps + 1, net.sm.sweeps(), "the periodic sweep");
        net.sm.sweepNow();
        net.settle();
        assertEquals(sweeps + 2, net.sm.sweeps());
        assertTrue(net.sm.lastSweepSmps() < (net.sm.smpsSent() - smps), "a quiet sweep programs nothing new");
        for (Map.Entry<String, CoreDevice> e : net.devs.entrySet()) {
            assertEquals(lidOf.get(e.getKey()), e.getValue().queryPort(1).lid);
            assertEquals(PortState.ACTIVE, e.getValue().queryPort(1).state);
        }
        for (EndPort ep : net.sm.subnet().ports.values()) {
            assertNotNull(net.sm.subnet().byLid.get(ep.lid));
        }
    }

    @Test
    void theSmAnswersSmInfoAsMaster() {
        net = new SmNet(SmNet.ring(3, 2), 0).up();
        CoreDevice h3 = net.dev("h3");
        List<MadRecvWc> got = new ArrayList<>();
        MadAgent agent = net.mad.registerMadAgent(h3, 1, QpType.SMI, null, 0, (a, wc) -> net.mad.freeSendMad(wc.sendBuf()),
                (a, sb, wc) -> got.add(wc), null, 0);
        MadSendBuf buf = net.mad.createSendMad(agent, 0, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                MadHdr.IB_MGMT_BASE_VERSION);
        Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, SmInfo.ATTR_ID, 0, agent.tid(1)).pack(buf.mad(), 0);
        AhAttr av = new AhAttr();
        av.portNum = 1;
        av.dlid = SubnetManager.SM_LID;
        IbAh ah = net.mad.createAh(agent, av);
        buf.setAh(ah);
        buf.setTimeoutMs(100);
        assertEquals(0, net.mad.postSendMad(buf));
        net.settle();
        assertEquals(1, got.size());
        Smp r = new Smp().unpack(got.get(0).mad(), 0);
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, r.method);
        SmInfo si = new SmInfo().unpack(r.data, 0);
        assertEquals(SmInfo.SM_STATE_MASTER, si.smState);
        assertEquals(5, si.priority);
        assertEquals(net.dev("h0").queryGid(1, 0).interfaceId(), si.guid);
        ah.destroy();
        net.mad.unregisterMadAgent(agent);
    }
}
