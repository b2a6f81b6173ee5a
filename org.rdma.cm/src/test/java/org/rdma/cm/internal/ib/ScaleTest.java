package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmRepParam;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmState;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;

/** 10,000 connections set up and torn down, each with its own RC QP, leaving nothing behind. */
class ScaleTest {
    private static final int TOTAL = 10_000;
    private static final int BATCH = 2_000;
    /** REQs sent before the fabric runs: well below the 512 receive buffers of QP1. */
    private static final int BURST = 250;

    /** One side: a PD and CQ shared by the connections' QPs, which go when their id leaves timewait. */
    private static final class Side implements IbCmHandler {
        final CmNet cn;
        final CoreDevice dev;
        final IbPd pd;
        final IbCq cq;
        final Map<IbCmId, IbQp> qps = new HashMap<>();
        int established;
        int exits;

        Side(CmNet cn, String host) {
            this.cn = cn;
            this.dev = cn.dev(host);
            pd = dev.allocPd(0);
            cq = dev.allocCq(null, 16, 0, PollContext.DIRECT);
        }

        IbQp newQp() {
            QpInitAttr init = new QpInitAttr();
            init.qpType = QpType.RC;
            init.sendCq = cq;
            init.recvCq = cq;
            init.cap.maxSendWr = 1;
            init.cap.maxRecvWr = 1;
            init.cap.maxSendSge = 1;
            init.cap.maxRecvSge = 1;
            return pd.createQp(init);
        }

        void modify(IbCmId id, IbQp qp, QpState s) {
            QpAttr a = new QpAttr();
            a.qpState = s;
            qp.modify(a, cn.cm.cmInitQpAttr(id, a));
        }

        @Override
        public int handle(IbCmId id, IbCmEvent ev) {
            switch (ev.event()) {
                case REQ_RECEIVED -> {
                    IbQp qp = newQp();
                    qps.put(id, qp);
                    modify(id, qp, QpState.INIT);
                    IbCmRepParam p = new IbCmRepParam();
                    p.qpNum = qp.qpNum();
                    p.startingPsn = id.localId() & 0xFFFFFF;
                    p.rnrRetryCount = 7;
                    cn.cm.sendCmRep(id, p);
                    modify(id, qp, QpState.RTR);
                    modify(id, qp, QpState.RTS);
                }
                case REP_RECEIVED -> {
                    IbQp qp = qps.get(id);
                    modify(id, qp, QpState.INIT);
                    modify(id, qp, QpState.RTR);
                    modify(id, qp, QpState.RTS);
                    cn.cm.sendCmRtu(id, null);
                    established++;
                }
                case RTU_RECEIVED -> established++;
                case DREQ_RECEIVED -> cn.cm.sendCmDrep(id, null);
                case DREP_RECEIVED -> {
                }
                case TIMEWAIT_EXIT -> {
                    qps.remove(id).destroy();
                    exits++;
                    return 1;
                }
                default -> throw new AssertionError("unexpected " + ev + " on " + id);
            }
            return 0;
        }

        void close() {
            cq.free();
            pd.dealloc();
        }
    }

    @Test
    void tenThousandConnectionsComeAndGoWithoutALeak() {
        try (CmNet cn = CmNet.ib()) {
            CoreDevice da = cn.dev(cn.a);
            CoreDevice db = cn.dev(cn.b);
            // after the path query: the SA client keeps the port's SM address handle (sa_port->sm_ah)
            PathRecord path = cn.path(cn.a, cn.b);
            Map<String, Integer> baseA = da.restrack().counts();
            Map<String, Integer> baseB = db.restrack().counts();
            Side a = new Side(cn, cn.a);
            Side b = new Side(cn, cn.b);
            IbCmId listen = cn.cm.createCmId(db, b, null);
            cn.cm.cmListen(listen, Peer.SID, 0);
            long t0 = System.nanoTime();
            for (int done = 0; done < TOTAL; done += BATCH) {
                List<IbCmId> ids = new ArrayList<>();
                for (int i = 0; i < BATCH; i++) {
                    IbCmId id = cn.cm.createCmId(da, a, null);
                    IbQp qp = a.newQp();
                    a.qps.put(id, qp);
                    IbCmReqParam p = new IbCmReqParam();
                    p.primaryPath = path;
                    p.serviceId = Peer.SID;
                    p.qpNum = qp.qpNum();
                    p.startingPsn = id.localId() & 0xFFFFFF;
                    p.remoteCmResponseTimeout = 20;
                    p.localCmResponseTimeout = 20;
                    p.retryCount = 7;
                    p.rnrRetryCount = 7;
                    p.maxCmRetries = 15;
                    cn.cm.sendCmReq(id, p);
                    ids.add(id);
                    if (ids.size() % BURST == 0) {
                        cn.advance(1);
                    }
                }
                cn.advance(50);
                assertEquals(done + BATCH, a.established, "active side established");
                assertEquals(done + BATCH, b.established, "passive side established");
                int n = 0;
                for (IbCmId id : ids) {
                    assertEquals(IbCmState.ESTABLISHED, id.state());
                    cn.cm.sendCmDreq(id, null);
                    if (++n % BURST == 0) {
                        cn.advance(1);
                    }
                }
                cn.advance(60_000);
                assertEquals(done + BATCH, a.exits);
                assertEquals(done + BATCH, b.exits);
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf("IB CM: %d connections set up and torn down in %.2f s (%.0f/s, QPs included)%n", TOTAL,
                    secs, TOTAL / secs);
            assertEquals(TOTAL, a.established);
            assertEquals(1, cn.cm.cmIds().size(), "only the listen is left");
            cn.cm.destroyCmId(listen);
            assertEquals(0, cn.cm.cmIds().size());
            assertEquals(0, cn.cm.localIdsInUse());
            assertEquals(0, cn.cm.remoteTableEntries());
            assertEquals(0, a.qps.size() + b.qps.size());
            a.close();
            b.close();
            cn.settle();
            assertEquals(baseA, da.restrack().counts(), "nothing tracked is left on " + cn.a);
            assertEquals(baseB, db.restrack().counts(), "nothing tracked is left on " + cn.b);
        }
    }
}
