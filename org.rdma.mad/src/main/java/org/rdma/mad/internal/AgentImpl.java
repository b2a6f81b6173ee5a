package org.rdma.mad.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvHandler;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendHandler;
import org.rdma.mad.MadSendWc;
import org.rdma.mad.Rmpp;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;

/**
 * {@code struct ib_mad_agent_private}: the agent's outstanding sends ({@code send_list} and
 * {@code wait_list} in one list, told apart by their state, linked through the buffers
 * themselves as the kernel's {@code agent_list}), its RMPP receive contexts ({@code rmpp_list}),
 * one timer armed no later than the earliest deadline ({@code timed_work}), and the use count
 * that makes unregistration a fence.
 *
 * <p>The timer may fire early: a send answered or cancelled before its deadline leaves the
 * timer armed rather than rescanning every outstanding send, and {@link #timeoutSends()}
 * re-arms it for the earliest deadline still pending; it is cancelled when no send is left.
 *
 * <p>Locking: {@link #lock} guards every transfer field of the agent's {@link SendBufImpl}s and
 * the lists here. Handlers, verbs and the clock are called without it.
 */
final class AgentImpl implements MadAgent {
    private static final System.Logger LOG = System.getLogger(AgentImpl.class.getName());
    /** Receiver window of RMPP transfers ({@code window_size()}: an eighth of the receive queue). */
    static final int RMPP_WINDOW = Math.max(MadLayer.RECV_QUEUE_SIZE >> 3, 1);
    /** Time an RMPP sender waits for an ACK when the buffer gives no timeout. */
    static final int RMPP_ACK_TIMEOUT_MS = 2000;
    /**
     * Time a reassembly waits for its next segment before it is aborted with T2L, as the kernel's
     * {@code timeout_work} of a {@code mad_rmpp_recv}: a sender that stops never leaves state behind.
     */
    static final int RMPP_RECV_TIMEOUT_MS = 40_000;

    final MadPort port;
    final int qpIndex;
    private final int hiTid;
    private final int rmppVersion;
    private final int flags;
    private final Object context;
    private final MadSendHandler sendHandler;
    private final MadRecvHandler recvHandler;
    private final IbClock clock;

    final Object lock = new Object();
    /** Outstanding sends, oldest first. */
    private SendBufImpl head;
    private SendBufImpl tail;
    private final Map<RmppKey, RmppRecv> rmppRecvs = new HashMap<>();
    private IbClock.Timer timer;
    private long timerDeadline;
    /** Pending no later than the earliest deadline of {@link #rmppRecvs}, while there is one. */
    private IbClock.Timer rmppTimer;
    private boolean dead;
    private final List<Thread> inCallback = new ArrayList<>();

    AgentImpl(MadPort port, int qpIndex, int hiTid, int rmppVersion, int flags, Object context,
            MadSendHandler sendHandler, MadRecvHandler recvHandler) {
        this.port = port;
        this.qpIndex = qpIndex;
        this.hiTid = hiTid;
        this.rmppVersion = rmppVersion;
        this.flags = flags;
        this.context = context;
        this.sendHandler = sendHandler;
        this.recvHandler = recvHandler;
        this.clock = port.layer.clock();
    }

    // ------------------------------------------------------------------ MadAgent

    @Override
    public IbDevice device() {
        return port.device;
    }

    @Override
    public int portNum() {
        return port.portNum;
    }

    @Override
    public QpType qpType() {
        return qpIndex == 0 ? QpType.SMI : QpType.GSI;
    }

    @Override
    public int qpNum() {
        return qpIndex;
    }

    @Override
    public int hiTid() {
        return hiTid;
    }

    @Override
    public int rmppVersion() {
        return rmppVersion;
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public Object context() {
        return context;
    }

    /** Whether the MAD layer does RMPP for this agent ({@code ib_mad_kernel_rmpp_agent()}). */
    boolean kernelRmpp() {
        return rmppVersion != 0 && (flags & FLAG_USER_RMPP) == 0;
    }

    boolean isDead() {
        synchronized (lock) {
            return dead;
        }
    }

    // ------------------------------------------------------------------ fence

    private boolean enter() {
        synchronized (lock) {
            if (dead) {
                return false;
            }
            inCallback.add(Thread.currentThread());
            return true;
        }
    }

    private void exit() {
        synchronized (lock) {
            inCallback.remove(Thread.currentThread());
            lock.notifyAll();
        }
    }

    private void callSend(SendBufImpl sb, WcStatus status) {
        if (!enter()) {
            return;
        }
        try {
            sendHandler.sendDone(this, new MadSendWc(sb, status, 0));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, this + ": send handler failed", e);
        } finally {
            exit();
        }
    }

    private void callRecv(SendBufImpl sb, MadRecvWc wc) {
        if (recvHandler == null || !enter()) {
            return;
        }
        try {
            recvHandler.recvDone(this, sb, wc);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, this + ": receive handler failed", e);
        } finally {
            exit();
        }
    }

    /**
     * {@code ib_unregister_mad_agent()}: leaves the dispatch table, flushes every outstanding
     * send ({@code cancel_mads()}), then waits for handlers running on other threads.
     */
    void unregister() {
        port.removeAgent(this);
        List<SendBufImpl> flushed = new ArrayList<>();
        synchronized (lock) {
            if (dead) {
                return;
            }
            while (head != null) {
                SendBufImpl sb = head;
                unlink(sb);
                if (!sb.finished) {
                    sb.finished = true;
                    flushed.add(sb);
                }
            }
            rmppRecvs.clear();
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
            if (rmppTimer != null) {
                rmppTimer.cancel();
                rmppTimer = null;
            }
        }
        for (SendBufImpl sb : flushed) {
            callSend(sb, WcStatus.WR_FLUSH_ERR);
        }
        synchronized (lock) {
            dead = true;
            Thread me = Thread.currentThread();
            boolean interrupted = false;
            while (inCallback.stream().anyMatch(t -> t != me)) {
                try {
                    lock.wait(100);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ send

    /** {@code ib_post_send_mad()} for one buffer of this agent. */
    int post(SendBufImpl sb) {
        byte[] mad = sb.mad;
        int mgmtClass = MadHdr.mgmtClass(mad, 0);
        long tid = MadHdr.tid(mad, 0);
        boolean response = MadHdr.isResponse(mad, 0);
        IbAh ah = sb.ah();
        if (qpIndex == 0) {
            boolean smp = mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED
                    || mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
            if (!smp) {
                return -Errno.EINVAL.value;
            }
            if (mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
                // handle_outgoing_dr_smp(): a local SMP still goes to the HCA, whose SMA (in
                // firmware, or ours behind QP0) answers it; an invalid route is refused.
                Smp s = new Smp().unpack(mad, 0);
                DrSmp.Decision d;
                try {
                    d = DrSmp.send(s, false, port.portNum);
                } catch (RuntimeException e) {
                    d = DrSmp.Decision.discard();
                }
                if (d.verdict() == DrSmp.Verdict.DISCARD) {
                    port.count(MadCounter.SMI_DISCARD);
                    return -Errno.EINVAL.value;
                }
                s.pack(mad, 0);
                if (ah == null) {
                    ah = port.permissiveAh();
                    sb.setAh(ah);
                }
            }
        }
        if (ah == null) {
            return -Errno.EINVAL.value;
        }
        if (sb.rmpp && !kernelRmpp()) {
            return -Errno.EINVAL.value;
        }
        int firstWindow;
        synchronized (lock) {
            if (dead) {
                return -Errno.ENODEV.value;
            }
            if (sb.posted && !sb.finished) {
                return -Errno.EBUSY.value;
            }
            sb.posted = true;
            sb.finished = false;
            sb.tid = tid;
            sb.mgmtClass = mgmtClass;
            sb.status = WcStatus.SUCCESS;
            sb.expectResponse = sb.timeoutMs() > 0 && !response;
            sb.responseReceived = false;
            sb.retriesLeft = sb.retries();
            sb.inFlight = 0;
            sb.lastAck = 0;
            sb.segNum = 0;
            sb.newwin = 1;
            sb.deadline = 0;
            link(sb);
            firstWindow = window(sb);
        }
        sendSegments(sb, firstWindow);
        return 0;
    }

    /** Marks the segments up to the window as sent; returns the first one to send, or 0. Lock held. */
    private int window(SendBufImpl sb) {
        int last = Math.min(sb.newwin, sb.segCount);
        if (sb.segNum >= last) {
            return 0;
        }
        int first = sb.segNum + 1;
        sb.inFlight += last - sb.segNum;
        sb.segNum = last;
        sb.deadline = 0;
        return first;
    }

    private void sendSegments(SendBufImpl sb, int first) {
        if (first == 0) {
            return;
        }
        int last;
        synchronized (lock) {
            last = sb.segNum;
        }
        MadQp q = port.qp(qpIndex);
        for (int seg = first; seg <= last; seg++) {
            final int n = seg;
            q.post(new MadQp.Seg(sb.segment(seg), sb.ah(), sb.remoteQpn, sb.remoteQkey(), sb.pkeyIndex) {
                @Override
                void completed(WcStatus status) {
                    segmentDone(sb, n, status);
                }
            });
        }
    }

    /** {@code ib_mad_complete_send_wr()} for one segment. */
    private void segmentDone(SendBufImpl sb, int seg, WcStatus status) {
        boolean finish = false;
        synchronized (lock) {
            if (sb.finished || !sb.listed) {
                return;
            }
            sb.inFlight--;
            if (status != WcStatus.SUCCESS && sb.status == WcStatus.SUCCESS) {
                sb.status = status;
            }
            if (!sb.rmpp && status == WcStatus.SUCCESS) {
                sb.lastAck = Math.max(sb.lastAck, seg);
            }
            if (sb.inFlight > 0) {
                return;
            }
            if (sb.status != WcStatus.SUCCESS || sb.responseReceived) {
                finish = true;
            } else if (sb.lastAck < sb.segCount) {
                waitFor(sb, sb.timeoutMs() > 0 ? sb.timeoutMs() : RMPP_ACK_TIMEOUT_MS);
            } else if (sb.expectResponse) {
                waitFor(sb, sb.timeoutMs());
            } else {
                finish = true;
            }
            if (finish) {
                finishLocked(sb);
            }
        }
        if (finish) {
            callSend(sb, sb.status);
        }
    }

    private void finishLocked(SendBufImpl sb) {
        sb.finished = true;
        sb.deadline = 0;
        unlink(sb);
        if (head == null && timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    /** Appends {@code sb} to the outstanding sends. Lock held. */
    private void link(SendBufImpl sb) {
        sb.prev = tail;
        sb.next = null;
        if (tail == null) {
            head = sb;
        } else {
            tail.next = sb;
        }
        tail = sb;
        sb.listed = true;
    }

    /** Takes {@code sb} off the outstanding sends, if it is on them. Lock held. */
    private void unlink(SendBufImpl sb) {
        if (!sb.listed) {
            return;
        }
        if (sb.prev == null) {
            head = sb.next;
        } else {
            sb.prev.next = sb.next;
        }
        if (sb.next == null) {
            tail = sb.prev;
        } else {
            sb.next.prev = sb.prev;
        }
        sb.prev = null;
        sb.next = null;
        sb.listed = false;
    }

    /** {@code wait_for_response()}: sets the deadline and arms the timer if it is the earliest. Lock held. */
    private void waitFor(SendBufImpl sb, int timeoutMs) {
        sb.deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(timeoutMs, 0)) + (timeoutMs > 0 ? 0 : 1);
        armFor(sb.deadline);
    }

    /**
     * A send waits until {@code deadline}: the timer must fire no later. While any send waits, a
     * timer is pending no later than the earliest deadline, so one new deadline needs no look at
     * the others; a deadline that goes away needs nothing. Lock held.
     */
    private void armFor(long deadline) {
        if (timer != null && timer.isPending() && timerDeadline <= deadline) {
            return;
        }
        schedule(deadline);
    }

    /** Arms the timer for the earliest deadline of all (after a timeout pass). Lock held. */
    private void armLocked() {
        long earliest = Long.MAX_VALUE;
        for (SendBufImpl s = head; s != null; s = s.next) {
            if (s.deadline != 0 && s.deadline < earliest) {
                earliest = s.deadline;
            }
        }
        if (earliest == Long.MAX_VALUE) {
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
            return;
        }
        armFor(earliest);
    }

    private void schedule(long deadline) {
        if (timer != null) {
            timer.cancel();
        }
        timerDeadline = deadline;
        long delay = Math.max(0, deadline - clock.nanoTime());
        timer = clock.schedule(() -> port.layer.workqueue().execute(this::timeoutSends), delay, TimeUnit.NANOSECONDS);
    }

    /** {@code timeout_sends()}: retries or fails every send whose deadline passed. */
    void timeoutSends() {
        List<SendBufImpl> failed = new ArrayList<>();
        List<int[]> resend = new ArrayList<>();
        List<SendBufImpl> resendBufs = new ArrayList<>();
        synchronized (lock) {
            if (dead) {
                return;
            }
            if (timer != null && !timer.isPending()) {
                timer = null; // the one that fired; a newer one armed meanwhile stays
            }
            long now = clock.nanoTime();
            SendBufImpl following;
            for (SendBufImpl sb = head; sb != null; sb = following) {
                following = sb.next;
                if (sb.finished || sb.deadline == 0 || sb.deadline > now) {
                    continue;
                }
                sb.deadline = 0;
                if (sb.status == WcStatus.SUCCESS && sb.retriesLeft > 0) {
                    // retry_send(): the whole request again, or the RMPP window from the last ACK
                    sb.retriesLeft--;
                    sb.setRetries(sb.retries() + 1);
                    port.count(MadCounter.RETRIES);
                    if (sb.lastAck >= sb.segCount) {
                        sb.lastAck = 0;
                        sb.newwin = sb.rmpp ? 1 : 1;
                    }
                    sb.segNum = sb.lastAck;
                    int first = window(sb);
                    resend.add(new int[] {first});
                    resendBufs.add(sb);
                } else {
                    if (sb.status == WcStatus.SUCCESS) {
                        sb.status = WcStatus.RESP_TIMEOUT_ERR;
                        port.count(MadCounter.TIMEOUTS);
                    }
                    finishLocked(sb);
                    failed.add(sb);
                }
            }
            armLocked();
        }
        for (int i = 0; i < resendBufs.size(); i++) {
            sendSegments(resendBufs.get(i), resend.get(i)[0]);
        }
        for (SendBufImpl sb : failed) {
            callSend(sb, sb.status);
        }
    }

    /** {@code ib_modify_mad()}; 0 cancels ({@code ib_cancel_mad()}). */
    int modify(SendBufImpl sb, int timeoutMs) {
        boolean finishNow = false;
        synchronized (lock) {
            if (!sb.listed || sb.finished) {
                return -Errno.EINVAL.value;
            }
            sb.setTimeoutMs(timeoutMs);
            if (timeoutMs == 0) {
                if (sb.status == WcStatus.SUCCESS) {
                    sb.status = WcStatus.WR_FLUSH_ERR;
                }
                if (sb.inFlight == 0) {
                    finishLocked(sb);
                    finishNow = true;
                }
                // else: the last segment's completion finishes it with the flush status
            } else if (sb.deadline != 0) {
                sb.deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                armFor(sb.deadline);
            }
        }
        if (finishNow) {
            // reported from the workqueue, as the kernel's timeout work does
            port.layer.workqueue().execute(() -> callSend(sb, WcStatus.WR_FLUSH_ERR));
        }
        return 0;
    }

    // ------------------------------------------------------------------ receive

    /**
     * {@code ib_mad_complete_recv()}: RMPP, then response matching or request delivery. The
     * caller has read {@code mgmtClass}, {@code tid} and whether it is a response from the MAD.
     */
    void recv(MadRecvWc wc, int mgmtClass, long tid, boolean response) {
        MadRecvWc full = wc;
        if (kernelRmpp() && MadHdr.isClassRmpp(mgmtClass) && Rmpp.isActive(wc.mad())) {
            port.count(MadCounter.RMPP_SEGMENTS);
            full = rmppRecv(wc, mgmtClass, tid);
            if (full == null) {
                return;
            }
        }
        if (!response) {
            callRecv(null, full);
            return;
        }
        SendBufImpl match = null;
        synchronized (lock) {
            for (SendBufImpl sb = head; sb != null; sb = sb.next) {
                // ib_find_send_mad(): same TID and class, still expecting its answer
                if (!sb.finished && sb.tid == tid && sb.mgmtClass == mgmtClass && sb.expectResponse
                        && !sb.responseReceived && sb.status == WcStatus.SUCCESS) {
                    match = sb;
                    break;
                }
            }
            if (match != null) {
                // ib_mark_mad_done(); the armed timer stays (see the class comment)
                match.responseReceived = true;
                match.deadline = 0;
            }
        }
        if (match == null) {
            port.count(MadCounter.UNMATCHED_RESPONSE);
            return;
        }
        callRecv(match, full);
        boolean finish;
        synchronized (lock) {
            finish = !match.finished && match.inFlight == 0;
            if (finish) {
                finishLocked(match);
            }
        }
        if (finish) {
            callSend(match, WcStatus.SUCCESS);
        }
    }

    private record RmppKey(long tid, int slid, int srcQp, int mgmtClass) {
    }

    /** {@code struct mad_rmpp_recv}: one reassembly. */
    private static final class RmppRecv {
        byte[] buf;
        int len;
        int expected = 1;
        int newwin = 1;
        int hdrLen;
        /** The latest segment: where the T2L abort goes. */
        MadRecvWc last;
        long deadline;
    }

    /**
     * {@code ib_process_rmpp_recv_wc()}: DATA segments are reassembled (ACKing each window),
     * ACK/STOP/ABORT drive this agent's own RMPP sends. Returns the whole message, or null.
     */
    private MadRecvWc rmppRecv(MadRecvWc wc, int mgmtClass, long tid) {
        byte[] mad = wc.mad();
        int type = Rmpp.type(mad);
        if (Rmpp.version(mad) != MadAgent.RMPP_VERSION) {
            sendRmppControl(wc, Rmpp.TYPE_ABORT, Rmpp.STATUS_UNV, 0, 0);
            return null;
        }
        switch (type) {
            case Rmpp.TYPE_DATA:
                return rmppData(wc, mgmtClass, tid);
            case Rmpp.TYPE_ACK:
                rmppAck(tid, Rmpp.segNum(mad), Rmpp.paylenNewwin(mad));
                return null;
            case Rmpp.TYPE_STOP:
            case Rmpp.TYPE_ABORT:
                rmppAbort(tid);
                return null;
            default:
                sendRmppControl(wc, Rmpp.TYPE_ABORT, Rmpp.STATUS_BADT, 0, 0);
                return null;
        }
    }

    private MadRecvWc rmppData(MadRecvWc wc, int mgmtClass, long tid) {
        byte[] mad = wc.mad();
        int seg = Rmpp.segNum(mad);
        int rflags = Rmpp.flags(mad);
        Wc w = wc.wc();
        RmppKey key = new RmppKey(tid, w.slid, w.srcQp, mgmtClass);
        int hdrLen = MadHdr.dataOffset(mgmtClass);
        int segData = MadLayer.MAD_SIZE - hdrLen;
        int ackSeg = -1;
        int ackWin = 0;
        byte[] done = null;
        int doneLen = 0;
        synchronized (lock) {
            RmppRecv r = rmppRecvs.get(key);
            if (r == null) {
                if (seg != 1 || (rflags & Rmpp.FLAG_FIRST) == 0) {
                    // not the start of a transfer we know: drop (the sender retries)
                    return null;
                }
                r = new RmppRecv();
                r.hdrLen = hdrLen;
                // the payload length is the sender's word: room for one window at most, the buffer
                // grows with the segments that really come
                int rmppSize = MadLayer.MAD_SIZE - MadHdr.IB_MGMT_RMPP_HDR;
                long paylen = Rmpp.paylenNewwin(mad) & 0xFFFF_FFFFL;
                long segs = Math.min(Math.max(1, (paylen + rmppSize - 1) / rmppSize), RMPP_WINDOW);
                r.buf = new byte[hdrLen + (int) segs * segData];
                rmppRecvs.put(key, r);
            }
            r.last = wc;
            r.deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RMPP_RECV_TIMEOUT_MS);
            if (rmppTimer == null || !rmppTimer.isPending()) {
                scheduleRmppTimeout(r.deadline);
            }
            if (seg < r.expected) {
                // duplicate: ACK again what we have
                ackSeg = r.expected - 1;
                ackWin = r.newwin;
            } else if (seg > r.expected) {
                return null;
            } else {
                if (seg == 1) {
                    System.arraycopy(mad, 0, r.buf, 0, MadLayer.MAD_SIZE);
                    r.len = MadLayer.MAD_SIZE;
                } else {
                    if (r.buf.length < r.len + segData) {
                        r.buf = java.util.Arrays.copyOf(r.buf, Math.max(r.buf.length * 2, r.len + segData));
                    }
                    System.arraycopy(mad, hdrLen, r.buf, r.len, segData);
                    r.len += segData;
                }
                r.expected = seg + 1;
                if ((rflags & Rmpp.FLAG_LAST) != 0) {
                    // the last segment's payload length gives the padding to trim
                    int rmppSize = MadLayer.MAD_SIZE - MadHdr.IB_MGMT_RMPP_HDR;
                    int lastPay = Rmpp.paylenNewwin(mad);
                    int pad = lastPay > 0 && lastPay <= rmppSize ? rmppSize - lastPay : 0;
                    doneLen = r.len - pad;
                    done = r.buf;
                    rmppRecvs.remove(key);
                    ackSeg = seg;
                    ackWin = seg;
                } else if (seg == r.newwin) {
                    r.newwin = seg + RMPP_WINDOW;
                    ackSeg = seg;
                    ackWin = r.newwin;
                }
            }
        }
        if (ackSeg >= 0) {
            sendRmppControl(wc, Rmpp.TYPE_ACK, 0, ackSeg, ackWin);
        }
        if (done == null) {
            return null;
        }
        // the whole message: clear the per-segment RMPP fields of the first header
        byte[] msg = java.util.Arrays.copyOf(done, Math.max(doneLen, MadLayer.MAD_SIZE));
        return new MadRecvWc(wc.wc(), wc.grh(), msg, doneLen);
    }

    private void scheduleRmppTimeout(long deadline) {
        long delay = Math.max(0, deadline - clock.nanoTime());
        rmppTimer = clock.schedule(() -> port.layer.workqueue().execute(this::timeoutRmppRecvs), delay,
                TimeUnit.NANOSECONDS);
    }

    /**
     * {@code recv_timeout_handler()}: every reassembly whose next segment is overdue is dropped,
     * counted, and its sender told with an ABORT (T2L); the timer is re-armed for the rest.
     */
    private void timeoutRmppRecvs() {
        List<MadRecvWc> aborted = new ArrayList<>();
        synchronized (lock) {
            if (dead) {
                return;
            }
            long now = clock.nanoTime();
            long earliest = Long.MAX_VALUE;
            for (var it = rmppRecvs.values().iterator(); it.hasNext();) {
                RmppRecv r = it.next();
                if (r.deadline <= now) {
                    it.remove();
                    aborted.add(r.last);
                } else {
                    earliest = Math.min(earliest, r.deadline);
                }
            }
            rmppTimer = null;
            if (earliest != Long.MAX_VALUE) {
                scheduleRmppTimeout(earliest);
            }
        }
        for (MadRecvWc wc : aborted) {
            port.count(MadCounter.RMPP_RECV_TIMEOUTS);
            sendRmppControl(wc, Rmpp.TYPE_ABORT, Rmpp.STATUS_T2L, 0, 0);
        }
    }

    /** Reassemblies in progress. */
    int rmppRecvCount() {
        synchronized (lock) {
            return rmppRecvs.size();
        }
    }

    /** {@code ack_recv()}/{@code nack_recv()}: an ACK, STOP or ABORT back to the sender. */
    private void sendRmppControl(MadRecvWc wc, int type, int status, int seg, int newwin) {
        byte[] out = new byte[MadLayer.MAD_SIZE];
        int hdrLen = MadHdr.dataOffset(wc.mad()[1] & 0xff);
        System.arraycopy(wc.mad(), 0, out, 0, hdrLen);
        out[3] = (byte) ((out[3] & 0xff) ^ MadHdr.IB_MGMT_METHOD_RESP);
        Rmpp.set(out, MadAgent.RMPP_VERSION, type, Rmpp.FLAG_ACTIVE, status, seg, newwin);
        IbAh ah;
        try {
            ah = port.createAhFromWc(wc);
        } catch (RuntimeException e) {
            return;
        }
        Wc w = wc.wc();
        port.qp(qpIndex).post(new MadQp.Seg(out, ah, w.srcQp, MadHdr.IB_QP1_QKEY, w.pkeyIndex) {
            @Override
            void completed(WcStatus st) {
                ah.destroy();
            }
        });
    }

    /** {@code process_rmpp_ack()}. */
    private void rmppAck(long tid, int seg, int newwin) {
        SendBufImpl sb = null;
        int first = 0;
        boolean finish = false;
        synchronized (lock) {
            for (SendBufImpl s = head; s != null; s = s.next) {
                if (!s.finished && s.rmpp && s.tid == tid) {
                    sb = s;
                    break;
                }
            }
            if (sb == null || seg > sb.segCount || seg < sb.lastAck) {
                return;
            }
            if (seg > sb.lastAck) {
                sb.lastAck = seg;
                sb.retriesLeft = sb.retries();
            }
            sb.newwin = Math.max(sb.newwin, Math.min(newwin, sb.segCount));
            if (sb.lastAck >= sb.segCount) {
                sb.deadline = 0;
                if (sb.inFlight == 0) {
                    if (sb.expectResponse && !sb.responseReceived) {
                        waitFor(sb, sb.timeoutMs());
                    } else {
                        finishLocked(sb);
                        finish = true;
                    }
                }
            } else {
                first = window(sb);
            }
        }
        if (finish) {
            callSend(sb, sb.status);
        }
        sendSegments(sb, first);
    }

    private void rmppAbort(long tid) {
        SendBufImpl sb = null;
        synchronized (lock) {
            for (SendBufImpl s = head; s != null; s = s.next) {
                if (!s.finished && s.rmpp && s.tid == tid) {
                    sb = s;
                    break;
                }
            }
            if (sb == null) {
                return;
            }
            sb.status = WcStatus.REM_ABORT_ERR;
            if (sb.inFlight > 0) {
                return;
            }
            finishLocked(sb);
        }
        callSend(sb, WcStatus.REM_ABORT_ERR);
    }

    @Override
    public String toString() {
        return "mad agent " + port + " qp" + qpIndex + " hi_tid=" + hiTid;
    }
}
