package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmState;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.WcStatus;

/** Lost CM MADs in virtual time: retries recover them, exhausted retries fail the step, MRA buys time. */
class RetryTest {
    private CmNet cn;
    private Peer a;
    private Peer b;
    private PathRecord ab;

    @BeforeEach
    void setUp() {
        cn = CmNet.ib();
        a = new Peer(cn, cn.a);
        b = new Peer(cn, cn.b);
        ab = cn.path(cn.a, cn.b);
        b.listen();
    }

    @AfterEach
    void tearDown() {
        cn.close();
    }

    /** The REQ waits 2 x packet life time + the remote CM response timeout before it is resent. */
    private int reqTimeoutMs(IbCmReqParam p) {
        return 2 * CmTime.toMs(p.primaryPath.packetLifeTime) + CmTime.toMs(p.remoteCmResponseTimeout);
    }

    @Test
    void aLostReqIsResentAfterTheResponseTimeout() {
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        int timeout = reqTimeoutMs(p);
        assertTrue(timeout > 4000, "4.096 us * 2^20 plus the path: " + timeout);
        cn.drop(cn.a, true);
        IbCmId id = a.connect(p);
        cn.advance(timeout - 10);
        assertEquals(IbCmState.REQ_SENT, id.state());
        assertTrue(b.log.isEmpty(), "nothing reached the passive side");
        assertEquals(0, cn.counter(cn.a, IbCmCounterGroup.XMIT_RETRIES, IbCm.REQ_ATTR_ID));
        cn.drop(cn.a, false);
        cn.advance(20);
        assertEquals(IbCmState.ESTABLISHED, id.state(), "the resent REQ connected");
        b.only(IbCmEventType.RTU_RECEIVED);
        assertEquals(1, cn.counter(cn.a, IbCmCounterGroup.XMIT_RETRIES, IbCm.REQ_ATTR_ID));
        assertEquals(2, cn.counter(cn.a, IbCmCounterGroup.XMIT, IbCm.REQ_ATTR_ID));
        assertEquals(1, cn.counter(cn.b, IbCmCounterGroup.RECV, IbCm.REQ_ATTR_ID));
    }

    @Test
    void aLostReqOnRoceIsResentToo() {
        cn.close();
        cn = CmNet.roce();
        a = new Peer(cn, cn.a);
        b = new Peer(cn, cn.b);
        b.listen();
        IbCmReqParam p = a.reqParam(cn.path(cn.a, cn.b), Peer.SID, null);
        p.remoteCmResponseTimeout = 16;
        assertEquals(IbCmState.ESTABLISHED, connected(a.connect(p)).state(), "neighbours resolved");
        p = a.reqParam(p.primaryPath, Peer.SID, null);
        p.remoteCmResponseTimeout = 16;
        cn.drop(cn.a, true);
        IbCmId id = a.connect(p);
        cn.advance(reqTimeoutMs(p) - 10);
        assertEquals(IbCmState.REQ_SENT, id.state());
        cn.drop(cn.a, false);
        cn.advance(20);
        assertEquals(IbCmState.ESTABLISHED, id.state());
        assertEquals(1, cn.counter(cn.a, IbCmCounterGroup.XMIT_RETRIES, IbCm.REQ_ATTR_ID));
    }

    private IbCmId connected(IbCmId id) {
        cn.advance(10);
        return id;
    }

    @Test
    void exhaustedReqRetriesGiveReqErrorWithResponseTimeout() {
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        p.maxCmRetries = 2;
        int timeout = reqTimeoutMs(p);
        cn.drop(cn.a, true);
        IbCmId id = a.connect(p);
        cn.advance(3L * timeout - 10);
        assertTrue(a.log.isEmpty(), "still retrying: " + a.types());
        cn.advance(20);
        Peer.Rec err = a.only(IbCmEventType.REQ_ERROR);
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, err.ev().sendStatus());
        assertEquals(IbCmState.IDLE, id.state());
        assertEquals(3, cn.counter(cn.a, IbCmCounterGroup.XMIT, IbCm.REQ_ATTR_ID), "the REQ and two retries");
        assertEquals(0, cn.cm.remoteTableEntries());
    }

    @Test
    void exhaustedRepRetriesGiveRepErrorAndALaterReqStillConnects() {
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        p.maxCmRetries = 2;
        p.localCmResponseTimeout = 14;
        cn.drop(cn.b, true);
        IbCmId id = a.connect(p);
        int repTimeout = CmTime.toMs(14);
        cn.advance(3L * repTimeout + 10);
        Peer.Rec err = b.only(IbCmEventType.REP_ERROR);
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, err.ev().sendStatus());
        assertEquals(IbCmState.IDLE, err.id().state());
        assertEquals(3, cn.counter(cn.b, IbCmCounterGroup.XMIT, IbCm.REP_ATTR_ID));
        assertEquals(IbCmState.REQ_SENT, id.state());
        cn.drop(cn.b, false);
        cn.advance(reqTimeoutMs(p));
        assertEquals(IbCmState.ESTABLISHED, id.state(), "the resent REQ was served anew");
        assertEquals(2, b.events(IbCmEventType.REQ_RECEIVED).size());
    }

    @Test
    void anUnansweredDreqGivesDreqErrorAndTimewait() {
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        p.maxCmRetries = 1;
        IbCmId id = a.connect(p);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, id.state());
        cn.drop(cn.a, true);
        cn.cm.sendCmDreq(id, null);
        cn.advance(2L * reqTimeoutMs(p) + 10);
        assertEquals(WcStatus.RESP_TIMEOUT_ERR, a.only(IbCmEventType.DREQ_ERROR).ev().sendStatus());
        assertEquals(IbCmState.TIMEWAIT, id.state());
        assertEquals(2, cn.counter(cn.a, IbCmCounterGroup.XMIT, IbCm.DREQ_ATTR_ID));
        cn.advance(60_000);
        a.only(IbCmEventType.TIMEWAIT_EXIT);
        assertEquals(IbCmState.ESTABLISHED, b.only(IbCmEventType.RTU_RECEIVED).id().state(),
                "the passive side never heard of it");
    }

    @Test
    void anMraExtendsTheReqTimeoutUntilTheServiceIsReady() {
        b.accept = false;
        b.ret = (id, ev) -> {
            if (ev.event() == IbCmEventType.REQ_RECEIVED) {
                cn.cm.sendCmMra(id, 23, "busy".getBytes());
            }
            return 0;
        };
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        IbCmId id = a.connect(p);
        cn.advance(10);
        Peer.Rec mra = a.only(IbCmEventType.MRA_RECEIVED);
        assertEquals(23, mra.ev().mraRcvd().serviceTimeout);
        assertEquals(IbCmState.MRA_REQ_RCVD, id.state());
        IbCmId passive = b.only(IbCmEventType.REQ_RECEIVED).id();
        assertEquals(IbCmState.MRA_REQ_SENT, passive.state());
        cn.advance(3L * reqTimeoutMs(p));
        assertEquals(0, cn.counter(cn.a, IbCmCounterGroup.XMIT_RETRIES, IbCm.REQ_ATTR_ID),
                "no retry within the 34 s the MRA asked for");
        assertEquals(IbCmState.MRA_REQ_RCVD, id.state());

        // the service gets ready and accepts
        b.accept(passive);
        cn.advance(10);
        assertEquals(IbCmState.ESTABLISHED, id.state());
        assertEquals(IbCmState.ESTABLISHED, passive.state());
    }

    @Test
    void aDuplicateReqWhileTheMraStandsGetsTheMraAgain() {
        b.accept = false;
        b.ret = (id, ev) -> {
            if (ev.event() == IbCmEventType.REQ_RECEIVED) {
                cn.cm.sendCmMra(id, 10, null);
            }
            return 0;
        };
        IbCmReqParam p = a.reqParam(ab, Peer.SID, null);
        cn.drop(cn.b, true);
        IbCmId id = a.connect(p);
        cn.advance(10);
        assertEquals(1, cn.counter(cn.b, IbCmCounterGroup.XMIT, IbCm.MRA_ATTR_ID), "the MRA was lost");
        cn.drop(cn.b, false);
        cn.advance(reqTimeoutMs(p) + 10);
        assertEquals(1, cn.counter(cn.b, IbCmCounterGroup.RECV_DUPLICATES, IbCm.REQ_ATTR_ID));
        assertEquals(2, cn.counter(cn.b, IbCmCounterGroup.XMIT, IbCm.MRA_ATTR_ID), "answered with the MRA again");
        assertEquals(IbCmState.MRA_REQ_RCVD, id.state());
        assertEquals(1, b.events(IbCmEventType.REQ_RECEIVED).size());
    }
}
