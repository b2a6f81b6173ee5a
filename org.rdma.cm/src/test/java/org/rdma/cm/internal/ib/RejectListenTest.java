package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmRejEventParam;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmState;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/** Rejects and their reasons, listens with masks, assigned service IDs and shared listens. */
class RejectListenTest {
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

    private IbCmRejEventParam rejected(IbCmId id) {
        Peer.Rec r = a.events(IbCmEventType.REJ_RECEIVED).stream().filter(x -> x.id() == id).findFirst()
                .orElseThrow(() -> new AssertionError("no REJ for " + id + " in " + a.types()));
        return r.ev().rejRcvd();
    }

    @Test
    void aReqForAServiceNobodyListensOnIsRejectedWithInvalidServiceId() {
        IbCmId id = a.connect(cn.b, 0x4242L, null);
        cn.advance(10);
        assertEquals(IbCmRejReason.INVALID_SERVICE_ID, rejected(id).rejReason());
        assertEquals(IbCmState.IDLE, id.state());
        assertEquals(0, cn.cm.remoteTableEntries());
        assertTrue(b.log.isEmpty());
        assertEquals(1, cn.cm.cmIds().size(), "only the active id: the passive one went with the REJ");
        cn.cm.destroyCmId(id);
        assertEquals(0, cn.cm.localIdsInUse());
    }

    @Test
    void aConsumerRejectCarriesItsReasonAriAndPrivateData() {
        b.accept = false;
        b.ret = (id, ev) -> {
            if (ev.event() == IbCmEventType.REQ_RECEIVED) {
                cn.cm.sendCmRej(id, IbCmRejReason.CONSUMER_DEFINED, new byte[] {1, 2, 3},
                        "go away".getBytes(StandardCharsets.US_ASCII));
                return 1;
            }
            return 0;
        };
        b.listen();
        IbCmId id = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        IbCmRejEventParam rej = rejected(id);
        assertEquals(28, rej.reason);
        assertEquals(IbCmRejReason.CONSUMER_DEFINED, rej.rejReason());
        assertArrayEquals(new byte[] {1, 2, 3}, rej.ari);
        byte[] pd = a.only(IbCmEventType.REJ_RECEIVED).ev().privateData();
        assertEquals(IbCm.REJ_PRIVATE_DATA_SIZE, pd.length);
        assertEquals("go away", new String(pd, 0, 7, StandardCharsets.US_ASCII));
        assertEquals(IbCmState.IDLE, id.state());
        assertEquals(1, cn.cm.cmIds().size() - 1, "the listen and the active id: the rejected passive id was destroyed");
        assertEquals("consumer defined", IbCmRejReason.rejectMsg(28));
        assertEquals("unrecognized reason", IbCmRejReason.rejectMsg(34));
    }

    @Test
    void aReqFromAQpAlreadyConnectedIsAStaleConnection() {
        b.listen();
        IbCmId first = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, first.state());
        IbCmId passive = b.only(IbCmEventType.REQ_RECEIVED).id();

        // the same remote QP asks again while the old connection still stands
        IbCmReqParam p = a.reqParam(cn.path(cn.a, cn.b), Peer.SID, null);
        p.qpNum = a.qps.get(first).qp.qpNum();
        IbCmId second = cn.cm.createCmId(a.dev, a, "second");
        cn.cm.sendCmReq(second, p);
        cn.advance(10);
        assertEquals(IbCmRejReason.STALE_CONN, rejected(second).rejReason());
        assertEquals(IbCmState.TIMEWAIT, second.state(), "a stale REJ ends in timewait");
        assertEquals(1, b.events(IbCmEventType.REQ_RECEIVED).size(), "the stale REQ was not offered to the listener");
        assertEquals(1, a.events(IbCmEventType.DREQ_RECEIVED).size(), "the old connection was torn down");
        assertEquals(IbCmEventType.DREP_RECEIVED, b.events(IbCmEventType.DREP_RECEIVED).get(0).ev().event());
        assertEquals(IbCmState.TIMEWAIT, passive.state());
        assertEquals(IbCmState.TIMEWAIT, first.state());
    }

    @Test
    void aListenWithAMaskTakesTheWholeRangeAndOverlapsAreRefused() {
        IbCmId l = cn.cm.createCmId(b.dev, b, null);
        cn.cm.cmListen(l, 0x0000_0000_0000_1000L, 0xFFFF_FFFF_FFFF_F000L);
        assertEquals(0x1000L, l.serviceId());
        assertEquals(0xFFFF_FFFF_FFFF_F000L, l.serviceMask());
        IbCmId inRange1 = a.connect(cn.b, 0x1234L, null);
        IbCmId inRange2 = a.connect(cn.b, 0x1FFFL, null);
        IbCmId outside = a.connect(cn.b, 0x2000L, null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, inRange1.state());
        assertEquals(IbCmState.ESTABLISHED, inRange2.state());
        assertEquals(IbCmRejReason.INVALID_SERVICE_ID, rejected(outside).rejReason());
        assertEquals(0x1234L, b.events(IbCmEventType.REQ_RECEIVED).get(0).id().serviceId(),
                "the new id carries the requested service ID");

        IbCmId overlap = cn.cm.createCmId(b.dev, b, null);
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.cmListen(overlap, 0x1500L, 0));
        assertEquals(Errno.EBUSY, e.errno());
        IbCmId elsewhere = cn.cm.createCmId(a.dev, a, null);
        cn.cm.cmListen(elsewhere, 0x1500L, 0);
        assertEquals(IbCmState.LISTEN, elsewhere.state(), "listens are per device");
        assertThrows(RdmaException.class, () -> cn.cm.cmListen(l, 0x9000L, 0), "already listening");
    }

    @Test
    void assignServiceIdHandsOutLocallyAdministeredIdsThatWork() {
        IbCmId l1 = cn.cm.createCmId(b.dev, b, null);
        IbCmId l2 = cn.cm.createCmId(b.dev, b, null);
        cn.cm.cmListen(l1, IbCm.ASSIGN_SERVICE_ID, 0);
        cn.cm.cmListen(l2, IbCm.ASSIGN_SERVICE_ID, 0x1234);
        assertEquals(IbCm.ASSIGN_SERVICE_ID, l1.serviceId() & IbCm.SERVICE_ID_AGN_MASK);
        assertEquals(l1.serviceId() + 1, l2.serviceId());
        assertEquals(~0L, l2.serviceMask(), "the mask is ignored for an assigned ID");
        IbCmId c = a.connect(cn.b, l2.serviceId(), null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, c.state());
        assertSame(l2, b.only(IbCmEventType.REQ_RECEIVED).ev().reqRcvd().listenId);
        IbCmId bad = cn.cm.createCmId(b.dev, b, null);
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.cmListen(bad, IbCm.ASSIGN_SERVICE_ID | 5, 0));
        assertEquals(Errno.EINVAL, e.errno());
    }

    @Test
    void insertListenSharesTheListenOfTheSameDeviceAndServiceId() {
        IbCmId l1 = cn.cm.cmInsertListen(b.dev, b, Peer.SID);
        IbCmId l2 = cn.cm.cmInsertListen(b.dev, b, Peer.SID);
        assertSame(l1, l2);
        assertEquals(IbCmState.LISTEN, l1.state());
        IbCmId onA = cn.cm.cmInsertListen(a.dev, b, Peer.SID);
        assertNotSame(l1, onA, "another device has its own listen");
        IbCmHandler other = (id, ev) -> 0;
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.cmInsertListen(b.dev, other, Peer.SID));
        assertEquals(Errno.EINVAL, e.errno());

        cn.cm.destroyCmId(l1);
        IbCmId c1 = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, c1.state(), "still listening for the second holder");
        cn.cm.destroyCmId(l2);
        IbCmId c2 = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmRejReason.INVALID_SERVICE_ID, rejected(c2).rejReason(), "the last holder closed it");

        IbCmId withContext = cn.cm.createCmId(b.dev, b, "ctx");
        cn.cm.cmListen(withContext, 0x777L, 0);
        assertThrows(RdmaException.class, () -> cn.cm.cmInsertListen(b.dev, b, 0x777L),
                "a listen with a context is not shared");
    }

    @Test
    void callsOutOfStateOrWithBadParametersFailWithEinval() {
        IbCmId id = cn.cm.createCmId(a.dev, a, null);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.sendCmRep(id, new org.rdma.cm.ib.IbCmRepParam())).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.sendCmRtu(id, null)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.sendCmDreq(id, null)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.sendCmDrep(id, null)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.sendCmRej(id, IbCmRejReason.TIMEOUT, null, null)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.sendCmMra(id, 10, null)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.sendCmReq(id, new IbCmReqParam())).errno(), "no path");
        IbCmReqParam p = a.reqParam(cn.path(cn.a, cn.b), 1, new byte[IbCm.REQ_PRIVATE_DATA_SIZE + 1]);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.sendCmReq(id, p)).errno(),
                "private data too long");
        p.privateData = null;
        p.qpType = QpType.UD;
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.sendCmReq(id, p)).errno(), "UD");
        QpAttr qa = new QpAttr();
        qa.qpState = QpState.INIT;
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.cmInitQpAttr(id, qa)).errno());
        qa.qpState = QpState.SQD;
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cn.cm.cmInitQpAttr(id, qa)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.cmNotify(id, IbEventType.PORT_ACTIVE)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.cmNotify(id, IbEventType.COMM_EST)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.createCmId(a.dev, null, null)).errno());
        assertEquals(IbCmState.IDLE, id.state());
        assertTrue(Arrays.stream(IbCmRejReason.values()).allMatch(r -> IbCmRejReason.of(r.value) == r));
    }
}
