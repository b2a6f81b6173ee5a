package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.ibsim.FakeIbsim;
import org.rdma.fabric.ibsim.IbsimAttachment;
import org.rdma.fabric.ibsim.IbsimAttachments;
import org.rdma.fabric.ibsim.SimCtl;
import org.rdma.fabric.ibsim.SimRequest;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;

/**
 * The gateway between a Java HCA and a stand-in ibsim: identity checks, PortInfo mirroring into
 * the HCA's SMA, MADs both ways with ibsim's TID rewrite undone, directed-route hop pointers,
 * and what it drops. Runs without the real ibsim.
 */
class GatewayTest {
    static final long GUID = 0x0002c90300002000L;
    static final int LID = 5;
    static final int SM_LID = 1;
    static final int SLOT = 2;

    FakeIbsim sim;
    JavaHost host;
    IbsimAttachment att;

    @BeforeEach
    void setUp() throws Exception {
        sim = new FakeIbsim();
        sim.nodeId = "java";
        sim.nextClient = SLOT;
        NodeInfo ni = new NodeInfo();
        ni.nodeType = NodeInfo.NODE_TYPE_CA;
        ni.numPorts = 1;
        ni.nodeGuid = GUID;
        ni.portGuid = GUID;
        sim.nodeInfo = ni;
        sim.portInfo = portInfo(PortInfo.PORT_STATE_INIT, 0, 0);
        host = new JavaHost("java", GUID);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (att != null) {
            att.close();
        }
        host.close();
        sim.close();
    }

    static PortInfo portInfo(int state, int lid, int smLid) {
        PortInfo pi = new PortInfo();
        pi.localPortNum = 1;
        pi.portState = state;
        pi.portPhysState = PortInfo.PHYS_STATE_LINK_UP;
        pi.lid = lid;
        pi.masterSmLid = smLid;
        pi.gidPrefix = 0xfe80_0000_0000_0000L;
        pi.subnetTimeout = 18;
        pi.linkWidthActive = PortInfo.LINK_WIDTH_4X;
        pi.linkSpeedActive = PortInfo.LINK_SPEED_DDR;
        pi.neighborMtu = PortInfo.MTU_2048;
        return pi;
    }

    IbsimAttachment attach() {
        return IbsimAttachments.attach(host.port(), new IbsimAttachments.Options(sim.address(), "java", true, 20, 1000));
    }

    /** A bounded poll: {@code cond} must hold within a few seconds. */
    static void await(BooleanSupplier cond, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!cond.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "not within 5 s: " + what);
            Thread.sleep(10);
        }
    }

    /** Attaches and lets the stand-in SM's configuration (LID 5, SM 1, Active) reach the HCA. */
    PortAttr up() throws InterruptedException {
        att = attach();
        sim.portInfo = portInfo(PortInfo.PORT_STATE_ACTIVE, LID, SM_LID);
        return host.awaitActive(() -> "mirrored from the stand-in's PortInfo");
    }

    @Test
    void mirrorsIbsimsPortStateIntoTheHcasSma() throws Exception {
        att = attach();
        assertEquals(SLOT, att.clientId());
        assertEquals("java", att.nodeId());
        assertSame(host.port(), att.localPort());
        assertSame(host.port(), att.gatewayPort().peer());
        assertEquals(PortState.ACTIVE, att.gatewayPort().portState(), "the gateway's own end is up at once");
        // ibsim's port is Init: the HCA port stays Init, without a LID
        await(() -> att.ibsimPortInfo().portState == PortInfo.PORT_STATE_INIT, "first poll");
        assertEquals(PortState.INIT, host.port().portState());
        await(() -> host.dev.queryPort(1).subnetTimeout == 18, "SubnetTimeout mirrored while Init");
        long before = att.stats().portInfoSets();

        sim.portInfo = portInfo(PortInfo.PORT_STATE_ACTIVE, LID, SM_LID);
        PortAttr pa = host.awaitActive(() -> "mirrored from the stand-in's PortInfo");
        assertEquals(LID, pa.lid);
        assertEquals(SM_LID, pa.smLid);
        assertEquals(18, pa.subnetTimeout);
        assertEquals(0xfe80_0000_0000_0000L, pa.subnetPrefix);
        assertEquals(PortSpeed.DDR, pa.activeSpeed, "the cable has ibsim's link speed");
        assertEquals(before + 2, att.stats().portInfoSets(), "Armed (with the LID), then Active: " + att.stats());
        // the HCA's SMA reports its state changes with Trap 128; ibsim's node model is the SMA of record
        await(() -> att.stats().trapsSuppressed() > 0, "Trap 128 of the HCA's SMA suppressed");
        assertNull(sim.takeFrame(SLOT, 200), "nothing reached ibsim");

        // the SM resets the port and gives it a new LID: Down (retrain to Init), Armed, Active
        sim.portInfo = portInfo(PortInfo.PORT_STATE_INIT, 9, SM_LID);
        await(() -> host.port().portState() == PortState.INIT && host.port().lid() == 9, "port reset to Init");
        sim.portInfo = portInfo(PortInfo.PORT_STATE_ACTIVE, 9, SM_LID);
        await(() -> host.port().portState() == PortState.ACTIVE, "port Active again");
        assertEquals(9, host.dev.queryPort(1).lid);
    }

    @Test
    void carriesSaMadsBothWaysAndRestoresTheTidBitsIbsimRewrites() throws Exception {
        up();
        Gid dgid = Gid.of(0xfe80_0000_0000_0000L, 0x0002c90300003001L);
        CompletableFuture<PathRecord> answer = host.pathRecGet(dgid, 3000);

        SimRequest req = sim.takeFrame(SLOT, 3000);
        assertNotNull(req, "SubnAdmGet(PathRecord) reached ibsim");
        assertEquals(SM_LID, req.dlid);
        assertEquals(LID, req.slid);
        assertEquals(1, req.dqp);
        assertEquals(1, req.sqp);
        assertEquals(0, req.status);
        assertEquals(MadHdr.IB_MGMT_MAD_SIZE, req.length);
        assertEquals(MadHdr.IB_MGMT_CLASS_SUBN_ADM, req.mgmtClass());
        assertEquals(MadHdr.IB_MGMT_METHOD_GET, req.method());
        long tid = req.tid();
        assertEquals(0, tid >>> 48, "the MAD layer's hi_tid leaves bits 63..48 clear");

        // what OpenSM's SA sends back through ibsim: the TID with the client index in bits 63..48
        SimRequest resp = SimRequest.of(LID, SM_LID, 1, 1, req.mad);
        resp.mad[3] = (byte) (MadHdr.IB_MGMT_METHOD_GET | MadHdr.IB_MGMT_METHOD_RESP);
        resp.setTid((long) SLOT << 48 | tid);
        PathRecord rec = new PathRecord();
        rec.sgid = host.dev.queryGid(1, 0);
        rec.dgid = dgid;
        rec.slid = LID;
        rec.dlid = 7;
        rec.pkey = 0xFFFF;
        rec.mtu = PortInfo.MTU_2048;
        rec.rate = 6;
        rec.reversible = 1;
        rec.pack(resp.mad, SaMad.DATA_OFFSET);
        sim.sendFrame(SLOT, resp);

        PathRecord got = answer.get(5, TimeUnit.SECONDS);
        assertEquals(7, got.dlid);
        assertEquals(LID, got.slid);
        assertEquals(PortInfo.MTU_2048, got.mtu);
        assertEquals(1, att.stats().tidsRestored());
        assertEquals(1, att.stats().framesToIbsim());
        assertEquals(1, att.stats().framesFromIbsim());
    }

    @Test
    void directedRouteSmpsLeaveWithHopPointerZeroAndReturnAtTheirOriginator() throws Exception {
        up();
        CompletableFuture<Smp> answer = host.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0, 1));
        SimRequest req = sim.takeFrame(SLOT, 3000);
        assertNotNull(req);
        assertEquals(Smp.IB_LID_PERMISSIVE, req.dlid);
        assertEquals(Smp.IB_LID_PERMISSIVE, req.slid);
        assertEquals(0, req.dqp);
        Smp smp = new Smp().unpack(req.mad, 0);
        assertEquals(1, smp.hopCnt);
        assertEquals(0, smp.hopPtr, "ibsim walks the whole path, the first hop included");

        // ibsim's reply_MAD(): GetResp, direction bit, hop pointer as sent, LIDs and QPs swapped
        smp.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        smp.setDirection(true);
        smp.returnPath[1] = 1;
        smp.tid = (long) SLOT << 48 | smp.tid;
        NodeInfo sw = new NodeInfo();
        sw.nodeType = NodeInfo.NODE_TYPE_SWITCH;
        sw.nodeGuid = 0x0002c90200001000L;
        smp.setData(sw);
        SimRequest resp = SimRequest.of(req.slid, req.dlid, req.sqp, req.dqp, new byte[256]);
        smp.pack(resp.mad, 0);
        sim.sendFrame(SLOT, resp);

        Smp got = answer.get(5, TimeUnit.SECONDS);
        assertEquals(0x0002c90200001000L, new NodeInfo().unpack(got.data, 0).nodeGuid);
    }

    @Test
    void bouncedFramesAndGarbageAreCountedAndDropped() throws Exception {
        att = attach();
        SimRequest bounced = SimRequest.of(3, 0, 1, 1, new byte[256]);
        bounced.status = SimRequest.STATUS_TIMEOUT;
        sim.sendFrame(SLOT, bounced);
        sim.sendRaw(SLOT, new byte[100]);
        await(() -> att.stats().bounced() == 1 && att.stats().dropped() == 1, "counted: " + att.stats());
        assertEquals(0, att.stats().framesFromIbsim());
    }

    @Test
    void refusesAnHcaWhoseGuidsAreNotTheNodesAndLeavesThePortFree() throws Exception {
        sim.nodeInfo.nodeGuid = GUID + 0x100;
        RdmaException e = assertThrows(RdmaException.class, this::attach);
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().contains("caguid=0x0002c90300002000"), e.getMessage());
        assertNotNull(sim.awaitCtl(SimCtl.SIM_CTL_DISCONNECT, 2000), "disconnected from ibsim");
        assertNull(host.port().link(), "the port is free again");

        sim.nodeInfo.nodeGuid = GUID;
        att = attach();
        assertEquals("ibsim-gw java/1", att.gatewayPort().node().name(), "the gateway slot is reused");
    }

    @Test
    void refusesCabledPortsAndSwitchNodes() throws Exception {
        att = attach();
        RdmaException busy = assertThrows(RdmaException.class, this::attach);
        assertEquals(Errno.EBUSY, busy.errno());
        att.close();
        att = null;
        sim.nodeInfo.nodeType = NodeInfo.NODE_TYPE_SWITCH;
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, this::attach).errno());
    }

    @Test
    void closeDisconnectsAndUnplugs() throws Exception {
        up();
        IbsimAttachment a = att;
        att = null;
        a.close();
        a.close();
        assertNotNull(sim.awaitCtl(SimCtl.SIM_CTL_DISCONNECT, 2000));
        assertNull(host.port().link());
        assertEquals(PortState.DOWN, host.port().portState());
        assertNull(sim.awaitCtl(SimCtl.SIM_CTL_GET_PORTINFO, 200), "no polling after close");
    }
}
