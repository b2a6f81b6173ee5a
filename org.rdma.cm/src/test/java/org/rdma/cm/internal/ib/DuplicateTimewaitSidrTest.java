package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmSidrRepEventParam;
import org.rdma.cm.ib.IbCmSidrRepParam;
import org.rdma.cm.ib.IbCmSidrReqParam;
import org.rdma.cm.ib.IbCmSidrStatus;
import org.rdma.cm.ib.IbCmState;
import org.rdma.fabric.FaultProfile;
import org.rdma.mad.sa.PathRecord;
import org.rdma.sm.testkit.Verbs;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.WcStatus;

/** Duplicated REQ, REP and DREQ answered from the id's state, timewait, and SIDR. */
class DuplicateTimewaitSidrTest {
    private static final int QKEY = 0x1234_5678;
    private CmNet cn;
    private Peer a;
    private Peer b;

    @BeforeEach
    void setUp() {
        cn = CmNet.ib();
        a = new Peer(cn, cn.a);
        b = new Peer(cn, cn.b);
    }

    @AfterEach
    void tearDown() {
        cn.close();
    }

    private long count(String host, IbCmCounterGroup g, int attr) {
        return cn.counter(host, g, attr);
    }

    @Test
    void everyMessageFromTheActiveSideDuplicatedIsServedOnce() {
        b.listen();
        PathRecord ab = cn.path(cn.a, cn.b);
        cn.faults(cn.a, FaultProfile.NONE.withDuplicateRate(1.0));
        IbCmId id = a.connect(a.reqParam(ab, Peer.SID, null));
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, id.state());
        assertEquals(1, b.events(IbCmEventType.REQ_RECEIVED).size(), "one connection for two REQs");
        assertEquals(1, count(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.REQ_ATTR_ID));
        assertEquals(1, count(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.RTU_ATTR_ID));
        assertEquals(1, b.events(IbCmEventType.RTU_RECEIVED).size());

        cn.cm.sendCmDreq(id, null);
        cn.advance(10);
        assertEquals(1, b.events(IbCmEventType.DREQ_RECEIVED).size());
        assertEquals(1, count(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.DREQ_ATTR_ID),
                "the second DREQ found the id in timewait");
        assertEquals(2, count(cn.b, IbCmCounterGroup.XMIT, IbCm.DREP_ATTR_ID), "and got the DREP again");
        assertEquals(1, a.events(IbCmEventType.DREP_RECEIVED).size());
        assertEquals(IbCmState.TIMEWAIT, id.state());
    }

    @Test
    void aDuplicatedRepIsAnsweredWithTheRtuAgain() {
        b.listen();
        PathRecord ab = cn.path(cn.a, cn.b);
        cn.faults(cn.b, FaultProfile.NONE.withDuplicateRate(1.0));
        IbCmId id = a.connect(a.reqParam(ab, Peer.SID, null));
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, id.state());
        assertEquals(1, a.events(IbCmEventType.REP_RECEIVED).size());
        assertEquals(1, count(cn.a, IbCmCounterGroup.RECV_DUPLICATES, IbCm.REP_ATTR_ID));
        assertEquals(2, count(cn.a, IbCmCounterGroup.XMIT, IbCm.RTU_ATTR_ID), "the RTU, sent again");
        assertEquals(1, count(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.RTU_ATTR_ID));
    }

    @Test
    void aDreqForAConnectionNobodyKnowsStillGetsADrep() {
        b.listen();
        IbCmId id = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        IbCmId passive = b.only(IbCmEventType.REQ_RECEIVED).id();
        // the passive side forgets the connection without telling (its DREQ is lost)
        cn.drop(cn.b, true);
        cn.cm.destroyCmId(passive);
        cn.advance(10);
        cn.drop(cn.b, false);
        assertEquals(IbCmState.ESTABLISHED, id.state());
        cn.advance(60_000);
        assertEquals(0, cn.cm.localIdsInUse() - 2, "the passive local ID is free after timewait");
        cn.cm.sendCmDreq(id, null);
        cn.advance(10);
        a.only(IbCmEventType.DREP_RECEIVED);
        assertEquals(1, count(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.DREQ_ATTR_ID));
    }

    @Test
    void timewaitHoldsTheLocalIdOfADestroyedIdUntilItEnds() {
        b.listen();
        IbCmId id = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        IbCmId passive = b.only(IbCmEventType.REQ_RECEIVED).id();
        int ids = cn.cm.localIdsInUse();
        cn.cm.destroyCmId(id);
        cn.advance(10);
        assertEquals(IbCmState.TIMEWAIT, id.state(), "destroying an established id disconnects it");
        assertEquals(1, b.events(IbCmEventType.DREQ_RECEIVED).size());
        assertEquals(IbCmState.TIMEWAIT, passive.state());
        assertEquals(ids, cn.cm.localIdsInUse(), "both local IDs still held");
        assertEquals(2, cn.cm.cmIds().size(), "the destroyed id is not listed");
        int timewaitMs = CmTime.toMs(20);
        cn.advance(timewaitMs);
        assertEquals(IbCmState.IDLE, passive.state());
        b.only(IbCmEventType.TIMEWAIT_EXIT);
        assertTrue(a.events(IbCmEventType.TIMEWAIT_EXIT).isEmpty(), "no events for a destroyed id");
        assertEquals(ids - 1, cn.cm.localIdsInUse(), "the destroyed id's local ID is free");
    }

    private Verbs udQp(String host) {
        Verbs v = new Verbs(cn.dev(host), QpType.UD);
        v.toRts(null, 0, QKEY);
        return v;
    }

    @Test
    void sidrResolvesTheUdQpAndQkeyOfAServiceAndTheyCarryADatagram() {
        Verbs server = udQp(cn.b);
        b.ret = (id, ev) -> {
            if (ev.event() == IbCmEventType.SIDR_REQ_RECEIVED) {
                assertEquals(Peer.SID, ev.sidrReqRcvd().serviceId);
                assertEquals(1, ev.sidrReqRcvd().port);
                assertEquals(0xFFFF, ev.sidrReqRcvd().pkey);
                assertEquals("who", new String(ev.privateData(), 0, 3, StandardCharsets.US_ASCII));
                IbCmSidrRepParam p = new IbCmSidrRepParam();
                p.qpNum = server.qp.qpNum();
                p.qkey = QKEY;
                p.info = new byte[] {9, 8};
                p.privateData = "me".getBytes(StandardCharsets.US_ASCII);
                cn.cm.sendCmSidrRep(id, p);
                return 1;
            }
            return 0;
        };
        b.listen();
        PathRecord ab = cn.path(cn.a, cn.b);
        IbCmId id = cn.cm.createCmId(a.dev, a, null);
        IbCmSidrReqParam q = new IbCmSidrReqParam();
        q.path = ab;
        q.serviceId = Peer.SID;
        q.timeoutMs = 100;
        q.maxCmRetries = 3;
        q.privateData = "who".getBytes(StandardCharsets.US_ASCII);
        cn.cm.sendCmSidrReq(id, q);
        assertEquals(IbCmState.SIDR_REQ_SENT, id.state());
        cn.advance(10);
        IbCmSidrRepEventParam rep = a.only(IbCmEventType.SIDR_REP_RECEIVED).ev().sidrRepRcvd();
        assertEquals(IbCmSidrStatus.SUCCESS.value(), rep.status);
        assertEquals(server.qp.qpNum(), rep.qpn);
        assertEquals(QKEY, rep.qkey);
        assertEquals(2, rep.info.length);
        assertEquals("me", new String(a.last().ev().privateData(), 0, 2, StandardCharsets.US_ASCII));
        assertEquals(IbCmState.IDLE, id.state());
        assertEquals(2, cn.cm.cmIds().size(), "the listen and the requester; the SIDR id was destroyed");

        Verbs client = udQp(cn.a);
        AhAttr attr = new AhAttr();
        cn.net.sa.initAhAttrFromPath(client.dev, 1, ab, attr);
        IbAh ah = client.pd.createAh(attr, 0);
        server.postRecv(0, 2048);
        for (int i = 0; i < 100; i++) {
            client.buf.put(i, (byte) (i + 1));
        }
        SendWr w = new SendWr();
        w.ah = ah;
        w.remoteQpn = rep.qpn;
        w.remoteQkey = rep.qkey;
        client.postSend(0, 100, w);
        cn.advance(10);
        client.poll();
        server.poll();
        assertEquals(WcStatus.SUCCESS, server.received.get(0).status);
        assertEquals(140, server.received.get(0).byteLen, "GRH area and 100 bytes");
        assertEquals(100, server.buf.get(40 + 99));
        ah.destroy();
        client.close();
        server.close();
    }

    @Test
    void sidrWithoutAListenerIsUnsupportedAndALostOneRunsOutOfRetries() {
        PathRecord ab = cn.path(cn.a, cn.b);
        IbCmId id = cn.cm.createCmId(a.dev, a, null);
        IbCmSidrReqParam q = new IbCmSidrReqParam();
        q.path = ab;
        q.serviceId = 0x999;
        q.timeoutMs = 100;
        q.maxCmRetries = 2;
        cn.cm.sendCmSidrReq(id, q);
        cn.advance(10);
        assertEquals(IbCmSidrStatus.UNSUPPORTED.value(), a.only(IbCmEventType.SIDR_REP_RECEIVED).ev().sidrRepRcvd().status);
        assertEquals(1, cn.cm.cmIds().size());

        cn.drop(cn.a, true);
        cn.cm.sendCmSidrReq(id, q);
        cn.advance(299);
        assertTrue(a.events(IbCmEventType.SIDR_REQ_ERROR).isEmpty());
        cn.advance(2);
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, a.only(IbCmEventType.SIDR_REQ_ERROR).ev().sendStatus());
        assertEquals(IbCmState.IDLE, id.state());
        assertEquals(3, count(cn.a, IbCmCounterGroup.XMIT, IbCm.SIDR_REQ_ATTR_ID) - 1);
    }
}
