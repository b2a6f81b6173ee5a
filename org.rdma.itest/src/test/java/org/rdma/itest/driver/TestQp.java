package org.rdma.itest.driver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SigType;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.spi.ProviderQp;

/**
 * A queue pair following the {@link ProviderQp} contract: {@link #state()} reports the state,
 * {@link #modify} applies a requested state. Sends posted in RTS complete at once, successfully
 * (when signaled or with {@link SigType#ALL_WR}); sends posted in SQD wait; posting in ERR (or
 * SQE) completes at once with {@code WR_FLUSH_ERR}; moving to ERR flushes every outstanding
 * receive and waiting send with {@code WR_FLUSH_ERR}; RESET discards the queues. Receives stay
 * outstanding until {@link #deliver} completes the oldest. Completions name the core's
 * {@link IbQp} handed to {@code createQp}.
 */
public final class TestQp implements ProviderQp {
    private final TestProvider provider;
    private final IbQp core;
    private final int qpn;
    private final QpType type;
    private final SigType sigType;
    private final TestCq sendCq;
    private final TestCq recvCq;
    private final TestSrq srq;
    private final int maxSendWr;
    private final int maxRecvWr;
    private final int maxSendSge;
    private final int maxRecvSge;
    private final ArrayDeque<PendingWr> sq = new ArrayDeque<>();
    private final ArrayDeque<PendingWr> rq = new ArrayDeque<>();
    private final QpAttr attr = new QpAttr();
    private final List<QpState> transitions = new ArrayList<>();
    private QpState state = QpState.RESET;
    private boolean destroyed;

    TestQp(TestProvider provider, IbQp core, int qpn, QpInitAttr init, TestCq sendCq, TestCq recvCq, TestSrq srq) {
        this.provider = provider;
        this.core = core;
        this.qpn = qpn;
        this.type = init.qpType;
        this.sigType = init.sqSigType;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.maxSendWr = Math.max(1, init.cap.maxSendWr);
        this.maxRecvWr = srq != null ? 0 : Math.max(1, init.cap.maxRecvWr);
        this.maxSendSge = Math.max(1, init.cap.maxSendSge);
        this.maxRecvSge = Math.max(1, init.cap.maxRecvSge);
        if (init.qpType == QpType.SMI || init.qpType == QpType.GSI) {
            attr.portNum = init.portNum;
        }
    }

    /** The core's QP this driver QP belongs to. */
    public IbQp core() {
        return core;
    }

    /** Whether this QP uses {@code o} as its send CQ, receive CQ or SRQ. */
    boolean uses(Object o) {
        return o == sendCq || o == recvCq || o == srq;
    }

    @Override
    public int qpNum() {
        return qpn;
    }

    @Override
    public synchronized QpState state() {
        return state;
    }

    /** Every state this QP was moved to by {@link #modify}, in order. */
    public synchronized List<QpState> transitions() {
        return new ArrayList<>(transitions);
    }

    /** Outstanding receives. */
    public synchronized int outstandingRecvs() {
        return rq.size();
    }

    /** Sends waiting (posted in SQD). */
    public synchronized int waitingSends() {
        return sq.size();
    }

    @Override
    public void modify(QpAttr a, int mask) {
        List<PendingWr> flushSends = new ArrayList<>();
        List<PendingWr> flushRecvs = new ArrayList<>();
        List<PendingWr> runSends = new ArrayList<>();
        synchronized (this) {
            if ((mask & QpAttrMask.QKEY) != 0) {
                attr.qkey = a.qkey;
            }
            if ((mask & QpAttrMask.PORT) != 0) {
                attr.portNum = a.portNum;
            }
            if ((mask & QpAttrMask.PKEY_INDEX) != 0) {
                attr.pkeyIndex = a.pkeyIndex;
            }
            if ((mask & QpAttrMask.ACCESS_FLAGS) != 0) {
                attr.qpAccessFlags = a.qpAccessFlags;
            }
            if ((mask & QpAttrMask.DEST_QPN) != 0) {
                attr.destQpNum = a.destQpNum;
            }
            if ((mask & QpAttrMask.SQ_PSN) != 0) {
                attr.sqPsn = a.sqPsn;
            }
            if ((mask & QpAttrMask.RQ_PSN) != 0) {
                attr.rqPsn = a.rqPsn;
            }
            if ((mask & QpAttrMask.PATH_MTU) != 0) {
                attr.pathMtu = a.pathMtu;
            }
            if ((mask & QpAttrMask.STATE) == 0) {
                return;
            }
            QpState next = a.qpState;
            transitions.add(next);
            switch (next) {
                case RESET:
                    sq.clear();
                    rq.clear();
                    break;
                case ERR:
                    flushSends.addAll(sq);
                    flushRecvs.addAll(rq);
                    sq.clear();
                    rq.clear();
                    break;
                case RTS:
                    runSends.addAll(sq);
                    sq.clear();
                    break;
                default:
                    break;
            }
            state = next;
        }
        for (PendingWr p : runSends) {
            completeSend(p, WcStatus.SUCCESS);
        }
        for (PendingWr p : flushSends) {
            completeSend(p, WcStatus.WR_FLUSH_ERR);
        }
        for (PendingWr p : flushRecvs) {
            completeRecv(p, WcStatus.WR_FLUSH_ERR, 0);
        }
    }

    @Override
    public synchronized void query(QpAttr out, int mask, QpInitAttr init) {
        out.qpState = state;
        out.curQpState = state;
        out.qkey = attr.qkey;
        out.portNum = attr.portNum;
        out.pkeyIndex = attr.pkeyIndex;
        out.qpAccessFlags = attr.qpAccessFlags;
        out.destQpNum = attr.destQpNum;
        out.sqPsn = attr.sqPsn;
        out.rqPsn = attr.rqPsn;
        out.pathMtu = attr.pathMtu;
        out.cap.maxSendWr = maxSendWr;
        out.cap.maxRecvWr = maxRecvWr;
        out.cap.maxSendSge = maxSendSge;
        out.cap.maxRecvSge = maxRecvSge;
        if (init != null) {
            init.qpType = type;
            init.sqSigType = sigType;
            init.cap.copyFrom(out.cap);
        }
    }

    @Override
    public int postSend(SendWr wr, SendWr[] badWr) {
        for (SendWr w = wr; w != null; w = w.next) {
            PendingWr p;
            WcStatus now;
            synchronized (this) {
                if (destroyed || w.numSge > maxSendSge) {
                    return bad(badWr, w, Errno.EINVAL);
                }
                boolean signaled = sigType == SigType.ALL_WR || w.hasFlag(SendFlags.SIGNALED);
                p = new PendingWr(w.wrId, w.wrCqe, w.opcode, (int) w.totalLength(), signaled,
                        w.hasFlag(SendFlags.SOLICITED));
                switch (state) {
                    case RTS:
                        now = WcStatus.SUCCESS;
                        break;
                    case SQD:
                        if (sq.size() >= maxSendWr) {
                            return bad(badWr, w, Errno.ENOMEM);
                        }
                        sq.add(p);
                        now = null;
                        break;
                    case ERR:
                    case SQE:
                        now = WcStatus.WR_FLUSH_ERR;
                        break;
                    default:
                        return bad(badWr, w, Errno.EINVAL);
                }
            }
            if (now != null) {
                completeSend(p, now);
            }
        }
        return 0;
    }

    @Override
    public int postRecv(RecvWr wr, RecvWr[] badWr) {
        for (RecvWr w = wr; w != null; w = w.next) {
            PendingWr p;
            boolean flush;
            synchronized (this) {
                if (destroyed || srq != null || w.numSge > maxRecvSge || state == QpState.RESET) {
                    return badRecv(badWr, w, Errno.EINVAL);
                }
                p = new PendingWr(w.wrId, w.wrCqe, null, 0, true, false);
                flush = state == QpState.ERR;
                if (!flush) {
                    if (rq.size() >= maxRecvWr) {
                        return badRecv(badWr, w, Errno.ENOMEM);
                    }
                    rq.add(p);
                }
            }
            if (flush) {
                completeRecv(p, WcStatus.WR_FLUSH_ERR, 0);
            }
        }
        return 0;
    }

    /**
     * A message of {@code byteLen} bytes arrived: completes the oldest outstanding receive (from
     * the QP or its SRQ) successfully. Returns false if no receive was posted.
     */
    public boolean deliver(int byteLen, boolean solicited) {
        PendingWr p;
        synchronized (this) {
            if (state != QpState.RTR && state != QpState.RTS && state != QpState.SQD) {
                return false;
            }
            p = srq != null ? null : rq.poll();
        }
        if (srq != null) {
            p = srq.take();
        }
        if (p == null) {
            return false;
        }
        PendingWr taken = p;
        recvCq.push(wc -> fillRecv(wc, taken, WcStatus.SUCCESS, byteLen), solicited);
        return true;
    }

    /** Raises an asynchronous QP event through the core ({@code ib_dispatch_event}). */
    public void raise(IbEventType type) {
        provider.dispatch(IbEvent.qp(type, core));
    }

    private void completeSend(PendingWr p, WcStatus status) {
        if (!p.signaled && status == WcStatus.SUCCESS) {
            return;
        }
        sendCq.push(wc -> {
            wc.wrId = p.wrId;
            wc.wrCqe = p.wrCqe;
            wc.status = status;
            wc.opcode = p.opcode.wcOpcode();
            wc.byteLen = status == WcStatus.SUCCESS ? p.length : 0;
            wc.qp = core;
            wc.srcQp = qpn;
            wc.portNum = attr.portNum;
        }, p.solicited);
    }

    private void completeRecv(PendingWr p, WcStatus status, int byteLen) {
        recvCq.push(wc -> fillRecv(wc, p, status, byteLen), false);
    }

    private void fillRecv(org.rdma.verbs.Wc wc, PendingWr p, WcStatus status, int byteLen) {
        wc.wrId = p.wrId;
        wc.wrCqe = p.wrCqe;
        wc.status = status;
        wc.opcode = WcOpcode.RECV;
        wc.byteLen = byteLen;
        wc.qp = core;
        wc.srcQp = qpn;
        wc.portNum = attr.portNum;
    }

    private static int bad(SendWr[] badWr, SendWr w, Errno e) {
        if (badWr != null && badWr.length > 0) {
            badWr[0] = w;
        }
        return -e.value;
    }

    private static int badRecv(RecvWr[] badWr, RecvWr w, Errno e) {
        if (badWr != null && badWr.length > 0) {
            badWr[0] = w;
        }
        return -e.value;
    }

    @Override
    public void destroy() {
        List<PendingWr> flushSends;
        List<PendingWr> flushRecvs;
        synchronized (this) {
            destroyed = true;
            flushSends = new ArrayList<>(sq);
            flushRecvs = new ArrayList<>(rq);
            sq.clear();
            rq.clear();
        }
        for (PendingWr p : flushSends) {
            completeSend(p, WcStatus.WR_FLUSH_ERR);
        }
        for (PendingWr p : flushRecvs) {
            completeRecv(p, WcStatus.WR_FLUSH_ERR, 0);
        }
        provider.destroyed(this, "qp");
    }
}
