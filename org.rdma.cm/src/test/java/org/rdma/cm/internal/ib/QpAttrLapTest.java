package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmAprStatus;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmState;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.MigState;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.WcStatus;

/** {@code ib_cm_init_qp_attr()} values, {@code ib_cm_notify()}, LAP/APR and handler failures. */
class QpAttrLapTest {
    private CmNet cn;

    @AfterEach
    void tearDown() {
        if (cn != null) {
            cn.close();
        }
    }

    private QpAttr attr(IbCmId id, QpState s, int[] mask) {
        QpAttr a = new QpAttr();
        a.qpState = s;
        mask[0] = cn.cm.cmInitQpAttr(id, a);
        return a;
    }

    @Test
    void initQpAttrGivesInitRtrAndRtsFromTheExchange() {
        cn = CmNet.ib();
        Peer a = new Peer(cn, cn.a);
        Peer b = new Peer(cn, cn.b);
        b.accept = false;
        b.listen();
        PathRecord ab = cn.path(cn.a, cn.b);
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        p.responderResources = 4;
        p.initiatorDepth = 2;
        p.retryCount = 5;
        p.rnrRetryCount = 3;
        IbCmId ca = a.connect(p);
        cn.advance(10);
        IbCmId cb = b.only(IbCmEventType.REQ_RECEIVED).id();
        int[] m = new int[1];

        QpAttr init = attr(cb, QpState.INIT, m);
        assertEquals(QpAttrMask.STATE | QpAttrMask.ACCESS_FLAGS | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT, m[0]);
        assertEquals(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC, init.qpAccessFlags);
        assertEquals(1, init.portNum);
        assertEquals(0, init.pkeyIndex);

        QpAttr rtr = attr(cb, QpState.RTR, m);
        assertEquals(QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN
                | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER, m[0]);
        assertEquals(cn.dev(cn.a).queryPort(1).lid, rtr.ahAttr.dlid, "the path back to the active side");
        assertEquals(Mtu.of(ab.mtu), rtr.pathMtu);
        assertEquals(a.qps.get(ca).qp.qpNum(), rtr.destQpNum);
        assertEquals(2, rtr.maxDestRdAtomic, "the requester's initiator depth");
        assertEquals(0, rtr.minRnrTimer);

        QpAttr rts = attr(cb, QpState.RTS, m);
        assertEquals(QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                | QpAttrMask.MAX_QP_RD_ATOMIC | QpAttrMask.TIMEOUT, m[0]);
        assertEquals(0x111, rts.sqPsn, "the REQ's starting PSN");
        assertEquals(5, rts.retryCnt);
        assertEquals(3, rts.rnrRetry);
        assertEquals(4, rts.maxRdAtomic, "the requester's responder resources");
        assertTrue(rts.timeout > ab.packetLifeTime, "ACK timeout covers the round trip: " + rts.timeout);

        b.accept(cb);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, ca.state());
        QpAttr artr = attr(ca, QpState.RTR, m);
        assertEquals(0x111, artr.rqPsn);
        assertEquals(cn.dev(cn.b).queryPort(1).lid, artr.ahAttr.dlid);
        assertEquals(1, artr.maxDestRdAtomic, "what the passive side granted as initiator depth");
        assertEquals(0x222, attr(ca, QpState.RTS, m).sqPsn, "the REP's starting PSN");
    }

    @Test
    void commEstMakesThePassiveSideEstablishedWithoutTheRtu() {
        cn = CmNet.ib();
        Peer a = new Peer(cn, cn.a);
        Peer b = new Peer(cn, cn.b);
        b.listen();
        a.accept = false;
        IbCmId ca = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmState.REP_RCVD, ca.state());
        IbCmId cb = b.only(IbCmEventType.REQ_RECEIVED).id();
        assertEquals(IbCmState.REP_SENT, cb.state());
        cn.cm.cmNotify(cb, IbEventType.COMM_EST);
        assertEquals(IbCmState.ESTABLISHED, cb.state());
        cn.advance(30_000);
        b.only(IbCmEventType.USER_ESTABLISHED);
        assertEquals(1, cn.counter(cn.b, IbCmCounterGroup.XMIT, IbCm.REP_ATTR_ID), "the REP is not resent any more");
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.cmNotify(cb, IbEventType.COMM_EST)).errno());
        cn.cm.sendCmRtu(ca, null);
        cn.advance(10);
        assertTrue(b.events(IbCmEventType.RTU_RECEIVED).isEmpty());
        assertEquals(1, cn.counter(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.RTU_ATTR_ID));
    }

    @Test
    void lapLoadsAnAlternatePathAndAprAnswersIt() {
        cn = CmNet.ib();
        Peer a = new Peer(cn, cn.a);
        Peer b = new Peer(cn, cn.b);
        b.listen();
        IbCmId ca = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        IbCmId cb = b.only(IbCmEventType.REQ_RECEIVED).id();
        PathRecord alt = cn.path(cn.a, cn.b);
        alt.sl = 3;
        cn.cm.sendCmLap(ca, alt, "lap".getBytes());
        assertEquals(IbCmLapState.LAP_SENT, ca.lapState());
        cn.advance(10);
        Peer.Rec lap = b.only(IbCmEventType.LAP_RECEIVED);
        assertEquals(3, lap.ev().lapRcvd().alternatePath.sl);
        assertEquals(cn.gid(cn.a), lap.ev().lapRcvd().alternatePath.dgid);
        assertEquals(IbCmLapState.LAP_RCVD, cb.lapState());
        cn.cm.sendCmMra(cb, 12, null);
        cn.advance(10);
        a.only(IbCmEventType.MRA_RECEIVED);
        assertEquals(IbCmLapState.MRA_LAP_RCVD, ca.lapState());
        cn.cm.sendCmApr(cb, IbCmAprStatus.SUCCESS, new byte[] {7}, "ok".getBytes());
        cn.advance(10);
        Peer.Rec apr = a.only(IbCmEventType.APR_RECEIVED);
        assertEquals(IbCmAprStatus.SUCCESS.value(), apr.ev().aprRcvd().apStatus);
        assertArrayEquals(new byte[] {7}, apr.ev().aprRcvd().aprInfo);
        assertEquals(IbCmLapState.IDLE, ca.lapState());
        assertEquals(IbCmLapState.IDLE, cb.lapState());

        int[] m = new int[1];
        QpAttr rts = attr(ca, QpState.RTS, m);
        assertEquals(QpAttrMask.ALT_PATH | QpAttrMask.PATH_MIG_STATE, m[0], "only the new alternate path");
        assertEquals(3, rts.altAhAttr.sl);
        assertEquals(MigState.REARM, rts.pathMigState);
        cn.cm.cmNotify(ca, IbEventType.PATH_MIG);
        assertEquals(3, attr(ca, QpState.RTR, m).ahAttr.sl, "the alternate path became the primary one");

        cn.drop(cn.a, true);
        cn.cm.sendCmLap(ca, alt, null);
        cn.advance(200_000);
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, a.only(IbCmEventType.LAP_ERROR).ev().sendStatus());
        assertEquals(IbCmLapState.IDLE, ca.lapState());
        assertEquals(IbCmState.ESTABLISHED, ca.state());
    }

    @Test
    void roceHasNoAlternatePaths() {
        cn = CmNet.roce();
        Peer a = new Peer(cn, cn.a);
        Peer b = new Peer(cn, cn.b);
        b.listen();
        IbCmId ca = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, ca.state());
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.sendCmLap(ca, cn.path(cn.a, cn.b), null));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
    }

    @Test
    void aThrowingHandlerDoesNotStopTheCm() {
        cn = CmNet.ib();
        Peer a = new Peer(cn, cn.a);
        Peer b = new Peer(cn, cn.b);
        b.listen();
        List<IbCmId> seen = new ArrayList<>();
        b.ret = (id, ev) -> {
            if (ev.event() == IbCmEventType.REQ_RECEIVED && seen.isEmpty()) {
                seen.add(id);
                throw new IllegalStateException("consumer bug");
            }
            return 0;
        };
        IbCmId c1 = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, c1.state(), "the handler accepted before it threw");
        IbCmId c2 = a.connect(cn.b, Peer.SID, null);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, c2.state());
        assertEquals(1, seen.size());
    }
}
