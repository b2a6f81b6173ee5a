package org.rdma.rvt.internal.qp;

import java.nio.ByteBuffer;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.RvtPacket;
import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.rvt.internal.mem.RvtMw;
import org.rdma.rvt.internal.mem.SgeCursor;
import org.rdma.rvt.internal.wire.Aeth;
import org.rdma.rvt.internal.wire.Hdr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.rvt.internal.wire.Psn;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;

/**
 * The responder ({@code rxe_resp.c}): executes incoming requests. An explicit state machine, one
 * packet at a time: check PSN, operation sequence, operation validity, resources, length and rkey
 * (every check before a byte moves), then execute, reply to READ/ATOMIC, complete the receive WQE,
 * acknowledge; duplicates are answered again from the saved responder resources; each IBA error
 * class has its state (NAK and completion status as the kernel chooses them).
 */
final class Responder {
    /** The responder's states ({@code enum resp_states}). */
    enum State {
        CHK_PSN, CHK_OP_SEQ, CHK_OP_VALID, CHK_RESOURCE, CHK_LENGTH, CHK_RKEY, EXECUTE, READ_REPLY,
        ATOMIC_REPLY, COMPLETE, ACKNOWLEDGE, CLEANUP, DUPLICATE_REQUEST,
        ERR_PSN_OUT_OF_SEQ, ERR_MISSING_OPCODE_FIRST, ERR_MISSING_OPCODE_LAST, ERR_UNSUPPORTED_OPCODE,
        ERR_MISALIGNED_ATOMIC, ERR_TOO_MANY_RD_ATOMIC, ERR_RNR, ERR_RKEY_VIOLATION, ERR_INVALIDATE_RKEY,
        ERR_LENGTH, ERR_MALFORMED_WQE, ERR_CQ_OVERFLOW, DONE
    }

    /** A responder resource: a READ or ATOMIC kept for duplicates ({@code struct resp_res}). */
    private static final class Res {
        boolean valid;
        boolean atomic;
        int firstPsn;
        int lastPsn;
        long va;
        long len;
        int rkey;
        long orig;
    }

    private final RvtQp qp;
    private final SgeCursor cursor = new SgeCursor();
    private final Res[] res;
    private int resHead;
    private final ByteBuffer grhBuf = ByteBuffer.allocate(RvtPacket.GRH_BYTES);

    /** The next PSN expected. */
    int psn;
    /** Last opcode of the message in progress, -1 between messages. */
    private int opcode = -1;
    /** Message sequence number. */
    int msn;
    private boolean sentPsnNak;
    private boolean dropMsg;

    // the receive WQE in use
    private final Rwqe wqe;
    private boolean wqeValid;
    private long rcvd;
    /** Scratch entry for flushing the receive queue. */
    final Rwqe flushScratch;

    // the RDMA WRITE in progress
    private RvtMr writeMr;
    /** What the WRITE's rkey named at its first packet (an MR or a window), checked again for the others. */
    private Object writeTarget;
    private int writeRkey;
    private long writeVa;
    private long writeResid;
    private long writeLength;

    // the packet being processed
    private RvtPacket pkt;
    private RvtMr readMr;
    private int nakSyndrome;
    private WcStatus status;

    Responder(RvtQp qp, int maxRes, int maxRecvSge, int srqMaxSge) {
        this.qp = qp;
        this.res = new Res[maxRes];
        for (int i = 0; i < maxRes; i++) {
            res[i] = new Res();
        }
        int sges = Math.max(maxRecvSge, srqMaxSge);
        this.wqe = new Rwqe(sges);
        this.flushScratch = new Rwqe(sges);
    }

    void setPsn(int p) {
        psn = p & Psn.MASK;
    }

    void reset() {
        opcode = -1;
        msn = 0;
        sentPsnNak = false;
        dropMsg = false;
        wqeValid = false;
        writeMr = null;
        writeTarget = null;
        resHead = 0;
        for (Res r : res) {
            r.valid = false;
        }
    }

    /** One pass over the queued requests; returns whether any was processed. */
    boolean run() {
        boolean did = false;
        while (true) {
            RvtPacket p = qp.respQ.poll();
            if (p == null) {
                return did;
            }
            did = true;
            if (p.segments == 1) {
                process(p);
            } else {
                processTrain(p);
            }
            qp.respQ.done(p);
        }
    }

    /**
     * Each packet of a {@linkplain RvtPacket#segments train} in turn, as if it had arrived on its
     * own: the descriptor is rewritten to the next packet's PSN and payload slice, and only the last
     * packet keeps the train's AckReq (and, when the train ends the message, takes the LAST opcode);
     * after a FIRST the descriptor becomes a MIDDLE.
     */
    private void processTrain(RvtPacket p) {
        if (!RvtQp.TRACE && writeTrain(p)) {
            return;
        }
        boolean ackReq = Hdr.bthAckReq(p.hdr);
        Hdr.setBthAckReq(p.hdr, false);
        for (int left = p.segments; ; ) {
            if (left < p.segments && refusesRequests()) {
                // what the receive demultiplexer would have done with each packet had it come alone
                qp.count(RvtCounter.RCVD_PKTS, -left);
                qp.dev.count(RvtCounter.RCV_DROPPED, left);
                return;
            }
            if (left == 1) {
                Hdr.setBthAckReq(p.hdr, ackReq);
                if (p.endsMessage) {
                    setOpcode(p, p.opcode + 1);
                }
            }
            process(p);
            if (--left == 0) {
                return;
            }
            p.psn = Psn.add(p.psn, 1);
            Hdr.setBthPsn(p.hdr, p.psn);
            p.payloadOffset += p.payloadLength;
            if (p.startsMessage) {
                // the FIRST is done: the rest are MIDDLE packets, the BTH alone
                p.startsMessage = false;
                p.hdrLen = Opcodes.BTH_BYTES;
                setOpcode(p, p.opcode + 1);
            }
        }
    }

    /**
     * Header prediction for a train of RDMA WRITE packets (as {@code tcp_rcv_established()} takes
     * the segment it expects on a fast path): when the train is next in sequence, continues or
     * starts a WRITE as the operation sequence allows, is as long as the WRITE's length allows and
     * lands in memory the rkey still grants, every packet would pass every check, and the checks
     * made once over the train's whole range decide for each of them (the later packets' ranges lie
     * inside it). Then the train executes as one: one copy, the PSN moved past it, and the ACK its
     * last packet asks for. Returns false, having changed nothing, for any other train, which then
     * goes packet by packet through the state machine.
     */
    private boolean writeTrain(RvtPacket p) {
        int mtu = qp.pmtu;
        if ((p.mask & Opcodes.WRITE) == 0 || p.psn != psn || p.payloadLength != mtu || !qp.isRc()
                || !executesRequests() || !qp.allows(AccessFlags.REMOTE_WRITE)) {
            return false;
        }
        long total = (long) p.segments * mtu;
        boolean starts = p.startsMessage;
        Object target;
        long va;
        long resid;
        int rkey;
        if (starts) {
            if (opcode != -1) {
                return false;
            }
            va = Hdr.rethVa(p.hdr, p.opcode);
            rkey = Hdr.rethRkey(p.hdr, p.opcode);
            resid = Hdr.rethLen(p.hdr, p.opcode);
            target = qp.dev.mem.lookup(rkey);
        } else {
            if (opcode == -1 || (Opcodes.mask(opcode) & Opcodes.WRITE) == 0 || writeMr == null
                    || writeMr.state != RvtMr.VALID) {
                return false;
            }
            va = writeVa;
            rkey = writeRkey;
            resid = writeResid;
            target = writeTarget;
        }
        if (p.endsMessage ? resid != total : resid < total) {
            // a MIDDLE packet may take up to what is left of the WRITE, its LAST exactly that
            return false;
        }
        RvtMr mr = qp.dev.mem.rkeyOk(target, qp.pd, qp, rkey, va, resid, AccessFlags.REMOTE_WRITE);
        if (mr == null || mr.sig != null || !starts && mr != writeMr) {
            return false;
        }
        sentPsnNak = false;
        qp.commEst();
        if (starts) {
            writeLength = resid;
            writeRkey = rkey;
            writeTarget = target;
            writeMr = mr;
        }
        writeVa = va;
        writeResid = resid;
        pkt = p;
        if (!writeData((int) total)) {
            // rkeyOk() vouched for the range; memory that fails to translate all the same is
            // refused as the packet that met it would have been
            step(State.ERR_RKEY_VIOLATION);
            pkt = null;
            return true;
        }
        pkt = null;
        int lastPsn = Psn.add(p.psn, p.segments - 1);
        psn = Psn.add(lastPsn, 1);
        if (p.endsMessage) {
            endMessage();
        } else {
            opcode = starts ? p.opcode + 1 : p.opcode;
        }
        if (Hdr.bthAckReq(p.hdr)) {
            qp.sendAck(qp.ackSyndrome(), lastPsn);
        }
        return true;
    }

    /** The QP states in which the responder executes requests. */
    private boolean executesRequests() {
        QpState st = qp.state;
        return st == QpState.RTR || st == QpState.RTS || st == QpState.SQD || st == QpState.SQE;
    }

    /** A message's last packet executed: the next one starts a message, with the next MSN. */
    private void endMessage() {
        opcode = -1;
        msn = (msn + 1) & Psn.MASK;
        writeMr = null;
        writeTarget = null;
    }

    /** The QP state in which the receive demultiplexer drops requests. */
    private boolean refusesRequests() {
        QpState st = qp.state;
        return st == QpState.RESET || st == QpState.INIT || st == QpState.ERR;
    }

    private static void setOpcode(RvtPacket p, int op) {
        p.hdr[0] = (byte) op;
        p.opcode = op;
        p.mask = Opcodes.mask(op);
    }

    /** One request packet through the state machine. */
    private void process(RvtPacket p) {
        if (!executesRequests()) {
            return;
        }
        pkt = p;
        State s = qp.isUd() ? State.CHK_RESOURCE : State.CHK_PSN;
        if (!RvtQp.TRACE) {
            s = checks(s);
        }
        while (s != State.DONE) {
            if (RvtQp.TRACE) {
                System.out.println("  resp " + qp + " " + p + " " + s);
            }
            s = step(s);
        }
        pkt = null;
    }

    /**
     * The checks and the execution, from {@code s} on, called directly for as long as each hands on
     * to the next (their order is fixed: each only ever leads to a later one or out of the chain),
     * then the state they stopped at for {@link #step}. The same calls in the same order as
     * {@link #step} would make, without a dispatch per state on the path every packet takes.
     */
    private State checks(State s) {
        if (s == State.CHK_PSN) {
            s = checkPsn();
        }
        if (s == State.CHK_OP_SEQ) {
            s = checkOpSeq();
        }
        if (s == State.CHK_OP_VALID) {
            s = checkOpValid();
        }
        if (s == State.CHK_RESOURCE) {
            s = checkResource();
        }
        if (s == State.CHK_LENGTH) {
            s = checkLength();
        }
        if (s == State.CHK_RKEY) {
            s = checkRkey();
        }
        if (s == State.EXECUTE) {
            s = execute();
        }
        if (s == State.COMPLETE) {
            s = complete();
        }
        if (s == State.ACKNOWLEDGE) {
            s = acknowledge();
        }
        return s == State.CLEANUP ? State.DONE : s;
    }

    private State step(State s) {
        switch (s) {
            case CHK_PSN: return checkPsn();
            case CHK_OP_SEQ: return checkOpSeq();
            case CHK_OP_VALID: return checkOpValid();
            case CHK_RESOURCE: return checkResource();
            case CHK_LENGTH: return checkLength();
            case CHK_RKEY: return checkRkey();
            case EXECUTE: return execute();
            case READ_REPLY: return readReply();
            case ATOMIC_REPLY: return atomicReply();
            case COMPLETE: return complete();
            case ACKNOWLEDGE: return acknowledge();
            case CLEANUP: return State.DONE;
            case DUPLICATE_REQUEST: return duplicate();
            case ERR_PSN_OUT_OF_SEQ: return outOfSequence();
            case ERR_RNR: return rnr();
            case ERR_MISSING_OPCODE_FIRST:
            case ERR_MISSING_OPCODE_LAST:
            case ERR_UNSUPPORTED_OPCODE:
            case ERR_MISALIGNED_ATOMIC:
            case ERR_TOO_MANY_RD_ATOMIC:
                return classC(Aeth.NAK_INVALID_REQ, WcStatus.REM_INV_REQ_ERR);
            case ERR_LENGTH:
                return classC(Aeth.NAK_INVALID_REQ, WcStatus.LOC_LEN_ERR);
            case ERR_INVALIDATE_RKEY:
                return classC(Aeth.NAK_INVALID_REQ, WcStatus.REM_INV_REQ_ERR);
            case ERR_RKEY_VIOLATION:
                return classC(Aeth.NAK_REM_ACCESS, WcStatus.REM_ACCESS_ERR);
            case ERR_MALFORMED_WQE:
                return classC(Aeth.NAK_REM_OP, WcStatus.LOC_PROT_ERR);
            case ERR_CQ_OVERFLOW:
                qp.error(WcStatus.LOC_QP_OP_ERR);
                return State.DONE;
            default:
                return State.DONE;
        }
    }

    // ================================================================== checks

    private State checkPsn() {
        int diff = Psn.compare(pkt.psn, psn);
        if (qp.isRc()) {
            if (diff > 0) {
                return State.ERR_PSN_OUT_OF_SEQ;
            }
            if (diff < 0) {
                return State.DUPLICATE_REQUEST;
            }
            sentPsnNak = false;
        } else if (dropMsg || diff != 0) {
            // UC: a gap loses the message; the next START resynchronises.
            if ((pkt.mask & Opcodes.START) == 0) {
                dropMsg = true;
                qp.dev.count(RvtCounter.OUT_OF_SEQUENCE);
                return State.CLEANUP;
            }
            dropMsg = false;
            opcode = -1;
            rewindWqe();
            psn = pkt.psn;
        }
        qp.commEst();
        return State.CHK_OP_SEQ;
    }

    /** UC: a receive WQE partly filled by a lost message is reused from its start. */
    private void rewindWqe() {
        rcvd = 0;
        if (wqeValid) {
            cursor.restart(wqe.length, 0);
        }
    }

    private State checkOpSeq() {
        int m = pkt.mask;
        if (opcode != -1) {
            int kind = Opcodes.mask(opcode) & Opcodes.WRITE_OR_SEND;
            if ((m & kind) == 0 || (m & Opcodes.START) != 0) {
                if (!qp.isRc() && (m & Opcodes.START) != 0) {
                    // UC: the previous message lost its end; start over with this one.
                    opcode = -1;
                    rewindWqe();
                    return State.CHK_OP_VALID;
                }
                return State.ERR_MISSING_OPCODE_LAST;
            }
        } else if ((m & Opcodes.START) == 0) {
            return State.ERR_MISSING_OPCODE_FIRST;
        }
        return State.CHK_OP_VALID;
    }

    private State checkOpValid() {
        int m = pkt.mask;
        if ((m & Opcodes.READ) != 0 && !qp.allows(AccessFlags.REMOTE_READ)
                || (m & Opcodes.WRITE) != 0 && !qp.allows(AccessFlags.REMOTE_WRITE)
                || (m & Opcodes.ATOMIC) != 0 && !qp.allows(AccessFlags.REMOTE_ATOMIC)) {
            return State.ERR_UNSUPPORTED_OPCODE;
        }
        return State.CHK_RESOURCE;
    }

    private State checkResource() {
        int m = pkt.mask;
        if ((m & Opcodes.READ_OR_ATOMIC) != 0) {
            return qp.maxDestRdAtomic > 0 ? State.CHK_LENGTH : State.ERR_TOO_MANY_RD_ATOMIC;
        }
        if ((m & Opcodes.RWR) != 0 && !wqeValid) {
            boolean got = qp.srq != null ? qp.srq.take(wqe) : qp.rq.take(wqe);
            if (!got) {
                return State.ERR_RNR;
            }
            wqeValid = true;
            rcvd = 0;
            if (!checkRecvSges()) {
                return State.ERR_MALFORMED_WQE;
            }
            cursor.bind(wqe.addr, wqe.len, wqe.lkey, wqe.mr, wqe.numSge, wqe.length);
            if (qp.isUd()) {
                qp.commEst();
            }
        }
        return State.CHK_LENGTH;
    }

    /** {@code rvt_lkey_ok()} with LOCAL_WRITE on every element of the receive WQE just taken. */
    private boolean checkRecvSges() {
        for (int i = 0; i < wqe.numSge; i++) {
            if (wqe.len[i] == 0) {
                continue;
            }
            RvtMr mr = qp.dev.mem.lkeyOk(qp.pd, wqe.lkey[i], wqe.addr[i], wqe.len[i] & 0xffff_ffffL,
                    AccessFlags.LOCAL_WRITE);
            if (mr == null) {
                return false;
            }
            wqe.mr[i] = mr;
        }
        return true;
    }

    private State checkLength() {
        int m = pkt.mask;
        int pay = pkt.payloadLength;
        if (qp.isUd()) {
            if (pay + RvtPacket.GRH_BYTES > wqe.length) {
                return State.ERR_LENGTH;
            }
            return State.EXECUTE;
        }
        int mtu = qp.pmtu;
        if ((m & Opcodes.PAYLOAD) != 0) {
            boolean startEnd = (m & (Opcodes.START | Opcodes.END)) == (Opcodes.START | Opcodes.END);
            if (startEnd ? pay > mtu : (m & Opcodes.END) != 0 ? pay < 1 || pay > mtu : pay != mtu) {
                return State.ERR_LENGTH;
            }
        }
        if ((m & Opcodes.SEND) != 0 && rcvd + pay > wqe.length) {
            return State.ERR_LENGTH;
        }
        if ((m & Opcodes.WRITE) != 0) {
            long total = (m & Opcodes.RETH) != 0 ? Hdr.rethLen(pkt.hdr, pkt.opcode) : writeResid;
            if (pay > total || (m & Opcodes.END) != 0 && pay != total) {
                return State.ERR_LENGTH;
            }
        }
        if ((m & Opcodes.READ) != 0 && Hdr.rethLen(pkt.hdr, pkt.opcode) > Integer.MAX_VALUE) {
            return State.ERR_LENGTH;
        }
        return State.CHK_RKEY;
    }

    private State checkRkey() {
        int m = pkt.mask;
        byte[] h = pkt.hdr;
        int op = pkt.opcode;
        if ((m & Opcodes.WRITE) != 0) {
            if ((m & Opcodes.RETH) != 0) {
                long va = Hdr.rethVa(h, op);
                int rkey = Hdr.rethRkey(h, op);
                long len = Hdr.rethLen(h, op);
                writeVa = va;
                writeResid = len;
                writeLength = len;
                writeRkey = rkey;
                writeTarget = len == 0 ? null : qp.dev.mem.lookup(rkey);
                writeMr = len == 0 ? null
                        : qp.dev.mem.rkeyOk(writeTarget, qp.pd, qp, rkey, va, len, AccessFlags.REMOTE_WRITE);
                if (len != 0 && writeMr == null) {
                    return State.ERR_RKEY_VIOLATION;
                }
            } else if (writeResid > 0 && (writeMr == null || writeMr.state != RvtMr.VALID
                    || qp.dev.mem.rkeyOk(writeTarget, qp.pd, qp, writeRkey, writeVa, writeResid, AccessFlags.REMOTE_WRITE) == null)) {
                return State.ERR_RKEY_VIOLATION;
            }
        } else if ((m & Opcodes.READ) != 0) {
            long len = Hdr.rethLen(h, op);
            readMr = len == 0 ? null : qp.dev.mem.rkeyOk(qp.pd, qp, Hdr.rethRkey(h, op), Hdr.rethVa(h, op), len,
                    AccessFlags.REMOTE_READ);
            if (len != 0 && readMr == null) {
                return State.ERR_RKEY_VIOLATION;
            }
        } else if ((m & Opcodes.ATOMIC) != 0) {
            long va = Hdr.atmethVa(h, op);
            if ((va & 7) != 0) {
                return State.ERR_MISALIGNED_ATOMIC;
            }
            readMr = qp.dev.mem.rkeyOk(qp.pd, qp, Hdr.atmethRkey(h, op), va, 8, AccessFlags.REMOTE_ATOMIC);
            if (readMr == null) {
                return State.ERR_RKEY_VIOLATION;
            }
        }
        if ((m & Opcodes.INV) != 0 && !canInvalidate(Hdr.iethRkey(h, op))) {
            return State.ERR_INVALIDATE_RKEY;
        }
        return State.EXECUTE;
    }

    private boolean canInvalidate(int rkey) {
        Object o = qp.dev.mem.lookup(rkey);
        if (o instanceof RvtMr) {
            RvtMr mr = (RvtMr) o;
            return mr.key == rkey && mr.isFastReg() && mr.state == RvtMr.VALID && mr.pd == qp.pd
                    && mr.boundMws.get() == 0;
        }
        if (o instanceof RvtMw) {
            RvtMw mw = (RvtMw) o;
            return mw.rkey == rkey && mw.type == org.rdma.verbs.MwType.TYPE_2 && mw.state == RvtMw.VALID
                    && mw.pd == qp.pd;
        }
        return false;
    }

    // ================================================================== execution

    private State execute() {
        int m = pkt.mask;
        if ((m & Opcodes.READ) != 0) {
            return State.READ_REPLY;
        }
        if ((m & Opcodes.ATOMIC) != 0) {
            return State.ATOMIC_REPLY;
        }
        int pay = pkt.payloadLength;
        if ((m & Opcodes.SEND) != 0) {
            if (qp.isUd()) {
                if (pkt.hasGrh) {
                    System.arraycopy(pkt.grh, 0, grhBuf.array(), 0, RvtPacket.GRH_BYTES);
                    if (!cursor.scatter(grhBuf, 0, RvtPacket.GRH_BYTES, qp.seg)) {
                        return State.ERR_MALFORMED_WQE;
                    }
                } else {
                    cursor.skip(RvtPacket.GRH_BYTES);
                }
                rcvd += RvtPacket.GRH_BYTES;
            }
            if (pay > 0 && !cursor.scatter(pkt.payload, pkt.payloadOffset, pay, qp.seg)) {
                return State.ERR_MALFORMED_WQE;
            }
            rcvd += pay;
        } else if ((m & Opcodes.WRITE) != 0 && pay > 0) {
            if (!writeData(pay)) {
                return State.ERR_RKEY_VIOLATION;
            }
        }
        if (!qp.isUd()) {
            psn = Psn.add(pkt.psn, 1);
        }
        if ((m & Opcodes.END) != 0) {
            endMessage();
        } else {
            opcode = pkt.opcode;
        }
        if ((m & Opcodes.COMP) != 0) {
            return State.COMPLETE;
        }
        return qp.isRc() ? State.ACKNOWLEDGE : State.CLEANUP;
    }

    private boolean writeData(int pay) {
        RvtMr mr = writeMr;
        int srcIdx = pkt.payloadOffset;
        if (mr.sig != null) {
            if (!mr.sigScatter(writeVa, pkt.payload, srcIdx, pay)) {
                return false;
            }
            writeVa += pay;
            writeResid -= pay;
            return true;
        }
        int left = pay;
        long va = writeVa;
        while (left > 0) {
            if (!mr.translate(va, left, qp.seg)) {
                return false;
            }
            qp.seg.buf.put(qp.seg.index, pkt.payload, srcIdx, qp.seg.len);
            srcIdx += qp.seg.len;
            va += qp.seg.len;
            left -= qp.seg.len;
        }
        writeVa = va;
        writeResid -= pay;
        return true;
    }

    private State readReply() {
        byte[] h = pkt.hdr;
        int op = pkt.opcode;
        long va = Hdr.rethVa(h, op);
        long len = Hdr.rethLen(h, op);
        Res r = allocRes();
        r.atomic = false;
        r.firstPsn = pkt.psn;
        r.lastPsn = Psn.add(pkt.psn, packets(len) - 1);
        r.va = va;
        r.len = len;
        r.rkey = Hdr.rethRkey(h, op);
        r.valid = true;
        msn = (msn + 1) & Psn.MASK;
        psn = Psn.add(r.lastPsn, 1);
        sendReadResponses(pkt.psn, va, len, readMr);
        return State.CLEANUP;
    }

    private int packets(long len) {
        return (int) Math.max(1, (len + qp.pmtu - 1) / qp.pmtu);
    }

    /** Sends the READ responses for {@code [va, va + len)} starting at {@code startPsn}. */
    private void sendReadResponses(int startPsn, long va, long len, RvtMr mr) {
        int mtu = qp.pmtu;
        int n = packets(len);
        RvtPacket tx = qp.tx;
        for (int i = 0; i < n; i++) {
            int pay = (int) Math.min(mtu, len - (long) i * mtu);
            int code = Opcodes.RC | (n == 1 ? Opcodes.READ_RESP_ONLY : i == 0 ? Opcodes.READ_RESP_FIRST
                    : i == n - 1 ? Opcodes.READ_RESP_LAST : Opcodes.READ_RESP_MIDDLE);
            int pad = -pay & 3;
            Hdr.setBth(tx.hdr, code, false, pad, qp.sendPkey(qp.pkeyIndex), qp.destQpn, false,
                    Psn.add(startPsn, i));
            if ((Opcodes.mask(code) & Opcodes.AETH) != 0) {
                Hdr.setAeth(tx.hdr, code, Aeth.make(qp.ackSyndrome(), msn));
            }
            tx.hdrLen = Opcodes.length(code);
            tx.padCount = pad;
            tx.payloadLength = pay;
            if (pay == 0) {
                tx.payload = null;
                tx.payloadOffset = 0;
                tx.payloadStable = true;
            } else {
                long at = va + (long) i * mtu;
                boolean direct = mr.sig == null;
                if (direct && !mr.translate(at, pay, qp.seg)) {
                    return;
                }
                if (direct && qp.seg.len == pay) {
                    tx.payload = qp.seg.buf;
                    tx.payloadOffset = qp.seg.index;
                    tx.payloadStable = true;
                } else if (gather(mr, at, pay)) {
                    tx.payload = qp.bounce();
                    tx.payloadOffset = 0;
                    tx.payloadStable = false;
                } else {
                    return;
                }
            }
            qp.transmit(qp.port, qp.av);
        }
    }

    private boolean gather(RvtMr mr, long va, int len) {
        if (mr.sig != null) {
            return mr.sigGather(va, qp.bounce(), 0, len);
        }
        int off = 0;
        while (off < len) {
            if (!mr.translate(va + off, len - off, qp.seg)) {
                return false;
            }
            qp.bounce().put(off, qp.seg.buf, qp.seg.index, qp.seg.len);
            off += qp.seg.len;
        }
        return true;
    }

    private State atomicReply() {
        byte[] h = pkt.hdr;
        int op = pkt.opcode;
        long va = Hdr.atmethVa(h, op);
        if (!readMr.translate(va, 8, qp.seg) || qp.seg.len != 8) {
            return State.ERR_RKEY_VIOLATION;
        }
        long orig;
        synchronized (qp.dev.atomicLock) {
            orig = Atomics.get(qp.seg.buf, qp.seg.index);
            long value;
            if ((op & 0x1f) == Opcodes.COMPARE_SWAP) {
                value = orig == Hdr.atmethCompare(h, op) ? Hdr.atmethSwapAdd(h, op) : orig;
            } else {
                value = orig + Hdr.atmethSwapAdd(h, op);
            }
            Atomics.put(qp.seg.buf, qp.seg.index, value);
        }
        Res r = allocRes();
        r.atomic = true;
        r.firstPsn = pkt.psn;
        r.lastPsn = pkt.psn;
        r.orig = orig;
        r.valid = true;
        msn = (msn + 1) & Psn.MASK;
        psn = Psn.add(pkt.psn, 1);
        qp.sendAtomicAck(qp.ackSyndrome(), pkt.psn, orig);
        return State.CLEANUP;
    }

    private Res allocRes() {
        int n = Math.max(1, Math.min(res.length, qp.maxDestRdAtomic));
        Res r = res[resHead % n];
        resHead = (resHead + 1) % n;
        return r;
    }

    private State complete() {
        if (!wqeValid) {
            return qp.isRc() ? State.ACKNOWLEDGE : State.CLEANUP;
        }
        int m = pkt.mask;
        Wc wc = qp.recvWc;
        fillRecv(wc, WcStatus.SUCCESS);
        if ((m & Opcodes.WRITE) != 0) {
            wc.opcode = WcOpcode.RECV_RDMA_WITH_IMM;
            wc.byteLen = (int) writeLength;
        }
        if ((m & Opcodes.IMMDT) != 0) {
            wc.immData = Hdr.immdt(pkt.hdr, pkt.opcode);
            wc.wcFlags |= WcFlags.WITH_IMM;
        }
        if ((m & Opcodes.INV) != 0) {
            int rkey = Hdr.iethRkey(pkt.hdr, pkt.opcode);
            Object o = qp.dev.mem.lookup(rkey);
            boolean ok = o instanceof RvtMr ? ((RvtMr) o).invalidate(rkey, qp.pd)
                    : o instanceof RvtMw && ((RvtMw) o).invalidate(rkey);
            if (!ok) {
                return State.ERR_INVALIDATE_RKEY;
            }
            wc.invalidateRkey = rkey;
            wc.wcFlags |= WcFlags.WITH_INVALIDATE;
        }
        if (qp.isUd()) {
            fillUd(wc);
        }
        wqeValid = false;
        qp.count(RvtCounter.RDMA_RECVS);
        if (!qp.rcq.enter(wc, Hdr.bthSe(pkt.hdr))) {
            return State.ERR_CQ_OVERFLOW;
        }
        return qp.isRc() ? State.ACKNOWLEDGE : State.CLEANUP;
    }

    private void fillRecv(Wc wc, WcStatus st) {
        wc.clear();
        wc.wrId = wqe.wrId;
        wc.wrCqe = wqe.wrCqe;
        wc.status = st;
        wc.opcode = WcOpcode.RECV;
        wc.byteLen = (int) rcvd;
        wc.qp = qp.core;
        wc.srcQp = qp.destQpn;
        wc.pkeyIndex = qp.pkeyIndex;
        wc.portNum = qp.port;
        if (pkt != null) {
            wc.slid = pkt.slid;
            wc.sl = pkt.sl;
            wc.portNum = pkt.port;
        }
    }

    private void fillUd(Wc wc) {
        wc.srcQp = Hdr.dethSqp(pkt.hdr, pkt.opcode);
        if (qp.type == QpType.GSI) {
            wc.pkeyIndex = Math.max(0, qp.dev.findPkey(pkt.port, Hdr.bthPkey(pkt.hdr)));
        }
        if (pkt.hasGrh) {
            wc.wcFlags |= WcFlags.GRH;
        }
        wc.dlidPathBits = pkt.dlid & ((1 << qp.dev.portLmc(pkt.port)) - 1);
        if (qp.dev.isRoce(pkt.port)) {
            System.arraycopy(pkt.smac, 0, wc.smac, 0, 6);
            wc.wcFlags |= WcFlags.WITH_SMAC | WcFlags.WITH_NETWORK_HDR_TYPE;
            wc.networkHdrType = pkt.networkHdrType;
            if (pkt.vlanId >= 0) {
                wc.vlanId = pkt.vlanId;
                wc.wcFlags |= WcFlags.WITH_VLAN;
            }
        }
    }

    private State acknowledge() {
        if (Hdr.bthAckReq(pkt.hdr)) {
            qp.sendAck(qp.ackSyndrome(), pkt.psn);
        }
        return State.CLEANUP;
    }

    // ================================================================== duplicates and errors

    private State duplicate() {
        qp.dev.count(RvtCounter.DUPLICATE_REQUEST);
        int m = pkt.mask;
        if ((m & Opcodes.WRITE_OR_SEND) != 0) {
            qp.sendAck(qp.ackSyndrome(), Psn.add(psn, -1));
            return State.CLEANUP;
        }
        Res r = find(pkt.psn, (m & Opcodes.ATOMIC) != 0);
        if (r == null) {
            return State.CLEANUP;
        }
        if (r.atomic) {
            qp.sendAtomicAck(qp.ackSyndrome(), pkt.psn, r.orig);
            return State.CLEANUP;
        }
        // A READ again, possibly from the middle: execute it from the PSN asked for.
        byte[] h = pkt.hdr;
        int op = pkt.opcode;
        long va = Hdr.rethVa(h, op);
        long len = Hdr.rethLen(h, op);
        long skipped = (long) Psn.distance(r.firstPsn, pkt.psn) * qp.pmtu;
        if (va != r.va + skipped || len != r.len - skipped || Hdr.rethRkey(h, op) != r.rkey) {
            return State.CLEANUP;
        }
        RvtMr mr = len == 0 ? null : qp.dev.mem.rkeyOk(qp.pd, qp, r.rkey, va, len, AccessFlags.REMOTE_READ);
        if (len != 0 && mr == null) {
            return State.CLEANUP;
        }
        sendReadResponses(pkt.psn, va, len, mr);
        return State.CLEANUP;
    }

    private Res find(int p, boolean atomic) {
        for (Res r : res) {
            if (r.valid && r.atomic == atomic && Psn.compare(p, r.firstPsn) >= 0 && Psn.compare(p, r.lastPsn) <= 0) {
                return r;
            }
        }
        return null;
    }

    private State outOfSequence() {
        qp.dev.count(RvtCounter.OUT_OF_SEQUENCE);
        if (!sentPsnNak) {
            sentPsnNak = true;
            qp.sendAck(Aeth.NAK_PSN_SEQ, psn);
        }
        return State.CLEANUP;
    }

    private State rnr() {
        if (qp.isRc()) {
            qp.dev.count(RvtCounter.SND_RNR);
            qp.sendAck(Aeth.rnrSyndrome(qp.minRnrTimer), pkt.psn);
        } else if (!qp.isUd()) {
            dropMsg = true;
            opcode = -1;
        }
        return State.CLEANUP;
    }

    /**
     * IBA error classes C and D: on RC, NAK with {@code syndrome}, complete the receive in use with
     * {@code st} and move the QP to ERR; on UC the message is dropped; on UD the receive completes
     * with {@code st} (length) and the QP stays usable.
     */
    private State classC(int syndrome, WcStatus st) {
        if (qp.isRc()) {
            qp.sendAck(syndrome, pkt.psn);
            abortWqe(st);
            qp.error(WcStatus.WR_FLUSH_ERR);
        } else if (qp.isUd()) {
            if (wqeValid) {
                abortWqe(st);
            }
            if (st == WcStatus.LOC_PROT_ERR) {
                qp.error(WcStatus.WR_FLUSH_ERR);
            }
        } else {
            dropMsg = true;
            opcode = -1;
            writeMr = null;
            writeTarget = null;
            if (st == WcStatus.LOC_PROT_ERR) {
                abortWqe(st);
                qp.error(WcStatus.WR_FLUSH_ERR);
            }
        }
        return State.CLEANUP;
    }

    /** Completes the receive WQE in use, if any, with {@code st}. */
    void abortWqe(WcStatus st) {
        if (!wqeValid) {
            return;
        }
        wqeValid = false;
        Wc wc = qp.recvWc;
        fillRecv(wc, st);
        wc.byteLen = 0;
        qp.rcq.enter(wc, false);
    }
}
