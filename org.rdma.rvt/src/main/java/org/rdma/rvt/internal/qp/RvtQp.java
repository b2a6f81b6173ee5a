package org.rdma.rvt.internal.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.RvtPacket;
import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.rvt.internal.mem.RvtPd;
import org.rdma.rvt.internal.mem.Seg;
import org.rdma.rvt.internal.wire.Aeth;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SigType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.spi.Upcalls;
import org.rdma.verbs.time.IbClock;

/**
 * A queue pair ({@code struct rvt_qp}/{@code rxe_qp}): the verbs (modify, query, post, attach,
 * destroy), the queues, the attributes, and the three state machines that do the work:
 * {@link Requester}, {@link Completer} and {@link Responder}, run one after another by the QP's
 * {@link QpTask}.
 *
 * <p>Concurrency. Posting copies requests into the rings under the ring's lock and runs the task.
 * Everything else (state, attributes, machine state, the rings' consumer side) belongs to whoever
 * holds the task: the task itself, or a verb that took it with {@link QpTask#lock()}. Timers and
 * packet arrival only set volatile flags or queue packets and then run the task. Consumer upcalls
 * are deferred through {@link Upcalls}.
 */
public final class RvtQp implements org.rdma.verbs.spi.ProviderQp {
    /** Prints every state machine step (debugging aid: -Drvt.trace=true). */
    static final boolean TRACE = Boolean.getBoolean("rvt.trace");
    /** rxe's limit of unacknowledged PSNs in flight. */
    static final int MAX_UNACKED_PSNS = 128;
    /** Request an ACK at least every this many packets of a long message. */
    static final int ACK_EVERY_PKTS = 64;
    /** Request an ACK at least every this many messages. */
    static final int ACK_EVERY_MSGS = 16;
    /** The longest train of MIDDLE packets the requester builds. */
    static final int MAX_TRAIN = 64;
    /** The Q_Key of GSI (QP1) traffic. */
    static final int GSI_QKEY = 0x80010000;

    final RvtContext dev;
    final IbQp core;
    final RvtPd pd;
    final QpType type;
    /**
     * Facts of {@link #type} the datapath asks for on every packet, fixed at creation: the
     * transport prefix and the type tests would otherwise be a switch or a chain of compares each
     * time.
     */
    private final int transport;
    private final boolean rc;
    private final boolean ud;
    final int qpn;
    volatile int port;
    final RvtCq scq;
    final RvtCq rcq;
    final RvtSrq srq;
    final RecvQueue rq;
    final SigType sigType;

    // send ring: producer sqHead (under sqLock), requester Requester.idx, completer Completer.tail
    final Swqe[] sq;
    final int sqMask;
    final int sqCap;
    volatile int sqHead;
    private final Object sqLock = new Object();
    private int nextSsn = 1;
    final int maxSendSge;
    final int maxInline;
    /** Created with {@code IB_QP_CREATE_INTEGRITY_EN}: REG_MR_INTEGRITY may be posted. */
    final boolean integrityEn;

    // attributes (task owner)
    volatile QpState state = QpState.RESET;
    Mtu pathMtu = Mtu.MTU_256;
    int pmtu = 256;
    int qkey;
    int destQpn;
    int accessFlags;
    int pkeyIndex;
    int timeout;
    int retryCnt;
    int rnrRetry;
    int minRnrTimer;
    int maxRdAtomic;
    int maxDestRdAtomic;
    boolean enSqdAsyncNotify;
    boolean sqDrainedSent;
    boolean commEstPending;
    final AhAttr av = new AhAttr();

    final Requester req;
    final Completer comp;
    final Responder resp;
    final PacketQueue compQ = new PacketQueue();
    final PacketQueue respQ = new PacketQueue();
    final QpTask task;
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    /**
     * The counters this QP's datapath moves, by {@link RvtCounter} ordinal; the device's are these
     * summed over its QPs plus its own ({@link RvtContext#counter}). Only the task's holder writes
     * them (holders follow one another through the task's acquire and release), so a count is a
     * plain increment where a device-wide one is an atomic instruction per packet; the opaque
     * accesses let a reader on another thread see whole values.
     */
    private final long[] counts = new long[RvtContext.COUNTERS];
    /** {@link #respond()}, made once. */
    private final Runnable respond;

    // shared by the machines (one runs at a time)
    final RvtPacket tx = new RvtPacket();
    /** Payload gathered from several segments; made on first use (most QPs never need it). */
    private ByteBuffer bounce;
    final Seg seg = new Seg();
    final Wc sendWc = new Wc();
    final Wc recvWc = new Wc();

    // timers: a deadline the task checks plus at most one pending clock timer each
    volatile long retransDeadline;
    volatile long rnrDeadline;
    /** Written by the task holder and by the clock thread (see {@link #retransTimerFired()}). */
    private volatile IbClock.Timer retransTimer;
    private IbClock.Timer rnrTimer;
    private final Runnable timerFired;
    /**
     * The retransmit timer went off ({@code qp->comp.timeout}, set by
     * {@code rxe_retransmit_timer()}): only then does the completer read the clock to see whether
     * the deadline, which progress may have moved, has really passed.
     */
    private volatile boolean retransFired;
    private final Runnable retransTimerFired;
    volatile boolean destroyed;
    /** Set under {@code sqLock} when destruction starts: later posts are refused, earlier ones flushed. */
    private boolean postClosed;

    private final Runnable onDestroy;

    RvtQp(RvtContext dev, IbQp core, RvtPd pd, QpInitAttr init, RvtCq scq, RvtCq rcq, RvtSrq srq, int qpn,
            Runnable onDestroy) {
        this.onDestroy = onDestroy;
        this.dev = dev;
        this.core = core;
        this.pd = pd;
        this.type = init.qpType;
        this.transport = WrKinds.prefix(type);
        this.rc = type == QpType.RC;
        this.ud = type == QpType.UD || type == QpType.GSI || type == QpType.SMI;
        this.qpn = qpn;
        this.port = init.portNum;
        this.scq = scq;
        this.rcq = rcq;
        this.srq = srq;
        this.sigType = init.sqSigType;
        this.maxSendSge = Math.max(1, init.cap.maxSendSge);
        this.maxInline = init.cap.maxInlineData;
        this.integrityEn = (init.createFlags & QpInitAttr.CREATE_INTEGRITY_EN) != 0;
        this.sqCap = Math.max(1, init.cap.maxSendWr);
        int ring = Integer.highestOneBit(Math.max(1, sqCap - 1)) << 1;
        this.sq = new Swqe[ring];
        this.sqMask = ring - 1;
        for (int i = 0; i < ring; i++) {
            sq[i] = new Swqe(maxSendSge, maxInline);
        }
        this.rq = srq == null ? new RecvQueue(Math.max(1, init.cap.maxRecvWr), Math.max(1, init.cap.maxRecvSge)) : null;
        this.req = new Requester(this);
        this.comp = new Completer(this);
        this.resp = new Responder(this, Math.max(1, dev.attr.maxQpRdAtom), Math.max(1, init.cap.maxRecvSge),
                srq != null ? srq.rq.maxSge() : 0);
        this.task = new QpTask(this::process);
        this.respond = this::respond;
        this.timerFired = task::run;
        this.retransTimerFired = this::onRetransTimer;
        if (type == QpType.GSI) {
            qkey = GSI_QKEY;
        }
        init.cap.maxSendWr = sqCap;
        init.cap.maxSendSge = maxSendSge;
        if (rq != null) {
            init.cap.maxRecvWr = rq.maxWr();
            init.cap.maxRecvSge = rq.maxSge();
        }
    }

    /** The core's QP. */
    public IbQp core() {
        return core;
    }

    @Override
    public int qpNum() {
        return qpn;
    }

    @Override
    public QpState state() {
        return state;
    }

    /** The transport prefix of this QP's opcodes. */
    int transport() {
        return transport;
    }

    boolean isRc() {
        return rc;
    }

    /** The bounce buffer (task held): one path MTU of payload plus a GRH. */
    ByteBuffer bounce() {
        ByteBuffer b = bounce;
        if (b == null) {
            b = ByteBuffer.allocate(4096 + RvtPacket.GRH_BYTES);
            bounce = b;
        }
        return b;
    }

    boolean isUd() {
        return ud;
    }

    // ================================================================== the task

    /**
     * One run of the task: passes of completer, responder and requester until a pass leaves no work
     * behind for the next one.
     *
     * <p>Only the completer's and the requester's progress asks for another pass: each can give the
     * other work (a completion opens the window, returns credits or asks for a retry; a request
     * sent on UC or UD, or a local one, is ready to complete). The responder drains its queue and
     * gives neither of them work except by a packet looped back into this QP or by moving it to
     * ERR, and both of those run the task again ({@link QpTask#run()} marks it PENDING,
     * {@link #error} schedules it), so a pass after one in which only the responder progressed
     * would find nothing.
     */
    private void process() {
        if (destroyed) {
            compQ.clear();
            respQ.clear();
            return;
        }
        boolean progress;
        int guard = 0;
        do {
            // This pass serves whatever was scheduled before it.
            task.scheduledServed();
            progress = comp.run();
            resp.run();
            progress |= req.run();
            if (state == QpState.ERR) {
                progress |= flushRq();
            }
        } while (progress && ++guard < 1_000_000);
        boolean copy = !isRc();
        compQ.keepInline(copy);
        respQ.keepInline(copy);
        checkSqDrained();
    }

    /**
     * The task's work for a request delivered while the task was free: the responder alone. The
     * completer and the requester had nothing to do before the request came (the task was free,
     * and whoever gave them work ran it), and the responder gives them none but through
     * {@link #error}, which schedules the whole work (see {@link #process()}).
     */
    private void respond() {
        if (destroyed) {
            process();
            return;
        }
        resp.run();
        respQ.keepInline(!isRc());
    }

    /** Hands a received packet to the completer ({@code response}) or the responder. */
    void deliver(RvtPacket pkt, boolean response) {
        PacketQueue q = response ? compQ : respQ;
        boolean copy = !isRc();
        Upcalls u = Upcalls.enter();
        try {
            if (task.tryAcquire()) {
                count(RvtCounter.RCVD_PKTS, pkt.segments);
                if (!q.offerInline(pkt)) {
                    q.add(pkt, copy);
                }
                if (response) {
                    task.runAcquired();
                } else {
                    task.runAcquired(respond);
                }
            } else {
                dev.count(RvtCounter.RCVD_PKTS, pkt.segments);
                if (response) {
                    dev.count(RvtCounter.ACK_DEFERRED);
                }
                q.add(pkt, copy);
                task.run();
            }
        } finally {
            u.exit();
        }
    }

    // ================================================================== posting

    @Override
    public int postSend(SendWr wr, SendWr[] badWr) {
        QpState st = state;
        if (st == QpState.RESET || st == QpState.INIT || st == QpState.RTR) {
            if (badWr != null) {
                badWr[0] = wr;
            }
            return -Errno.EINVAL.value;
        }
        int ret = 0;
        synchronized (sqLock) {
            if (postClosed) {
                if (badWr != null) {
                    badWr[0] = wr;
                }
                return -Errno.EINVAL.value;
            }
            for (SendWr w = wr; w != null; w = w.next) {
                ret = postOne(w);
                if (ret != 0) {
                    if (badWr != null) {
                        badWr[0] = w;
                    }
                    break;
                }
            }
        }
        task.run();
        return ret;
    }

    /** Checks one request and copies it into the next ring entry ({@code rvt_post_one_wr()}). */
    private int postOne(SendWr w) {
        WrOpcode op = w.opcode;
        if (op == null || !WrKinds.allowed(op, type)) {
            return -Errno.EINVAL.value;
        }
        if (w.numSge < 0 || w.numSge > maxSendSge || w.numSge > w.sgList.length) {
            return -Errno.EINVAL.value;
        }
        if (sqHead - comp.tail >= sqCap) {
            return -Errno.ENOMEM.value;
        }
        int kind = WrKinds.mask(op);
        Swqe e = sq[sqHead & sqMask];
        boolean signaled = sigType == SigType.ALL_WR || (w.sendFlags & SendFlags.SIGNALED) != 0;
        e.copyFrom(w, kind, signaled);
        if (isUd()) {
            RvtAh ah;
            try {
                ah = w.ah == null ? null : dev.ctx.providerOf(w.ah, RvtAh.class);
            } catch (RuntimeException ex) {
                ah = null;
            }
            if (ah == null || ah.pd != pd) {
                return -Errno.EINVAL.value;
            }
            e.ah = ah;
            e.remoteQpn = w.remoteQpn;
            e.remoteQkey = w.remoteQkey;
            e.pkeyIndex = w.pkeyIndex;
            int mtu = dev.portMtu(type == QpType.UD ? ah.attr.portNum : port);
            if (e.length > mtu) {
                return -Errno.EINVAL.value;
            }
        }
        if (op == WrOpcode.REG_MR || op == WrOpcode.REG_MR_INTEGRITY) {
            try {
                e.regMr = w.mr == null ? null : dev.ctx.providerOf(w.mr, RvtMr.class);
            } catch (RuntimeException ex) {
                e.regMr = null;
            }
            if (e.regMr == null) {
                return -Errno.EINVAL.value;
            }
            if (op == WrOpcode.REG_MR_INTEGRITY && (!integrityEn || w.numSge != 0 || !e.regMr.stageSig(w.mr.sigAttrs()))) {
                return -Errno.EINVAL.value;
            }
            e.regIova = w.mr.iova();
        }
        if (e.length > Integer.MAX_VALUE) {
            return -Errno.EINVAL.value;
        }
        if ((w.sendFlags & SendFlags.INLINE) != 0 && (kind & (Opcodes.SEND | Opcodes.WRITE)) != 0) {
            if (e.length > maxInline || !copyInline(e, w)) {
                return -Errno.EINVAL.value;
            }
        }
        if ((kind & WrKinds.LOCAL) == 0) {
            e.ssn = nextSsn;
            nextSsn = (nextSsn + 1) & 0xffffff;
        }
        Swqe.publish(this);
        return 0;
    }

    private boolean copyInline(Swqe e, SendWr w) {
        int off = 0;
        for (int i = 0; i < w.numSge; i++) {
            Sge s = w.sgList[i];
            if (s.length == 0) {
                continue;
            }
            RvtMr mr = dev.mem.lkeyOk(pd, s.lkey, s.addr, s.length, 0);
            if (mr == null) {
                return false;
            }
            long va = s.addr;
            int left = s.length;
            while (left > 0) {
                if (!mr.translate(va, left, seg)) {
                    return false;
                }
                e.inlineBuf.put(off, seg.buf, seg.index, seg.len);
                off += seg.len;
                va += seg.len;
                left -= seg.len;
            }
        }
        e.isInline = true;
        return true;
    }

    @Override
    public int postRecv(RecvWr wr, RecvWr[] badWr) {
        int ret = 0;
        if (srq != null || state == QpState.RESET) {
            ret = -Errno.EINVAL.value;
            if (badWr != null) {
                badWr[0] = wr;
            }
            return ret;
        }
        for (RecvWr w = wr; w != null; w = w.next) {
            ret = rq.post(w);
            if (ret != 0) {
                if (badWr != null) {
                    badWr[0] = w;
                }
                break;
            }
        }
        if (state == QpState.ERR) {
            task.run();
        }
        return ret;
    }

    // ================================================================== modify / query

    @Override
    public void modify(QpAttr attr, int mask) {
        AhAttr newAv = null;
        if ((mask & QpAttrMask.PORT) != 0) {
            RdmaException.check(dev.validPort(attr.portNum), Errno.EINVAL, "no port " + attr.portNum);
        }
        int p = (mask & QpAttrMask.PORT) != 0 ? attr.portNum : port;
        if ((mask & QpAttrMask.PKEY_INDEX) != 0) {
            RdmaException.check(attr.pkeyIndex >= 0 && dev.pkey(p == 0 ? 1 : p, attr.pkeyIndex) != 0, Errno.EINVAL,
                    "P_Key index " + attr.pkeyIndex + " is empty");
        }
        if ((mask & QpAttrMask.MAX_QP_RD_ATOMIC) != 0) {
            RdmaException.check(attr.maxRdAtomic >= 0 && attr.maxRdAtomic <= dev.attr.maxQpInitRdAtom, Errno.EINVAL,
                    "max_rd_atomic " + attr.maxRdAtomic + " > " + dev.attr.maxQpInitRdAtom);
        }
        if ((mask & QpAttrMask.MAX_DEST_RD_ATOMIC) != 0) {
            RdmaException.check(attr.maxDestRdAtomic >= 0 && attr.maxDestRdAtomic <= dev.attr.maxQpRdAtom,
                    Errno.EINVAL, "max_dest_rd_atomic " + attr.maxDestRdAtomic + " > " + dev.attr.maxQpRdAtom);
        }
        if ((mask & QpAttrMask.MIN_RNR_TIMER) != 0) {
            RdmaException.check(attr.minRnrTimer >= 0 && attr.minRnrTimer <= 31, Errno.EINVAL, "min_rnr_timer > 31");
        }
        if ((mask & QpAttrMask.TIMEOUT) != 0) {
            RdmaException.check(attr.timeout >= 0 && attr.timeout <= 31, Errno.EINVAL, "timeout > 31");
        }
        if ((mask & QpAttrMask.RETRY_CNT) != 0) {
            RdmaException.check(attr.retryCnt >= 0 && attr.retryCnt <= 7, Errno.EINVAL, "retry_cnt > 7");
        }
        if ((mask & QpAttrMask.RNR_RETRY) != 0) {
            RdmaException.check(attr.rnrRetry >= 0 && attr.rnrRetry <= 7, Errno.EINVAL, "rnr_retry > 7");
        }
        if ((mask & QpAttrMask.CAP) != 0) {
            throw new RdmaException(Errno.EINVAL, "resizing a QP is not supported");
        }
        if ((mask & QpAttrMask.AV) != 0) {
            newAv = new AhAttr();
            AhAttr.copy(newAv, attr.ahAttr);
            try {
                dev.driver.resolveAh(p == 0 ? attr.ahAttr.portNum : p, newAv);
            } catch (RuntimeException e) {
                AhAttr.destroy(newAv);
                throw e;
            }
        }
        Upcalls u = task.lock();
        try {
            apply(attr, mask, newAv);
        } finally {
            task.unlock(u);
        }
    }

    private void apply(QpAttr attr, int mask, AhAttr newAv) {
        if ((mask & QpAttrMask.PORT) != 0) {
            port = attr.portNum;
        }
        if ((mask & QpAttrMask.PKEY_INDEX) != 0) {
            pkeyIndex = attr.pkeyIndex;
        }
        if ((mask & QpAttrMask.QKEY) != 0) {
            qkey = attr.qkey;
        }
        if (newAv != null) {
            AhAttr.move(av, newAv);
        }
        if ((mask & QpAttrMask.PATH_MTU) != 0) {
            pathMtu = attr.pathMtu;
        }
        pmtu = Math.min(pathMtu.bytes, dev.portMtu(port == 0 ? 1 : port));
        if ((mask & QpAttrMask.TIMEOUT) != 0) {
            timeout = attr.timeout;
        }
        if ((mask & QpAttrMask.RETRY_CNT) != 0) {
            retryCnt = attr.retryCnt;
            comp.retryLeft = retryCnt;
        }
        if ((mask & QpAttrMask.RNR_RETRY) != 0) {
            rnrRetry = attr.rnrRetry;
            comp.rnrLeft = rnrRetry;
        }
        if ((mask & QpAttrMask.MIN_RNR_TIMER) != 0) {
            minRnrTimer = attr.minRnrTimer;
        }
        if ((mask & QpAttrMask.MAX_QP_RD_ATOMIC) != 0) {
            maxRdAtomic = attr.maxRdAtomic;
        }
        if ((mask & QpAttrMask.MAX_DEST_RD_ATOMIC) != 0) {
            maxDestRdAtomic = attr.maxDestRdAtomic;
        }
        if ((mask & QpAttrMask.DEST_QPN) != 0) {
            destQpn = attr.destQpNum;
        }
        if ((mask & QpAttrMask.ACCESS_FLAGS) != 0) {
            accessFlags = attr.qpAccessFlags;
        }
        if ((mask & QpAttrMask.EN_SQD_ASYNC_NOTIFY) != 0) {
            enSqdAsyncNotify = attr.enSqdAsyncNotify;
        }
        if ((mask & QpAttrMask.SQ_PSN) != 0) {
            req.setPsn(attr.sqPsn);
            comp.setPsn(attr.sqPsn);
        }
        if ((mask & QpAttrMask.RQ_PSN) != 0) {
            resp.setPsn(attr.rqPsn);
        }
        if ((mask & QpAttrMask.STATE) != 0) {
            changeState(attr.qpState);
        }
    }

    private void changeState(QpState next) {
        QpState cur = state;
        switch (next) {
            case RESET:
                reset();
                break;
            case RTR:
                state = next;
                commEstPending = true;
                break;
            case SQD:
                state = next;
                sqDrainedSent = false;
                break;
            case ERR:
                error(WcStatus.WR_FLUSH_ERR);
                break;
            default:
                state = next;
                break;
        }
        if (cur != next) {
            task.schedule();
        }
    }

    /** Back to RESET: everything queued is discarded without completions ({@code rvt_reset_qp()}). */
    private void reset() {
        state = QpState.RESET;
        stopTimers();
        synchronized (sqLock) {
            comp.tail = sqHead;
            req.reset(sqHead);
        }
        comp.reset();
        resp.reset();
        if (rq != null) {
            rq.clear();
        }
        compQ.clear();
        respQ.clear();
        commEstPending = false;
    }

    @Override
    public void query(QpAttr attr, int mask, QpInitAttr init) {
        Upcalls u = task.lock();
        try {
            attr.qpState = state;
            attr.curQpState = state;
            attr.pathMtu = pathMtu;
            attr.qkey = qkey;
            attr.rqPsn = resp.psn;
            attr.sqPsn = req.psn;
            attr.destQpNum = destQpn;
            attr.qpAccessFlags = accessFlags;
            attr.pkeyIndex = pkeyIndex;
            attr.portNum = port;
            attr.timeout = timeout;
            attr.retryCnt = retryCnt;
            attr.rnrRetry = rnrRetry;
            attr.minRnrTimer = minRnrTimer;
            attr.maxRdAtomic = maxRdAtomic;
            attr.maxDestRdAtomic = maxDestRdAtomic;
            attr.enSqdAsyncNotify = enSqdAsyncNotify;
            attr.sqDraining = state == QpState.SQD && req.idx != sqHead;
            AhAttr.destroy(attr.ahAttr);
            AhAttr.copy(attr.ahAttr, av);
            attr.cap.maxSendWr = sqCap;
            attr.cap.maxSendSge = maxSendSge;
            attr.cap.maxInlineData = maxInline;
            attr.cap.maxRecvWr = rq != null ? rq.maxWr() : 0;
            attr.cap.maxRecvSge = rq != null ? rq.maxSge() : 0;
            if (init != null) {
                init.cap.copyFrom(attr.cap);
                init.sqSigType = sigType;
                init.qpType = type;
                init.portNum = port;
            }
        } finally {
            task.unlock(u);
        }
    }

    // ================================================================== multicast

    @Override
    public void attachMcast(Gid gid, int lid) {
        RdmaException.check(type == QpType.UD, Errno.EINVAL, "multicast needs a UD QP");
        dev.mcast.attach(this, port == 0 ? 1 : port, gid, lid);
    }

    @Override
    public void detachMcast(Gid gid, int lid) {
        dev.mcast.detach(this, port == 0 ? 1 : port, gid, lid);
    }

    // ================================================================== errors and flush

    /**
     * {@code rvt_error_qp()}: moves to ERR, stops the timers, completes the receive in progress
     * with {@code rqErr} and flushes the receive queue; the completer flushes the send queue on its
     * next pass. A QP on an SRQ raises LAST_WQE_REACHED.
     */
    void error(WcStatus rqErr) {
        QpState cur = state;
        if (cur == QpState.ERR || cur == QpState.RESET) {
            return;
        }
        state = QpState.ERR;
        stopTimers();
        resp.abortWqe(rqErr);
        flushRq();
        if (srq != null) {
            Upcalls u = Upcalls.enter();
            u.event(dev.ctx, IbEvent.qp(IbEventType.QP_LAST_WQE_REACHED, core));
            u.exit();
        }
        task.schedule();
    }

    /** Completes every posted receive with WR_FLUSH_ERR. */
    private boolean flushRq() {
        if (rq == null) {
            return false;
        }
        boolean any = false;
        Rwqe w = resp.flushScratch;
        while (rq.take(w)) {
            any = true;
            Wc wc = recvWc;
            wc.clear();
            wc.wrId = w.wrId;
            wc.wrCqe = w.wrCqe;
            wc.status = WcStatus.WR_FLUSH_ERR;
            wc.opcode = org.rdma.verbs.WcOpcode.RECV;
            wc.qp = core;
            wc.portNum = port;
            rcq.enter(wc, false);
        }
        return any;
    }

    private void checkSqDrained() {
        if (state == QpState.SQD && !sqDrainedSent && comp.tail == req.idx && req.idx == sqHead) {
            sqDrainedSent = true;
            if (enSqdAsyncNotify) {
                Upcalls u = Upcalls.enter();
                u.event(dev.ctx, IbEvent.qp(IbEventType.SQ_DRAINED, core));
                u.exit();
            }
        }
    }

    /** {@code rvt_comm_est()}: the first packet received in RTR raises COMM_EST once. */
    void commEst() {
        if (commEstPending) {
            commEstPending = false;
            if (state == QpState.RTR) {
                Upcalls u = Upcalls.enter();
                u.event(dev.ctx, IbEvent.qp(IbEventType.COMM_EST, core));
                u.exit();
            }
        }
    }

    // ================================================================== timers

    /** Arms the retransmit timer unless it runs already ({@code rvt_add_retry_timer()}). */
    void armRetrans() {
        long t = Aeth.ackTimeoutNanos(timeout);
        if (t == 0 || retransDeadline != 0) {
            return;
        }
        retransDeadline = dev.clock.nanoTime() + t;
        ensureRetransTimer();
    }

    /** Restarts the retransmit timer on progress, or stops it when nothing is outstanding. */
    void restartRetrans(boolean outstanding) {
        long t = Aeth.ackTimeoutNanos(timeout);
        if (t == 0 || !outstanding) {
            retransDeadline = 0;
            return;
        }
        retransDeadline = dev.clock.nanoTime() + t;
        ensureRetransTimer();
    }

    /** Whether the retransmit deadline has passed (checked by the completer). */
    boolean retransExpired() {
        if (!retransFired) {
            return false;
        }
        retransFired = false;
        long d = retransDeadline;
        if (d == 0) {
            return false;
        }
        long now = dev.clock.nanoTime();
        if (now - d >= 0) {
            retransDeadline = 0;
            return true;
        }
        ensureRetransTimer();
        return false;
    }

    /**
     * The retransmit timer's callback, on the clock's thread. The deadline moves on with every ACK
     * that makes progress, without touching the timer; a timer that finds it moved waits for the
     * new one, and one that finds nothing outstanding stops, instead of running the task. Taking
     * the QP's task on the clock thread while the poster runs would hand it the poster's work: the
     * poster only marks a busy task and returns, then waits on its CQ while the clock thread sends
     * its packets.
     */
    private void onRetransTimer() {
        long d = retransDeadline;
        if (d == 0) {
            return;
        }
        long left = d - dev.clock.nanoTime();
        if (left > 0) {
            retransTimer = dev.clock.schedule(retransTimerFired, left, TimeUnit.NANOSECONDS);
            return;
        }
        retransFired = true;
        task.run();
    }

    private void ensureRetransTimer() {
        IbClock.Timer t = retransTimer;
        if (t == null || !t.isPending()) {
            long delay = Math.max(0, retransDeadline - dev.clock.nanoTime());
            retransTimer = dev.clock.schedule(retransTimerFired, delay, TimeUnit.NANOSECONDS);
        }
    }

    /** {@code rvt_add_rnr_timer()}: wait the RNR time of {@code timerCode} before retrying. */
    void armRnr(int timerCode) {
        long delay = Aeth.rnrNanos(timerCode);
        rnrDeadline = dev.clock.nanoTime() + delay;
        if (rnrDeadline == 0) {
            rnrDeadline = 1;
        }
        IbClock.Timer t = rnrTimer;
        if (t != null) {
            t.cancel();
        }
        rnrTimer = dev.clock.schedule(timerFired, delay, TimeUnit.NANOSECONDS);
    }

    /** Whether the RNR wait is over. */
    boolean rnrExpired() {
        long d = rnrDeadline;
        if (d == 0) {
            return true;
        }
        if (dev.clock.nanoTime() - d >= 0) {
            rnrDeadline = 0;
            return true;
        }
        return false;
    }

    private void stopTimers() {
        retransDeadline = 0;
        rnrDeadline = 0;
        IbClock.Timer t = retransTimer;
        if (t != null) {
            t.cancel();
        }
        t = rnrTimer;
        if (t != null) {
            t.cancel();
        }
    }

    // ================================================================== transmit helpers

    /** The P_Key this QP sends with. */
    int sendPkey(int pkeyIdx) {
        int p = dev.pkey(port == 0 ? 1 : port, pkeyIdx);
        return p == 0 ? 0xffff : p;
    }

    /** With the task held: adds one to this QP's counter {@code c}. */
    void count(RvtCounter c) {
        count(c, 1);
    }

    /** {@link #count(RvtCounter)} of {@code n} at once (the packets of a train). */
    void count(RvtCounter c, int n) {
        int i = c.ordinal();
        COUNTS.setOpaque(counts, i, (long) COUNTS.getOpaque(counts, i) + n);
    }

    /** This QP's share of counter {@code i} (any thread). */
    long countOf(int i) {
        return (long) COUNTS.getOpaque(counts, i);
    }

    /** Hands {@link #tx} to the driver; returns the driver's answer. */
    int transmit(int txPort, AhAttr dest) {
        RvtPacket p = tx;
        p.port = txPort;
        p.av = dest;
        p.vl15 = type == QpType.SMI;
        int ret;
        try {
            ret = dev.driver.transmit(txPort, p);
        } catch (RuntimeException e) {
            ret = -Errno.EIO.value;
        }
        if (ret == 0) {
            count(RvtCounter.SENT_PKTS, p.segments);
        } else {
            dev.count(RvtCounter.SEND_ERR);
        }
        p.payload = null;
        p.av = null;
        p.segments = 1;
        p.endsMessage = false;
        p.startsMessage = false;
        return ret;
    }

    /**
     * Sends an ACK or NAK ({@code send_ack()}): {@code syndrome} with the current MSN for
     * {@code psn}.
     */
    void sendAck(int syndrome, int psn) {
        sendAckPacket(Opcodes.RC | Opcodes.ACKNOWLEDGE, syndrome, psn, 0);
    }

    /** Sends an ATOMIC ACKNOWLEDGE carrying {@code orig}. */
    void sendAtomicAck(int syndrome, int psn, long orig) {
        sendAckPacket(Opcodes.RC | Opcodes.ATOMIC_ACKNOWLEDGE, syndrome, psn, orig);
    }

    private void sendAckPacket(int opcode, int syndrome, int psn, long orig) {
        RvtPacket p = tx;
        byte[] h = p.hdr;
        org.rdma.rvt.internal.wire.Hdr.setBth(h, opcode, false, 0, sendPkey(pkeyIndex), destQpn, false, psn);
        org.rdma.rvt.internal.wire.Hdr.setAeth(h, opcode, Aeth.make(syndrome, resp.msn));
        if ((Opcodes.mask(opcode) & Opcodes.ATMACK) != 0) {
            org.rdma.rvt.internal.wire.Hdr.setAtmack(h, opcode, orig);
        }
        p.hdrLen = Opcodes.length(opcode);
        p.padCount = 0;
        p.payload = null;
        p.payloadOffset = 0;
        p.payloadLength = 0;
        p.payloadStable = true;
        transmit(port, av);
    }

    /** The ACK syndrome with this responder's credits ({@code rvt_compute_aeth()}). */
    int ackSyndrome() {
        if (srq != null) {
            return Aeth.ackSyndrome(Aeth.CREDIT_INVALID);
        }
        return Aeth.ackSyndrome(Aeth.creditCode(rq.count()));
    }

    // ================================================================== destroy

    @Override
    public void destroy() {
        // Close posting first, under the locks posts take, so no request slips in between the
        // flush below and the end of the QP: it would never complete.
        synchronized (sqLock) {
            postClosed = true;
        }
        if (rq != null) {
            rq.close();
        }
        Upcalls u = task.lock();
        try {
            if (state != QpState.RESET) {
                error(WcStatus.WR_FLUSH_ERR);
                comp.flushSq();
                flushRq();
            }
            destroyed = true;
            stopTimers();
            dev.mcast.detachAll(this);
            dev.retire(this);
            compQ.clear();
            respQ.clear();
            AhAttr.destroy(av);
        } finally {
            task.unlock(u);
        }
        onDestroy.run();
    }

    /** Whether the QP allows remote access of {@code bit} ({@code qp_access_flags}). */
    boolean allows(int bit) {
        return (accessFlags & bit) != 0;
    }

    static final int REMOTE_BITS = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;

    @Override
    public String toString() {
        return "qp 0x" + Integer.toHexString(qpn) + " (" + type + ", " + state + ")";
    }
}
