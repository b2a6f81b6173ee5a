package org.rdma.rvt.internal.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.RvtPacket;
import org.rdma.rvt.internal.mem.SgeCursor;
import org.rdma.rvt.internal.wire.Aeth;
import org.rdma.rvt.internal.wire.Hdr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.rvt.internal.wire.Psn;
import org.rdma.verbs.QpState;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;

/**
 * The completer ({@code rxe_comp.c}): consumes responses (ACK, NAK, READ responses, ATOMIC ACK),
 * the retransmit timeout and finished local or unreliable requests, and completes send WQEs in
 * order. An explicit state machine: a loop switching on {@link State}, each case a small step
 * returning the next state.
 */
final class Completer {
    private static final System.Logger LOG = System.getLogger(Completer.class.getName());

    /** The completer's states ({@code enum comp_state}). */
    enum State {
        GET_ACK, GET_WQE, CHECK_PSN, CHECK_ACK, READ, ATOMIC, WRITE_SEND, UPDATE_COMP, COMP_ACK, COMP_WQE,
        ERROR_RETRY, RNR_RETRY, ERROR, DONE, EXIT
    }

    private static final VarHandle TAIL;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(Completer.class, "tail", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RvtQp qp;
    private final SgeCursor cursor = new SgeCursor();

    /**
     * Index (not masked) of the oldest uncompleted send WQE; read by posters. The completer
     * advances it with a release store, not a volatile one (a full fence for every WQE): it
     * publishes the slot freed before it, and a poster learns of a completion only through the CQ,
     * whose lock orders this store before the completion it then polls. Nobody writes something and
     * then needs to see this store at once, so no store-load fence is needed.
     */
    volatile int tail;
    /** The next PSN expected in a response. */
    int psn;
    /** Retries left ({@code retry_cnt}). */
    int retryLeft;
    /** RNR retries left ({@code rnr_retry}, 7 = infinite). */
    int rnrLeft;

    private RvtPacket pkt;
    private Swqe wqe;
    private int syndrome;
    private boolean timedOut;
    private boolean didWork;
    /** A retry is under way: further loss signals wait for progress or the timeout. */
    private boolean startedRetry;
    /** Progress made since the retransmit timer was last restarted. */
    private boolean timerStale;

    Completer(RvtQp qp) {
        this.qp = qp;
    }

    void setPsn(int p) {
        psn = p & Psn.MASK;
    }

    void reset() {
        refill();
        timerStale = false;
    }

    /** One pass; returns whether anything was done. */
    boolean run() {
        QpState st = qp.state;
        if (st == QpState.ERR || st == QpState.SQE || st == QpState.RESET) {
            boolean did = false;
            for (RvtPacket p = qp.compQ.poll(); p != null; p = qp.compQ.poll()) {
                qp.compQ.done(p);
                did = true;
            }
            return (st != QpState.RESET && flushSq()) || did;
        }
        didWork = false;
        State s = State.GET_ACK;
        while (s != State.EXIT) {
            if (RvtQp.TRACE && s != State.GET_ACK) {
                System.out.println("  comp " + qp + " " + pkt + " " + s);
            }
            s = step(s);
        }
        restartTimer();
        return didWork;
    }

    private State step(State s) {
        switch (s) {
            case GET_ACK: return getAck();
            case GET_WQE: return getWqe();
            case CHECK_PSN: return checkPsn();
            case CHECK_ACK: return checkAck();
            case READ: return read();
            case ATOMIC: return atomic();
            case WRITE_SEND: return Psn.compare(pkt.psn, wqe.lastPsn) == 0 ? State.COMP_ACK : State.UPDATE_COMP;
            case UPDATE_COMP: return updateComp();
            case COMP_ACK: return compAck();
            case COMP_WQE: return compWqe();
            case ERROR_RETRY: return errorRetry();
            case RNR_RETRY: return rnrRetry();
            case ERROR: return error();
            case DONE: return done();
            default: return State.EXIT;
        }
    }

    private State getAck() {
        pkt = qp.compQ.poll();
        timedOut = false;
        if (pkt == null && qp.isRc() && qp.retransExpired()) {
            timedOut = true;
            qp.dev.count(RvtCounter.ACK_TIMEOUT);
        }
        return State.GET_WQE;
    }

    private State getWqe() {
        if (tail == qp.sqHead) {
            return pkt != null ? State.DONE : State.EXIT;
        }
        wqe = qp.sq[tail & qp.sqMask];
        int ws = wqe.state;
        if (ws == Swqe.DONE) {
            return State.COMP_WQE;
        }
        if (ws == Swqe.ERROR) {
            return State.ERROR;
        }
        if (pkt == null) {
            if (timedOut && ws != Swqe.POSTED) {
                timedOut = false;
                return State.ERROR_RETRY;
            }
            return State.EXIT;
        }
        if (ws == Swqe.POSTED) {
            return State.DONE;
        }
        return State.CHECK_PSN;
    }

    private State checkPsn() {
        int diff = Psn.compare(pkt.psn, wqe.lastPsn);
        if (diff > 0) {
            if (wqe.state == Swqe.PENDING) {
                if (wqe.has(Opcodes.READ_OR_ATOMIC)) {
                    // A response beyond a READ/ATOMIC that got no answer: its response was lost.
                    return State.ERROR_RETRY;
                }
                return State.COMP_WQE;
            }
            return State.DONE;
        }
        int d = Psn.compare(pkt.psn, psn);
        if (d < 0) {
            return State.DONE;
        }
        if (d > 0 && wqe.has(Opcodes.READ_OR_ATOMIC)) {
            // A response packet is missing; wait for the timeout to retry.
            return State.DONE;
        }
        return State.CHECK_ACK;
    }

    private State checkAck() {
        int mask = pkt.mask;
        if ((mask & Opcodes.AETH) != 0) {
            syndrome = Aeth.syndrome(Hdr.aeth(pkt.hdr, pkt.opcode));
        } else {
            syndrome = Aeth.TYPE_ACK;
        }
        if ((mask & Opcodes.READ_RESP) != 0) {
            if (!wqe.has(Opcodes.READ) || Aeth.type(syndrome) != Aeth.TYPE_ACK) {
                wqe.status = WcStatus.BAD_RESP_ERR;
                return State.ERROR;
            }
            if ((mask & Opcodes.AETH) != 0) {
                qp.req.credit(Hdr.aeth(pkt.hdr, pkt.opcode));
            }
            return State.READ;
        }
        if ((mask & Opcodes.ATOMIC_ACK) != 0) {
            if (!wqe.has(Opcodes.ATOMIC) || Aeth.type(syndrome) != Aeth.TYPE_ACK) {
                wqe.status = WcStatus.BAD_RESP_ERR;
                return State.ERROR;
            }
            qp.req.credit(Hdr.aeth(pkt.hdr, pkt.opcode));
            return State.ATOMIC;
        }
        switch (Aeth.type(syndrome)) {
            case Aeth.TYPE_ACK:
                qp.req.credit(Hdr.aeth(pkt.hdr, pkt.opcode));
                if (wqe.has(Opcodes.READ_OR_ATOMIC)) {
                    return State.DONE;
                }
                return State.WRITE_SEND;
            case Aeth.TYPE_RNR:
                return State.RNR_RETRY;
            default:
                return nak();
        }
    }

    private State nak() {
        switch (syndrome) {
            case Aeth.NAK_PSN_SEQ:
                qp.dev.count(RvtCounter.RCV_SEQ_ERR);
                if (Psn.compare(pkt.psn, psn) > 0) {
                    psn = pkt.psn;
                }
                return State.ERROR_RETRY;
            case Aeth.NAK_INVALID_REQ:
                wqe.status = WcStatus.REM_INV_REQ_ERR;
                return State.ERROR;
            case Aeth.NAK_REM_ACCESS:
                wqe.status = WcStatus.REM_ACCESS_ERR;
                return State.ERROR;
            case Aeth.NAK_REM_OP:
                wqe.status = WcStatus.REM_OP_ERR;
                return State.ERROR;
            case Aeth.NAK_INV_RD_REQ:
                wqe.status = WcStatus.REM_INV_RD_REQ_ERR;
                return State.ERROR;
            default:
                wqe.status = WcStatus.BAD_RESP_ERR;
                return State.ERROR;
        }
    }

    /** Places READ response data at the offset its PSN implies. */
    private State read() {
        int mtu = qp.pmtu;
        long offset = (long) Psn.distance(wqe.firstPsn, pkt.psn) * mtu;
        int len = pkt.payloadLength;
        boolean isLast = pkt.psn == wqe.lastPsn;
        boolean ok = isLast ? (pkt.mask & Opcodes.END) != 0 && offset + len == wqe.length
                : (pkt.mask & Opcodes.END) == 0 && len == mtu && offset + len < wqe.length;
        if (!ok) {
            wqe.status = WcStatus.BAD_RESP_ERR;
            return State.ERROR;
        }
        if (len > 0) {
            cursor.bind(wqe.addr, wqe.len, wqe.lkey, wqe.mr, wqe.numSge, wqe.length);
            cursor.restart(wqe.length, offset);
            if (!cursor.scatter(pkt.payload, pkt.payloadOffset, len, qp.seg)) {
                wqe.status = WcStatus.LOC_PROT_ERR;
                return State.ERROR;
            }
        }
        return isLast ? State.COMP_ACK : State.UPDATE_COMP;
    }

    /** Stores the original value of an atomic into the first SGE. */
    private State atomic() {
        long orig = Hdr.atmackOrig(pkt.hdr, pkt.opcode);
        cursor.bind(wqe.addr, wqe.len, wqe.lkey, wqe.mr, wqe.numSge, wqe.length);
        if (!cursor.piece8(qp.seg)) {
            wqe.status = WcStatus.LOC_PROT_ERR;
            return State.ERROR;
        }
        Atomics.put(qp.seg.buf, qp.seg.index, orig);
        return State.COMP_ACK;
    }

    private State updateComp() {
        psn = Psn.add(pkt.psn, 1);
        progress();
        return State.DONE;
    }

    private State compAck() {
        psn = Psn.add(pkt.psn, 1);
        complete(wqe);
        return State.DONE;
    }

    private State compWqe() {
        if (pkt != null && wqe.state == Swqe.PENDING && Psn.compare(wqe.lastPsn, psn) >= 0) {
            psn = Psn.add(wqe.lastPsn, 1);
        }
        complete(wqe);
        return State.GET_WQE;
    }

    private State errorRetry() {
        restartTimer();
        didWork = true;
        if (startedRetry && pkt != null) {
            // one go-back-N per loss: later NAKs or responses of the same burst do not restart it
            return State.DONE;
        }
        if (retryLeft > 0) {
            startedRetry = true;
            retryLeft--;
            qp.dev.count(RvtCounter.COMP_RETRY);
            qp.req.needRetry = true;
            qp.retransDeadline = 0;
            return pkt != null ? State.DONE : State.EXIT;
        }
        qp.dev.count(RvtCounter.RETRY_EXCEEDED);
        wqe.status = WcStatus.RETRY_EXC_ERR;
        return State.ERROR;
    }

    private State rnrRetry() {
        restartTimer();
        qp.dev.count(RvtCounter.RCV_RNR_ERR);
        if (Psn.compare(pkt.psn, psn) > 0) {
            psn = pkt.psn;
        }
        if (rnrLeft > 0) {
            if (rnrLeft != 7) {
                rnrLeft--;
            }
            qp.retransDeadline = 0;
            qp.req.waitRnr = true;
            qp.req.needRetry = false;
            qp.armRnr(Aeth.value(syndrome));
            return State.DONE;
        }
        qp.dev.count(RvtCounter.RNR_RETRY_EXCEEDED);
        wqe.status = WcStatus.RNR_RETRY_EXC_ERR;
        return State.ERROR;
    }

    private State error() {
        restartTimer();
        if (wqe.status == WcStatus.SUCCESS) {
            wqe.status = WcStatus.GENERAL_ERR;
        }
        complete(wqe);
        qp.error(WcStatus.WR_FLUSH_ERR);
        if (pkt != null) {
            qp.compQ.done(pkt);
            pkt = null;
        }
        return State.EXIT;
    }

    private State done() {
        restartTimer();
        didWork = true;
        if (pkt != null) {
            qp.compQ.done(pkt);
            pkt = null;
        }
        return State.GET_ACK;
    }

    /**
     * The retry budgets refill and the timer restarts whenever the peer makes progress; the timer
     * once the response is consumed ({@link #restartTimer()}).
     */
    private void progress() {
        refill();
        timerStale = true;
    }

    private void refill() {
        startedRetry = false;
        retryLeft = qp.retryCnt;
        rnrLeft = qp.rnrRetry;
    }

    /**
     * Restarts the retransmit timer once for all the progress one response made (an ACK may
     * complete a whole window; reading the clock for each WQE was a tenth of the completer's
     * time). Called before any step that touches the timer, so timer updates keep their order.
     */
    private void restartTimer() {
        if (timerStale) {
            timerStale = false;
            qp.restartRetrans(outstanding());
        }
    }

    private boolean outstanding() {
        return tail != qp.req.idx || (tail != qp.sqHead && qp.sq[tail & qp.sqMask].state == Swqe.PROCESSING);
    }

    /** Completes {@code w} (in order) and frees its slot ({@code do_complete()}). */
    private void complete(Swqe w) {
        didWork = true;
        if (w.state == Swqe.PENDING && w.has(Opcodes.READ_OR_ATOMIC)) {
            qp.req.rdAtomicInFlight--;
        }
        boolean ok = w.status == WcStatus.SUCCESS;
        boolean signal = w.signaled || !ok;
        Wc wc = qp.sendWc;
        if (signal) {
            fill(wc, w, w.status);
        }
        // The slot is free before the completion is visible (rvt_qp_complete_swqe() does the
        // same): a consumer that polls the completion may post into it at once.
        w.state = Swqe.DONE;
        TAIL.setRelease(this, tail + 1);
        if (signal && !qp.scq.enter(wc, false)) {
            LOG.log(System.Logger.Level.WARNING, "{0}: send CQ overflow", qp);
            ok = false;
        }
        if (ok) {
            qp.count(RvtCounter.RDMA_SENDS);
            progress();
        }
    }

    private void fill(Wc wc, Swqe w, WcStatus status) {
        wc.clear();
        wc.wrId = w.wrId;
        wc.wrCqe = w.wrCqe;
        wc.status = status;
        wc.opcode = w.opcode.wcOpcode();
        wc.byteLen = status == WcStatus.SUCCESS ? (int) w.length : 0;
        wc.qp = qp.core;
        wc.portNum = qp.port;
    }

    /** Completes every remaining send WQE in order: its own error status or WR_FLUSH_ERR. */
    boolean flushSq() {
        boolean any = false;
        while (tail != qp.sqHead) {
            Swqe w = qp.sq[tail & qp.sqMask];
            WcStatus st = w.state == Swqe.ERROR && w.status != WcStatus.SUCCESS ? w.status : WcStatus.WR_FLUSH_ERR;
            Wc wc = qp.sendWc;
            fill(wc, w, st);
            w.state = Swqe.DONE;
            TAIL.setRelease(this, tail + 1);
            qp.scq.enter(wc, false);
            any = true;
        }
        qp.req.idx = tail;
        qp.req.rdAtomicInFlight = 0;
        return any;
    }
}
