package org.rdma.rvt.internal.qp;

import java.util.concurrent.TimeUnit;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.RvtPacket;
import org.rdma.rvt.internal.mem.Mem;
import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.rvt.internal.mem.RvtMw;
import org.rdma.rvt.internal.mem.SgeCursor;
import org.rdma.rvt.internal.wire.Hdr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.rvt.internal.wire.Psn;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * The requester ({@code rxe_req.c}): turns send work requests into packets. A guarded loop: each
 * turn checks the QP state, a pending retry or RNR wait, the fence, the PSN window, the cap on
 * outstanding READ/ATOMIC requests and the end-to-end credits; then builds one packet from the
 * opcode table, transmits it and only then commits the new state (a refused transmit leaves
 * everything as it was). Local operations (REG_MR, LOCAL_INV, BIND_MW) execute here.
 */
final class Requester {
    private final RvtQp qp;
    private final SgeCursor cursor = new SgeCursor();

    /** Next PSN to send. */
    int psn;
    /** One past the highest PSN ever sent (to count retransmissions). */
    private int highPsn;
    /** Index (not masked) of the next send WQE to work on. */
    int idx;
    /** Set by the completer: go back to the oldest unacknowledged PSN. */
    boolean needRetry;
    /** Waiting for the RNR timer. */
    boolean waitRnr;
    /** READ/ATOMIC requests sent and not completed. */
    int rdAtomicInFlight;
    /** Limit sequence number from the responder's credits ({@code s_lsn}). */
    int lsn;
    /** The responder does not report credits (SRQ). */
    boolean unlimitedCredit;
    private int noackPkts;
    private int unackedMsgs;
    private boolean retryScheduled;
    private final Runnable retryLater;

    Requester(RvtQp qp) {
        this.qp = qp;
        this.retryLater = () -> {
            retryScheduled = false;
            qp.task.run();
        };
    }

    void setPsn(int p) {
        psn = p & Psn.MASK;
        highPsn = psn;
    }

    void reset(int head) {
        idx = head;
        needRetry = false;
        waitRnr = false;
        rdAtomicInFlight = 0;
        lsn = 0;
        unlimitedCredit = false;
        noackPkts = 0;
        unackedMsgs = 0;
    }

    /** {@code rvt_get_credit()}: an ACK's credit field moves the limit sequence number. */
    void credit(int aeth) {
        int code = (aeth >>> 24) & 0x1f;
        if (code == org.rdma.rvt.internal.wire.Aeth.CREDIT_INVALID) {
            unlimitedCredit = true;
        } else if (!unlimitedCredit) {
            int limit = (aeth + org.rdma.rvt.internal.wire.Aeth.credits(code)) & Psn.MASK;
            if (Psn.compareMsn(limit, lsn) > 0) {
                lsn = limit;
            }
        }
    }

    /** One pass; returns whether anything was done. */
    boolean run() {
        boolean did = false;
        while (true) {
            QpState st = qp.state;
            if (st != QpState.RTS && st != QpState.SQD) {
                return did;
            }
            if (waitRnr) {
                if (!qp.rnrExpired()) {
                    return did;
                }
                waitRnr = false;
                needRetry = true;
            }
            if (needRetry) {
                needRetry = false;
                retry();
                did = true;
            }
            if (idx == qp.sqHead) {
                return did;
            }
            Swqe w = qp.sq[idx & qp.sqMask];
            if (w.state == Swqe.DONE || w.state == Swqe.ERROR) {
                idx++;
                continue;
            }
            if (st == QpState.SQD && w.state == Swqe.POSTED) {
                return did;
            }
            if ((w.sendFlags & SendFlags.FENCE) != 0 && w.state == Swqe.POSTED && idx != qp.comp.tail) {
                return did;
            }
            if (w.has(WrKinds.LOCAL)) {
                executeLocal(w);
                idx++;
                qp.task.schedule();
                did = true;
                if (w.state == Swqe.ERROR) {
                    qp.error(WcStatus.WR_FLUSH_ERR);
                    return did;
                }
                continue;
            }
            if (qp.isRc() && Psn.compare(psn, Psn.add(qp.comp.psn, RvtQp.MAX_UNACKED_PSNS)) > 0) {
                return did;
            }
            if (w.state == Swqe.POSTED) {
                if (w.has(Opcodes.READ_OR_ATOMIC) && rdAtomicInFlight >= Math.max(1, qp.maxRdAtomic)) {
                    return did;
                }
                if (creditShort(w)) {
                    return did;
                }
                if (!start(w)) {
                    w.state = Swqe.ERROR;
                    qp.error(WcStatus.WR_FLUSH_ERR);
                    return true;
                }
            }
            int r = sendPacket(w);
            if (r == -Errno.EAGAIN.value) {
                if (!retryScheduled) {
                    retryScheduled = true;
                    qp.dev.clock.schedule(retryLater, 10, TimeUnit.MICROSECONDS);
                }
                return did;
            }
            did = true;
            if (w.state == Swqe.ERROR) {
                qp.error(WcStatus.WR_FLUSH_ERR);
                return did;
            }
        }
    }

    /**
     * Whether {@code w} will wait for end-to-end credits: the request before it then asks for an
     * ACK, whose AETH brings them. Requests that use no receive WQE never wait.
     */
    private boolean creditShort(Swqe w) {
        return qp.isRc() && needsCredit(w) && !unlimitedCredit && Psn.compareMsn(w.ssn, lsn + 1) > 0;
    }

    private static boolean needsCredit(Swqe w) {
        return w.has(Opcodes.SEND) || w.has(WrKinds.IMM) && w.has(Opcodes.WRITE);
    }

    private int mtu(Swqe w) {
        if (qp.isUd()) {
            return qp.dev.portMtu(qp.type == QpType.UD ? w.ah.attr.portNum : qp.port);
        }
        return qp.pmtu;
    }

    /** Checks a request's local memory before its first packet and fixes its PSN range. */
    private boolean start(Swqe w) {
        int access = w.has(Opcodes.READ_OR_ATOMIC) ? AccessFlags.LOCAL_WRITE : 0;
        if (w.has(Opcodes.ATOMIC) && (w.numSge < 1 || w.len[0] < 8)) {
            w.status = WcStatus.LOC_LEN_ERR;
            return false;
        }
        if (!w.isInline) {
            Mem mem = qp.dev.mem;
            for (int i = 0; i < w.numSge; i++) {
                if (w.len[i] == 0) {
                    w.mr[i] = null;
                    continue;
                }
                RvtMr mr = mem.lkeyOk(qp.pd, w.lkey[i], w.addr[i], w.len[i] & 0xffff_ffffL, access);
                if (mr == null) {
                    w.status = WcStatus.LOC_PROT_ERR;
                    return false;
                }
                w.mr[i] = mr;
            }
        }
        int mtu = mtu(w);
        int npkts = w.has(Opcodes.ATOMIC) ? 1 : packets(w.length, mtu);
        w.firstPsn = psn;
        w.lastPsn = Psn.add(psn, npkts - 1);
        w.sent = 0;
        w.state = Swqe.PROCESSING;
        return true;
    }

    /**
     * Packets (at least one) that carry {@code length} bytes. MTUs are powers of two, so a shift
     * serves where a 64-bit division per request would cost more than the rest of the sum.
     */
    private static int packets(long length, int mtu) {
        long n = (mtu & (mtu - 1)) == 0 ? (length + mtu - 1) >>> Integer.numberOfTrailingZeros(mtu)
                : (length + mtu - 1) / mtu;
        return (int) Math.max(1, n);
    }

    /** Builds and transmits the next packet of {@code w}; 0, or -EAGAIN with nothing changed. */
    private int sendPacket(Swqe w) {
        RvtPacket tx = qp.tx;
        byte[] h = tx.hdr;
        int mtu = mtu(w);
        boolean readAtomic = w.has(Opcodes.READ_OR_ATOMIC);
        long remaining = w.length - w.sent;
        int pay = readAtomic ? 0 : (int) Math.min(remaining, mtu);
        boolean first = w.sent == 0;
        boolean last = readAtomic || remaining <= mtu;
        int code = qp.transport() | WrKinds.code(w.opcode, first, last);
        int mask = Opcodes.mask(code);
        boolean retransmit = Psn.compare(psn, highPsn) < 0;
        boolean se = last && (w.sendFlags & SendFlags.SOLICITED) != 0 && (mask & (Opcodes.SEND | Opcodes.IMMDT)) != 0;
        int segs = !last && !retransmit && !w.isInline && qp.isRc() ? trainLength(w, first, code, remaining, mtu) : 1;
        // a train that carries the message's last packet ends it as that packet would
        boolean ends = segs > 1 && (long) segs * mtu == remaining;
        boolean ackReq;
        if (segs == 1) {
            ackReq = ackRequest(w, last, readAtomic, retransmit);
        } else if (ends) {
            noackPkts += segs - 1;
            last = true;
            ackReq = ackRequest(w, true, false, false);
        } else {
            ackReq = (noackPkts += segs) >= RvtQp.ACK_EVERY_PKTS;
        }
        int pad = -pay & 3;
        int pkeyIdx = qp.type == QpType.GSI ? w.pkeyIndex : qp.pkeyIndex;
        int dqpn = qp.isUd() ? w.remoteQpn : qp.destQpn;
        Hdr.setBth(h, code, se, pad, qp.sendPkey(pkeyIdx), dqpn, ackReq, psn);
        if ((mask & Opcodes.RETH) != 0) {
            long off = w.has(Opcodes.READ) ? w.sent : 0;
            Hdr.setReth(h, code, w.remoteAddr + off, w.rkey, w.length - off);
        }
        if ((mask & Opcodes.ATMETH) != 0) {
            boolean cas = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP;
            Hdr.setAtmeth(h, code, w.remoteAddr, w.rkey, cas ? w.swap : w.compareAdd, cas ? w.compareAdd : 0);
        }
        if ((mask & Opcodes.IMMDT) != 0) {
            Hdr.setImmdt(h, code, w.immData);
        }
        if ((mask & Opcodes.IETH) != 0) {
            Hdr.setIeth(h, code, w.invalidateRkey);
        }
        if ((mask & Opcodes.DETH) != 0) {
            int qkey = w.remoteQkey < 0 ? qp.qkey : w.remoteQkey;
            Hdr.setDeth(h, code, qkey, qp.qpn);
        }
        tx.hdrLen = Opcodes.length(code);
        tx.padCount = pad;
        tx.payloadLength = pay;
        tx.segments = segs;
        tx.endsMessage = ends;
        tx.startsMessage = segs > 1 && first;
        if (pay == 0) {
            tx.payload = null;
            tx.payloadOffset = 0;
            tx.payloadStable = true;
        } else if (w.isInline) {
            tx.payload = w.inlineBuf;
            tx.payloadOffset = (int) w.sent;
            tx.payloadStable = qp.isRc();
        } else {
            if (segs > 1 || SgeCursor.contiguous(w.addr, w.len, w.lkey, w.mr, w.numSge, w.sent, pay, qp.seg)) {
                tx.payload = qp.seg.buf;
                tx.payloadOffset = qp.seg.index;
                tx.payloadStable = qp.isRc();
            } else {
                cursor.bind(w.addr, w.len, w.lkey, w.mr, w.numSge, w.length);
                cursor.restart(w.length, w.sent);
                if (!cursor.gather(qp.bounce(), 0, pay, qp.seg)) {
                    w.status = WcStatus.LOC_PROT_ERR;
                    w.state = Swqe.ERROR;
                    return 0;
                }
                tx.payload = qp.bounce();
                tx.payloadOffset = 0;
                tx.payloadStable = false;
            }
        }
        int txPort;
        AhAttr dest;
        if (qp.isUd()) {
            txPort = qp.type == QpType.UD ? w.ah.attr.portNum : qp.port;
            dest = w.ah.attr;
        } else {
            txPort = qp.port;
            dest = qp.av;
        }
        int ret = qp.transmit(txPort, dest);
        if (ret == -Errno.EAGAIN.value) {
            return ret;
        }
        // commit
        if (retransmit) {
            qp.dev.count(RvtCounter.RETRANSMITTED_PKTS);
        }
        if (ackReq && last) {
            unackedMsgs = 0;
        }
        if (ackReq) {
            noackPkts = 0;
        }
        int advance = segs;
        if (w.has(Opcodes.READ)) {
            advance = packets(w.length - w.sent, mtu);
        }
        psn = Psn.add(psn, advance);
        if (Psn.compare(psn, highPsn) > 0) {
            highPsn = psn;
        }
        w.sent += (long) pay * segs;
        if (last) {
            idx++;
            if (readAtomic) {
                rdAtomicInFlight++;
            }
            if (qp.isRc()) {
                w.state = Swqe.PENDING;
            } else {
                w.state = Swqe.DONE;
                qp.task.schedule();
            }
        }
        if (qp.isRc()) {
            qp.armRetrans();
        }
        return 0;
    }

    /**
     * How many packets, from this packet ({@code code}, the {@code first} of its message or a
     * MIDDLE) of an RC request on, go as one {@linkplain org.rdma.rvt.RvtPacket#segments train}:
     * what the driver takes, up to the message's last packet (included only when it is a full LAST
     * the next opcode up from MIDDLE, with no further header and no solicited event), within the
     * PSN window and up to the next ACK request (which the train's last packet then carries); 1
     * unless at least two qualify, a FIRST is the opcode below a MIDDLE of the BTH alone, and
     * their payload is one slice of memory, which is then in {@code qp.seg}.
     */
    private int trainLength(Swqe w, boolean first, int code, long remaining, int mtu) {
        int n = qp.dev.maxSegments(qp.port);
        if (n < 2) {
            return 1;
        }
        int middle = first ? qp.transport() | WrKinds.code(w.opcode, false, false) : code;
        if (middle != (first ? code + 1 : code) || Opcodes.length(middle) != Opcodes.BTH_BYTES) {
            return 1;
        }
        int left = packets(remaining, mtu);
        int lastCode = qp.transport() | WrKinds.code(w.opcode, false, true);
        boolean mayEnd = (long) left * mtu == remaining && lastCode == middle + 1
                && Opcodes.length(lastCode) == Opcodes.BTH_BYTES
                && ((w.sendFlags & SendFlags.SOLICITED) == 0 || (Opcodes.mask(lastCode) & (Opcodes.SEND | Opcodes.IMMDT)) == 0);
        n = Math.min(n, mayEnd ? left : left - 1);
        n = Math.min(n, Psn.distance(psn, Psn.add(qp.comp.psn, RvtQp.MAX_UNACKED_PSNS)) + 1);
        n = Math.min(n, RvtQp.ACK_EVERY_PKTS - noackPkts);
        if (n < 2 || !SgeCursor.contiguous(w.addr, w.len, w.lkey, w.mr, w.numSge, w.sent, n * mtu, qp.seg)) {
            return 1;
        }
        return n;
    }

    /** ACK coalescing: ask for an ACK only where the requester needs one. */
    private boolean ackRequest(Swqe w, boolean last, boolean readAtomic, boolean retransmit) {
        if (!qp.isRc()) {
            return false;
        }
        if (readAtomic || retransmit) {
            return true;
        }
        if (last) {
            unackedMsgs++;
            return w.signaled || idx + 1 == qp.sqHead || unackedMsgs >= RvtQp.ACK_EVERY_MSGS
                    || creditShort(qp.sq[(idx + 1) & qp.sqMask]);
        }
        return ++noackPkts >= RvtQp.ACK_EVERY_PKTS;
    }

    /**
     * Go-back-N: restarts at the oldest unacknowledged PSN. The first incomplete request resumes
     * where the acknowledgements stopped ({@code rvt_restart_sge()}); later ones start over.
     */
    private void retry() {
        int t = qp.comp.tail;
        boolean first = true;
        int restartIdx = idx;
        for (int i = t; i != qp.sqHead; i++) {
            Swqe w = qp.sq[i & qp.sqMask];
            if (w.has(WrKinds.LOCAL) || w.state == Swqe.DONE || w.state == Swqe.ERROR) {
                continue;
            }
            if (w.state == Swqe.POSTED) {
                break;
            }
            if (w.state == Swqe.PENDING && w.has(Opcodes.READ_OR_ATOMIC)) {
                rdAtomicInFlight--;
            }
            if (first) {
                first = false;
                restartIdx = i;
                int acked = Psn.compare(qp.comp.psn, w.firstPsn) > 0 ? Psn.distance(w.firstPsn, qp.comp.psn) : 0;
                if (w.has(Opcodes.ATOMIC)) {
                    acked = 0;
                }
                w.sent = Math.min(w.length, (long) acked * mtu(w));
                w.state = Swqe.PROCESSING;
                if (w.sent == 0) {
                    w.state = Swqe.POSTED;
                }
            } else {
                w.sent = 0;
                w.state = Swqe.POSTED;
            }
        }
        if (!first) {
            idx = restartIdx;
            psn = qp.comp.psn;
        }
    }

    /** REG_MR, REG_MR_INTEGRITY, LOCAL_INV and BIND_MW ({@code rxe_do_local_ops()}). */
    private void executeLocal(Swqe w) {
        boolean ok;
        Mem mem = qp.dev.mem;
        switch (w.opcode) {
            case REG_MR:
                ok = w.regMr != null && w.regMr.fastRegister(qp.pd, w.key, w.access, w.regIova);
                break;
            case REG_MR_INTEGRITY:
                ok = w.regMr != null && w.regMr.fastRegisterIntegrity(qp.pd, w.key, w.access);
                break;
            case LOCAL_INV: {
                Object o = mem.lookup(w.invalidateRkey);
                ok = o instanceof RvtMr ? ((RvtMr) o).invalidate(w.invalidateRkey, qp.pd)
                        : o instanceof RvtMw && ((RvtMw) o).pd == qp.pd && ((RvtMw) o).invalidate(w.invalidateRkey);
                break;
            }
            case BIND_MW: {
                Object o = mem.lookup(w.rkey);
                RvtMr target = null;
                long va = 0;
                long len = 0;
                if (w.numSge > 0 && w.len[0] != 0) {
                    Object m = mem.lookup(w.lkey[0]);
                    target = m instanceof RvtMr && ((RvtMr) m).key == w.lkey[0] ? (RvtMr) m : null;
                    va = w.addr[0];
                    len = w.len[0] & 0xffff_ffffL;
                    if (target == null) {
                        ok = false;
                        break;
                    }
                }
                ok = o instanceof RvtMw && ((RvtMw) o).bind(qp, qp.pd, w.rkey, w.key, target, va, len, w.access);
                break;
            }
            default:
                ok = false;
        }
        if (ok) {
            w.state = Swqe.DONE;
        } else {
            w.state = Swqe.ERROR;
            w.status = w.opcode == WrOpcode.BIND_MW ? WcStatus.MW_BIND_ERR : WcStatus.LOC_QP_OP_ERR;
        }
    }
}
