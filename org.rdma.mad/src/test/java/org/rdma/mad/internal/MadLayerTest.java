package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.PortState;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Smp;

/** The MAD layer on a switch with three mlx4sim HCAs: agents, dispatch, TIDs, timeouts, SMI, drops. */
class MadLayerTest {
    static final int CLASS = MadHdr.IB_MGMT_CLASS_DEVICE_MGMT;
    Net net;
    IbDevice a;
    IbDevice b;
    final List<MadSendWc> sent = new ArrayList<>();
    final List<Object[]> received = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new Net("A", "B", "C");
        a = net.dev("A");
        b = net.dev("B");
    }

    @AfterEach
    void tearDown() {
        net.close();
    }

    MadAgent agent(IbDevice d, QpType qp, MadRegRequest req) {
        return net.mad.registerMadAgent(d, 1, qp, req, 0, (ag, wc) -> sent.add(wc),
                (ag, sb, wc) -> received.add(new Object[] {ag, sb, wc}), null, 0);
    }

    MadSendBuf request(MadAgent ag, int dlid, int method, int lo) {
        MadSendBuf buf = net.mad.createSendMad(ag, 1, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                MadHdr.IB_MGMT_BASE_VERSION);
        MadHdr.of(CLASS, 1, method, 0x10, 0, ag.tid(lo)).pack(buf.mad(), 0);
        AhAttr av = new AhAttr();
        av.portNum = 1;
        av.dlid = dlid;
        buf.setAh(net.mad.createAh(ag, av));
        return buf;
    }

    static Errno errno(Runnable r) {
        return assertThrows(RdmaException.class, r::run).errno();
    }

    @Test
    void registrationIsCheckedAsTheKernelDoes() {
        MadRegRequest smpOnGsi = MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, 1);
        assertEquals(Errno.EINVAL, errno(() -> agent(a, QpType.GSI, smpOnGsi)));
        MadRegRequest gmpOnSmi = MadRegRequest.of(CLASS, 1, 1);
        assertEquals(Errno.EINVAL, errno(() -> agent(a, QpType.SMI, gmpOnSmi)));
        assertEquals(Errno.EINVAL, errno(() -> agent(a, QpType.GSI, MadRegRequest.of(0, 1, 1))));
        assertEquals(Errno.EINVAL, errno(() -> agent(a, QpType.GSI, MadRegRequest.of(0x60, 1, 1))));
        assertEquals(Errno.EINVAL, errno(() -> agent(a, QpType.GSI, MadRegRequest.of(CLASS, 8, 1))));
        assertEquals(Errno.EINVAL, errno(() -> agent(a, QpType.UD, MadRegRequest.of(CLASS, 1, 1))));
        // RMPP only for RMPP classes; no receive handler with a registration request
        assertEquals(Errno.EINVAL, errno(() -> net.mad.registerMadAgent(a, 1, QpType.GSI,
                MadRegRequest.of(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 1), 1, (x, y) -> { }, (x, y, z) -> { }, null, 0)));
        assertEquals(Errno.EINVAL, errno(() -> net.mad.registerMadAgent(a, 1, QpType.GSI,
                MadRegRequest.of(CLASS, 1, 1), 0, (x, y) -> { }, null, null, 0)));
        assertEquals(Errno.EINVAL, errno(() -> net.mad.registerMadAgent(a, 9, QpType.GSI, null, 0, (x, y) -> { },
                null, null, 0)));
        MadAgent first = agent(a, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET));
        assertEquals(Errno.EBUSY, errno(() -> agent(a, QpType.GSI,
                MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_SET, MadHdr.IB_MGMT_METHOD_GET))));
        // another method, another version, another port's device: all fine
        MadAgent set = agent(a, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_SET));
        MadAgent v2 = agent(a, QpType.GSI, MadRegRequest.of(CLASS, 2, MadHdr.IB_MGMT_METHOD_GET));
        assertTrue(first.hiTid() != set.hiTid() && set.hiTid() != v2.hiTid());
        net.mad.unregisterMadAgent(first);
        agent(a, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET));
    }

    @Test
    void directedRouteSmpsThroughTheSmiBringTheSubnetUp() {
        Smp ni = net.smp("A", Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0, 1, 2));
        assertTrue(ni.direction());
        assertEquals(b.nodeGuid(), new NodeInfo().unpack(ni.data, 0).nodeGuid);
        Smp self = net.smp("A", Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0));
        assertEquals(a.nodeGuid(), new NodeInfo().unpack(self.data, 0).nodeGuid);
        net.bringUp("A", "B", "C");
        assertEquals(PortState.ACTIVE, b.queryPort(1).state);
        assertEquals(11, b.queryPort(1).lid);
        assertEquals(10, b.queryPort(1).smLid);
        assertEquals(12, net.dev("C").queryPort(1).lid);
        assertEquals(0, net.mad.counter(a, 1, MadCounter.SMI_DISCARD));
        // a route the SMI refuses to send: hop pointer already past the hop count
        MadAgent sm = agent(a, QpType.SMI, null);
        MadSendBuf bad = net.mad.createSendMad(sm, 0, 0, false, 24, 232, 1);
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, sm.tid(1), 1);
        s.hopPtr = 7;
        s.pack(bad.mad(), 0);
        assertEquals(-Errno.EINVAL.value, net.mad.postSendMad(bad));
    }

    @Test
    void requestsGoByClassAndMethodAndResponsesByTid() {
        net.bringUp("A", "B", "C");
        MadAgent getter = agent(b, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET));
        MadAgent setter = agent(b, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_SET));
        MadAgent client = agent(a, QpType.GSI, null);
        MadSendBuf req = request(client, 11, MadHdr.IB_MGMT_METHOD_SET, 42);
        req.setTimeoutMs(100);
        assertEquals(0, net.mad.postSendMad(req));
        net.settle();
        assertEquals(1, received.size());
        Object[] r = received.remove(0);
        assertSame(setter, r[0]);
        assertNull(r[1]);
        MadRecvWc wc = (MadRecvWc) r[2];
        assertEquals(client.tid(42), wc.hdr().tid);
        assertEquals(client.hiTid(), (int) (wc.hdr().tid >>> 32));
        // the setter answers; the response finds the client's request by TID
        MadSendBuf resp = net.mad.createResponse(setter, wc, false, 24, 232);
        resp.mad()[3] = (byte) MadHdr.IB_MGMT_METHOD_GET_RESP;
        resp.mad()[100] = 0x5a;
        assertEquals(0, net.mad.postSendMad(resp));
        net.settle();
        Object[] back = received.stream().filter(x -> x[0] == client).findFirst().orElseThrow();
        assertSame(req, back[1]);
        assertEquals(0x5a, ((MadRecvWc) back[2]).mad()[100]);
        assertTrue(sent.stream().anyMatch(w -> w.sendBuf() == req && w.status() == WcStatus.SUCCESS));
        assertTrue(sent.stream().anyMatch(w -> w.sendBuf() == resp && w.status() == WcStatus.SUCCESS));
        assertTrue(received.stream().noneMatch(x -> x[0] == getter));
        // Get to a class nobody serves on C: answered "unsupported" by the MAD layer itself
        MadSendBuf unserved = request(client, 12, MadHdr.IB_MGMT_METHOD_GET, 43);
        unserved.setTimeoutMs(100);
        net.mad.postSendMad(unserved);
        net.settle();
        MadRecvWc un = (MadRecvWc) received.stream().filter(x -> x[1] == unserved).findFirst().orElseThrow()[2];
        assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB, un.hdr().status);
        assertEquals(1, net.mad.counter(net.dev("C"), 1, MadCounter.NO_AGENT));
    }

    @Test
    void unmatchedResponsesAreDroppedAndCounted() {
        net.bringUp("A", "B", "C");
        MadAgent ag = agent(b, QpType.GSI, null);
        MadAgent client = agent(a, QpType.GSI, null);
        // a response carrying the client's hi_tid but a TID nobody sent
        MadSendBuf stray = request(ag, 10, MadHdr.IB_MGMT_METHOD_GET_RESP, 0);
        MadHdr.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET_RESP, 0x10, 0, client.tid(777)).pack(stray.mad(), 0);
        assertEquals(0, net.mad.postSendMad(stray));
        // and one whose hi_tid no agent has
        MadSendBuf orphan = request(ag, 10, MadHdr.IB_MGMT_METHOD_GET_RESP, 0);
        MadHdr.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET_RESP, 0x10, 0, 0x7fff_0000_0000_0001L).pack(orphan.mad(), 0);
        assertEquals(0, net.mad.postSendMad(orphan));
        net.settle();
        assertEquals(2, net.mad.counter(a, 1, MadCounter.UNMATCHED_RESPONSE));
        assertTrue(received.stream().noneMatch(x -> x[0] == client));
    }

    @Test
    void timeoutsRetriesModifyAndCancelRunInVirtualTime() {
        net.bringUp("A", "B", "C");
        agent(b, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET)); // never answers
        MadAgent client = agent(a, QpType.GSI, null);
        MadSendBuf req = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 1);
        req.setTimeoutMs(100);
        req.setRetries(2);
        assertEquals(0, net.mad.postSendMad(req));
        net.settle();
        assertEquals(1, countRecv(b));
        net.advance(99);
        assertEquals(1, countRecv(b));
        net.advance(1);
        assertEquals(2, countRecv(b));
        net.advance(100);
        assertEquals(3, countRecv(b));
        assertTrue(sent.isEmpty());
        net.advance(100);
        assertEquals(1, sent.size());
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, sent.get(0).status());
        assertEquals(4, req.retries());
        assertEquals(2, net.mad.counter(a, 1, MadCounter.RETRIES));
        assertEquals(1, net.mad.counter(a, 1, MadCounter.TIMEOUTS));
        // modify: a longer timeout counted from now
        sent.clear();
        MadSendBuf slow = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 2);
        slow.setTimeoutMs(100);
        net.mad.postSendMad(slow);
        net.settle();
        assertEquals(0, net.mad.modifyMad(slow, 1000));
        net.advance(500);
        assertTrue(sent.isEmpty());
        net.advance(500);
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, sent.get(0).status());
        assertEquals(-Errno.EINVAL.value, net.mad.modifyMad(slow, 10));
        // cancel: flushed at once, no retry afterwards
        sent.clear();
        MadSendBuf c = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 3);
        c.setTimeoutMs(100);
        c.setRetries(5);
        net.mad.postSendMad(c);
        net.settle();
        int before = countRecv(b);
        net.mad.cancelMad(c);
        net.settle();
        assertEquals(1, sent.size());
        assertEquals(WcStatus.WR_FLUSH_ERR, sent.get(0).status());
        net.advance(1000);
        assertEquals(before, countRecv(b));
        assertEquals(1, sent.size());
        // unregistering flushes what is outstanding
        sent.clear();
        MadSendBuf last = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 4);
        last.setTimeoutMs(100);
        net.mad.postSendMad(last);
        net.settle();
        net.mad.unregisterMadAgent(client);
        assertEquals(WcStatus.WR_FLUSH_ERR, sent.get(0).status());
        assertEquals(-Errno.ENODEV.value, net.mad.postSendMad(request(client, 11, 1, 5)));
    }

    @Test
    void aBurstBeyondTheSendQueueWaitsItsTurnAndEveryAnswerFindsItsRequest() {
        net.bringUp("A", "B", "C");
        int burst = 3 * MadLayer.SEND_QUEUE_SIZE;
        MadAgent echo = net.mad.registerMadAgent(b, 1, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET),
                0, (ag, wc) -> net.mad.freeSendMad(wc.sendBuf()), (ag, sb, wc) -> {
                    MadSendBuf resp = net.mad.createResponse(ag, wc, false, 24, 232);
                    resp.mad()[3] = (byte) MadHdr.IB_MGMT_METHOD_GET_RESP;
                    assertEquals(0, net.mad.postSendMad(resp));
                }, null, 0);
        MadAgent client = agent(a, QpType.GSI, null);
        long sentBefore = net.mad.counter(a, 1, MadCounter.SENT);
        List<MadSendBuf> reqs = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            MadSendBuf req = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, i);
            ByteBuffer.wrap(req.mad()).putInt(64, 0x5a000000 | i);
            req.setTimeoutMs(1000);
            assertEquals(0, net.mad.postSendMad(req));
            reqs.add(req);
        }
        net.settle();
        assertEquals(burst, received.size());
        for (Object[] r : received) {
            MadSendBuf req = (MadSendBuf) r[1];
            MadRecvWc wc = (MadRecvWc) r[2];
            assertEquals(ByteBuffer.wrap(req.mad()).getInt(64), ByteBuffer.wrap(wc.mad()).getInt(64),
                    "the answer carries the data of the request it matched: no send slot was overwritten early");
        }
        assertEquals(burst, sent.size());
        assertTrue(sent.stream().allMatch(w -> w.status() == WcStatus.SUCCESS));
        assertEquals(0, net.clock.pending(), "every request answered: no timer left behind");
        assertEquals(burst, net.mad.counter(a, 1, MadCounter.SENT) - sentBefore);
        net.mad.unregisterMadAgent(echo);
    }

    @Test
    void answeringOrCancellingOneRequestLeavesTheOthersTimeoutsAlone() {
        net.bringUp("A", "B", "C");
        agent(b, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET)); // never answers
        MadAgent client = agent(a, QpType.GSI, null);
        MadSendBuf first = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 1);
        first.setTimeoutMs(100);
        MadSendBuf second = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 2);
        second.setTimeoutMs(300);
        net.mad.postSendMad(first);
        net.mad.postSendMad(second);
        net.settle();
        net.mad.cancelMad(first);
        net.settle();
        assertEquals(List.of(WcStatus.WR_FLUSH_ERR), sent.stream().map(MadSendWc::status).toList());
        net.advance(299);
        assertEquals(1, sent.size(), "the timer armed for the cancelled request found nothing due");
        net.advance(1);
        assertEquals(2, sent.size());
        assertSame(second, sent.get(1).sendBuf());
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, sent.get(1).status());
        assertEquals(0, net.clock.pending());
        // a shorter timeout posted behind a longer one still fires first
        sent.clear();
        MadSendBuf slow = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 3);
        slow.setTimeoutMs(500);
        MadSendBuf quick = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 4);
        quick.setTimeoutMs(50);
        net.mad.postSendMad(slow);
        net.mad.postSendMad(quick);
        net.settle();
        net.advance(50);
        assertEquals(List.of(quick), sent.stream().map(MadSendWc::sendBuf).toList());
        net.advance(450);
        assertEquals(List.of(quick, slow), sent.stream().map(MadSendWc::sendBuf).toList());
        assertEquals(0, net.clock.pending());
    }

    private int countRecv(IbDevice d) {
        return (int) received.stream().filter(x -> ((MadAgent) x[0]).device() == d).count();
    }

    @Test
    void malformedMadsAreDroppedAndCounted() {
        net.bringUp("A", "B", "C");
        MadAgent server = agent(a, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET));
        MadAgent client = agent(b, QpType.GSI, null);
        // bad base version
        MadSendBuf v2 = request(client, 10, MadHdr.IB_MGMT_METHOD_GET, 1);
        v2.mad()[0] = 2;
        assertEquals(0, net.mad.postSendMad(v2));
        net.settle();
        assertEquals(1, net.mad.counter(a, 1, MadCounter.BAD_BASE_VERSION));
        // an SMP class on QP1
        MadSendBuf smp = request(client, 10, MadHdr.IB_MGMT_METHOD_GET, 2);
        smp.mad()[1] = (byte) MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED;
        net.mad.postSendMad(smp);
        net.settle();
        assertEquals(1, net.mad.counter(a, 1, MadCounter.BAD_QP));
        // too short: 100 bytes from a plain UD QP to QP1
        rawUd(b, 10, 100);
        assertEquals(1, net.mad.counter(a, 1, MadCounter.BAD_LENGTH));
        // a returning DR SMP whose hop pointer makes no sense, looped back to A's own QP0
        MadAgent sm = agent(a, QpType.SMI, null);
        MadSendBuf dr = net.mad.createSendMad(sm, 0, 0, false, 24, 232, 1);
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET_RESP, NodeInfo.ATTR_ID, 0, sm.tid(9), 1);
        s.setDirection(true);
        s.hopPtr = 5;
        s.drDlid = 10;
        s.pack(dr.mad(), 0);
        AhAttr self = new AhAttr();
        self.portNum = 1;
        self.dlid = 10;
        dr.setAh(net.mad.createAh(sm, self));
        assertEquals(0, net.mad.postSendMad(dr));
        net.settle();
        assertEquals(1, net.mad.counter(a, 1, MadCounter.SMI_DISCARD));
        assertTrue(received.stream().noneMatch(x -> x[0] == server || x[0] == sm));
        // and the port still works
        MadSendBuf ok = request(client, 10, MadHdr.IB_MGMT_METHOD_GET, 3);
        net.mad.postSendMad(ok);
        net.settle();
        assertTrue(received.stream().anyMatch(x -> x[0] == server));
    }

    /** Sends {@code len} bytes from a fresh UD QP on {@code d} to QP1 of {@code dlid}. */
    private void rawUd(IbDevice d, int dlid, int len) {
        IbPd pd = d.allocPd(0);
        IbCq cq = d.allocCq(null, 16, 0, PollContext.DIRECT);
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.UD;
        init.sendCq = cq;
        init.recvCq = cq;
        init.cap.maxSendWr = 4;
        init.cap.maxRecvWr = 4;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        IbQp qp = pd.createQp(init);
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.portNum = 1;
        at.qkey = MadHdr.IB_QP1_QKEY;
        qp.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
        at.qpState = QpState.RTR;
        qp.modify(at, QpAttrMask.STATE);
        at.qpState = QpState.RTS;
        qp.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
        AhAttr av = new AhAttr();
        av.portNum = 1;
        av.dlid = dlid;
        IbAh ah = pd.createAh(av, 0);
        ByteBuffer buf = ByteBuffer.allocate(len);
        buf.put(0, (byte) 1).put(1, (byte) CLASS).put(2, (byte) 1).put(3, (byte) 1);
        long dma = d.dmaMapSingle(buf);
        SendWr wr = new SendWr();
        wr.wrCqe = (c, w) -> { };
        wr.sendFlags = SendFlags.SIGNALED;
        wr.sg(new Sge(dma, len, pd.localDmaLkey()));
        wr.ah = ah;
        wr.remoteQpn = 1;
        wr.remoteQkey = MadHdr.IB_QP1_QKEY;
        assertEquals(0, qp.postSend(wr, null));
        cq.processCqDirect(-1);
        net.settle();
        qp.destroy();
        ah.destroy();
        cq.free();
        d.dmaUnmapSingle(dma);
        pd.dealloc();
    }

    @Test
    void theSmaAnswersNodeInfoAndPortInfoFromTheDevice() {
        net.bringUp("A", "B", "C");
        Smp req = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 5);
        byte[] m = new byte[256];
        req.pack(m, 0);
        Smp resp = new Smp().unpack(SmaAgent.answer(b, 1, m), 0);
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, resp.method);
        NodeInfo ni = new NodeInfo().unpack(resp.data, 0);
        assertEquals(b.nodeGuid(), ni.nodeGuid);
        assertEquals(b.queryGid(1, 0).interfaceId(), ni.portGuid);
        req = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, org.rdma.verbs.wire.PortInfo.ATTR_ID, 0, 6);
        req.pack(m, 0);
        resp = new Smp().unpack(SmaAgent.answer(b, 1, m), 0);
        assertTrue(resp.direction());
        assertEquals(11, new org.rdma.verbs.wire.PortInfo().unpack(resp.data, 0).lid);
        // the embedded SMA of mlx4sim gives the same answer over the wire
        Smp wire = net.smp("A", Smp.directed(MadHdr.IB_MGMT_METHOD_GET, org.rdma.verbs.wire.PortInfo.ATTR_ID, 0, 0, 1, 2));
        assertEquals(11, new org.rdma.verbs.wire.PortInfo().unpack(wire.data, 0).lid);
        assertNotNull(SmaAgent.answer(b, 1, m));
    }

    @Test
    void removingTheDeviceTearsThePortsDownWithoutLeaks() {
        net.bringUp("A", "B", "C");
        agent(b, QpType.GSI, MadRegRequest.of(CLASS, 1, MadHdr.IB_MGMT_METHOD_GET)); // never answers
        MadAgent client = agent(a, QpType.GSI, null);
        MadSendBuf req = request(client, 11, MadHdr.IB_MGMT_METHOD_GET, 1);
        req.setTimeoutMs(100);
        net.mad.postSendMad(req);
        net.settle();
        req.ah().destroy();
        net.pump.inline = true;
        net.sa.remove(a, null);
        net.mad.remove(a, null);
        assertTrue(sent.stream().anyMatch(w -> w.sendBuf() == req && w.status() == WcStatus.WR_FLUSH_ERR));
        java.util.Map<String, Integer> counts = ((org.rdma.core.internal.verbs.CoreDevice) a).restrack().counts();
        assertTrue(counts.values().stream().allMatch(n -> n == 0), "restrack after remove: " + counts);
    }
}
