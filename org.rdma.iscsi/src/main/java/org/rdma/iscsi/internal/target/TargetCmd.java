package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.scsi.Asc;
import org.rdma.scsi.TaskAttribute;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.TargetException;

/**
 * One SCSI task of a session (LIO's {@code struct iscsit_cmd}): the command as it arrived, its
 * place in CmdSN order, and its data-out: immediate data, the unsolicited sequence (InitialR2T=No,
 * up to FirstBurstLength), and the sequences it solicits with R2Ts (MaxBurstLength each, at most
 * MaxOutstandingR2T at a time), checked as LIO's iscsi_target_erl0.c checks them. At
 * ErrorRecoveryLevel 0 a DataSN, offset or sequence out of order cannot be recovered; where LIO
 * drops the connection, the task here ends with CHECK CONDITION once its data-out is over, as RFC
 * 7143 7.8 b) ends a task whose data failed its digest, and the connection serves on. Its data
 * goes straight into the buffer the target core allocated, or, for
 * unsolicited data that comes before the core asked for it, into a staging array.
 *
 * <p>The command's monitor guards its data-out state; the target core is called outside it.
 */
public final class TargetCmd {
    private static final Logger LOG = Logger.getLogger(TargetCmd.class.getName());
    /** ASC/ASCQ 4Bh/00h and 4Bh/05h (SPC-4 table D.1): the data-out broke its sequence. */
    private static final Asc DATA_PHASE_ERROR = Asc.DATA_PHASE_ERROR;
    private static final Asc DATA_OFFSET_ERROR = Asc.DATA_OFFSET_ERROR;

    /** Where the task is (LIO's {@code i_state}, coarser). */
    enum State {
        /** Arrived; waits for its turn in CmdSN order. */
        RECEIVED,
        /** Handed to the target core. */
        SUBMITTED,
        /** The core wants its data-out. */
        WRITE_PENDING,
        /** All data-out is in; the core runs it. */
        READY,
        /** Status sent, aborted, or dropped: nothing more is done for it. */
        DONE
    }

    /** One data-out sequence: the unsolicited one (TTT 0xffffffff) or one per R2T. */
    static final class Sequence {
        final int ttt;
        final int r2tSn;
        final int offset;
        final int length;
        int nextDataSn;
        int nextOffset;
        int received;
        boolean done;

        Sequence(int ttt, int r2tSn, int offset, int length) {
            this.ttt = ttt;
            this.r2tSn = r2tSn;
            this.offset = offset;
            this.length = length;
            this.nextOffset = offset;
        }
    }

    /**
     * The answer to a Data-Out: go on; reject it, and whether the connection must go; or (with
     * {@code fail}) keep the PDU's place in its sequence but not its data, and end the task with
     * CHECK CONDITION and that sense once its data-out is over.
     */
    record Verdict(RejectReason reject, boolean drop, Asc fail, String why) {
        static final Verdict OK = new Verdict(null, false, null, null);

        static Verdict reject(RejectReason r, String why) {
            return new Verdict(r, false, null, why);
        }

        static Verdict rejectAndDrop(RejectReason r, String why) {
            return new Verdict(r, true, null, why);
        }

        static Verdict fail(Asc asc, String why) {
            return new Verdict(null, false, asc, why);
        }
    }

    private final IscsiConnection conn;
    private final int itt;
    private final int cmdSn;
    private final boolean immediate;
    private final long lun;
    private final byte[] cdb;
    private final TaskAttribute attr;
    private final int edtl;
    private final DataDirection dir;
    private final int unsolicitedEnd;
    private final AtomicBoolean retired;

    private State state = State.RECEIVED;
    private byte[] staged;
    private final RangeSet received = new RangeSet();
    private final Sequence unsolicited;
    private final Map<Integer, Sequence> r2ts = new LinkedHashMap<>();
    private int r2tOffset;
    private int r2tSn;
    private FabricCommand fabric;
    private int wanted;
    private FabricCommand deferredStatus;
    /** Why the task's data-out went wrong (RFC 7143 7.8 b): it ends with CHECK CONDITION. */
    private Asc failure;

    /**
     * @param immediateData the command PDU's data segment (copied), empty for none
     * @param finalBit the command PDU's F bit: no unsolicited Data-Out follows
     */
    TargetCmd(IscsiConnection conn, int itt, int cmdSn, boolean immediate, long lun, byte[] cdb, TaskAttribute attr,
            int edtl, DataDirection dir, ByteBuffer immediateData, boolean finalBit) {
        this.conn = conn;
        this.itt = itt;
        this.cmdSn = cmdSn;
        this.immediate = immediate;
        this.lun = lun;
        this.cdb = cdb;
        this.attr = attr;
        this.edtl = edtl;
        this.dir = dir;
        this.retired = new AtomicBoolean(immediate);
        int immediateLength = immediateData.remaining();
        var p = conn.session().parameters();
        // RFC 7143 13.14: without F the initiator sends unsolicited Data-Out up to FirstBurstLength.
        this.unsolicitedEnd = finalBit ? immediateLength : Math.min(edtl, p.firstBurstLength());
        this.unsolicited = unsolicitedEnd > immediateLength
                ? new Sequence(Pdus.RESERVED, -1, immediateLength, unsolicitedEnd - immediateLength) : null;
        if (unsolicitedEnd > 0) {
            staged = new byte[unsolicitedEnd];
            immediateData.get(immediateData.position(), staged, 0, immediateLength);
            received.add(0, immediateLength);
        }
    }

    public int itt() {
        return itt;
    }

    public IscsiConnection connection() {
        return conn;
    }

    /** The core's side of the command once it has called back, else null. */
    public synchronized FabricCommand fabric() {
        return fabric;
    }

    long tag() {
        return itt & 0xffff_ffffL;
    }

    int cmdSn() {
        return cmdSn;
    }

    long lun() {
        return lun;
    }

    boolean immediate() {
        return immediate;
    }

    synchronized State state() {
        return state;
    }

    /** True once: whether sending this task's end must move MaxCmdSN (non-immediate tasks). */
    boolean takeRetire() {
        return retired.compareAndSet(false, true);
    }

    // ---------------------------------------------------------------- the core's side

    /** Its turn in CmdSN order came: hand it to the core (LIO's {@code iscsit_execute_cmd()}). */
    void deliver(FabricSession nexus) {
        synchronized (this) {
            if (state != State.RECEIVED) {
                return;
            }
            state = State.SUBMITTED;
        }
        try {
            nexus.submit(lun, cdb, tag(), attr, edtl, dir);
        } catch (TargetException closed) {
            LOG.fine(() -> "ITT " + Integer.toHexString(itt) + " not submitted: " + closed.getMessage());
            end();
        }
    }

    /** Drops a task the core never saw (ABORT TASK, or its connection is gone); false if it had it. */
    boolean abortUndelivered() {
        synchronized (this) {
            if (state != State.RECEIVED) {
                return false;
            }
            state = State.DONE;
        }
        conn.session().taskEnded(this);
        return true;
    }

    /** LIO's {@code write_pending}: the core's buffer exists; solicit the rest of the data. */
    void writePending(FabricCommand fc) {
        synchronized (this) {
            if (state != State.SUBMITTED) {
                return;
            }
            fabric = fc;
            wanted = fc.dataLength();
            state = State.WRITE_PENDING;
            if (staged != null) {
                fc.dataBuffer().put(0, staged, 0, Math.min(staged.length, wanted));
                staged = null;
            }
            r2tOffset = Math.min(unsolicitedEnd, wanted);
        }
        conn.transport().getDataOut(this);
    }

    /**
     * Sends R2Ts for the data not yet asked for, as many as MaxOutstandingR2T allows (LIO's
     * {@code iscsit_build_r2ts_for_cmd()}); the PDU half of {@link Transport#getDataOut}.
     */
    synchronized void solicit() {
        if (state != State.WRITE_PENDING) {
            return;
        }
        var p = conn.session().parameters();
        while (failure == null && r2ts.size() < p.maxOutstandingR2T() && r2tOffset < wanted) {
            int len = Math.min(p.maxBurstLength(), wanted - r2tOffset);
            Sequence s = new Sequence(conn.session().nextTtt(), r2tSn++, r2tOffset, len);
            r2ts.put(s.ttt, s);
            r2tOffset += len;
            conn.sendR2t(this, s);
        }
    }

    /**
     * For a transport that moves data-out itself (iSER's RDMA READ): where the data it must get
     * starts (what came unsolicited is already in the core's buffer) and ends.
     */
    public synchronized int[] dataOutToGet() {
        int from = Math.min(unsolicitedEnd, wanted);
        return new int[] {from, wanted};
    }

    /**
     * Such a transport has put {@code length} bytes at {@code offset} of the core's buffer; once
     * all of it is there the command goes back to the core.
     */
    public void dataOutArrived(int offset, int length) {
        synchronized (this) {
            if (state != State.WRITE_PENDING || !received.add(offset, length)) {
                return;
            }
            r2tOffset = Math.max(r2tOffset, offset + length);
        }
        checkComplete();
    }

    /** For a transport that moves data-in itself (iSER's RDMA WRITE): the data is out, the status follows. */
    public void dataInSent() {
        FabricCommand fc;
        synchronized (this) {
            fc = fabric;
        }
        conn.sendStatus(this, fc);
    }

    /**
     * Hands the command back to the core once all its data-out is in, or, after a data-out error,
     * ends it with CHECK CONDITION once every sequence it started has ended (RFC 7143 7.8 b).
     */
    void checkComplete() {
        FabricCommand fc;
        Asc failed;
        synchronized (this) {
            if (state != State.WRITE_PENDING || !r2ts.isEmpty()) {
                return;
            }
            failed = failure;
            if (failed != null) {
                if (unsolicited != null && !unsolicited.done) {
                    return;
                }
                state = State.DONE;
            } else if (r2tOffset >= wanted && received.covers(0, wanted)) {
                state = State.READY;
            } else {
                return;
            }
            fc = fabric;
        }
        if (failed != null) {
            conn.sendDataOutFailure(this, failed);
            fc.release();
        } else {
            fc.writeDataReady();
        }
    }

    /** LIO's {@code queue_status}: held while unsolicited data is still due (RFC 7143 11.17.1's rule). */
    void queueStatus(FabricCommand fc) {
        synchronized (this) {
            if (state == State.DONE) {
                fc.release();
                return;
            }
            fabric = fc;
            if (unsolicited != null && !unsolicited.done) {
                deferredStatus = fc;
                return;
            }
            state = State.DONE;
        }
        conn.sendStatus(this, fc);
    }

    /** LIO's {@code queue_data_in}. */
    void queueDataIn(FabricCommand fc) {
        synchronized (this) {
            if (state == State.DONE) {
                fc.release();
                return;
            }
            fabric = fc;
            state = State.DONE;
        }
        conn.transport().putDataIn(this);
    }

    /** LIO's {@code aborted_task}: no status; Data-Out still coming for it is dropped. */
    void aborted(FabricCommand fc) {
        synchronized (this) {
            state = State.DONE;
            r2ts.clear();
        }
        end();
        fc.release();
    }

    /** The task is over: forget its ITT, retire its CmdSN if its response did not. */
    void end() {
        synchronized (this) {
            state = State.DONE;
        }
        conn.session().taskEnded(this);
    }

    // ---------------------------------------------------------------- data-out

    /**
     * One Data-Out PDU (RFC 7143 11.7; LIO's {@code iscsit_check_dataout_hdr()},
     * {@code iscsit_check_pre_dataout()} and {@code iscsit_check_post_dataout()}).
     *
     * @param data the payload, or null when its data digest failed
     */
    Verdict dataOut(Bhs h, ByteBuffer data) {
        FabricCommand deferred = null;
        boolean sequenceEnded;
        Verdict v;
        synchronized (this) {
            if (state == State.READY || state == State.DONE) {
                return Verdict.OK; // after the last of it, or aborted: LIO dumps the payload
            }
            v = check(h);
            if (v.reject() != null) {
                return v;
            }
            Sequence seq = h.ttt() == Pdus.RESERVED ? unsolicited : r2ts.get(h.ttt());
            if (v.fail() == null && data == null) {
                v = Verdict.fail(IscsiConnection.PROTOCOL_SERVICE_CRC_ERROR, "data digest error");
            }
            if (v.fail() == null && !received.add(h.bufferOffset(), h.dataSegmentLength())) {
                v = Verdict.fail(DATA_PHASE_ERROR, "bytes " + h.bufferOffset() + "+" + h.dataSegmentLength()
                        + " arrived twice");
            }
            seq.nextDataSn = h.dataSn() + 1;
            seq.nextOffset = h.bufferOffset() + h.dataSegmentLength();
            if (v.fail() == null) {
                seq.received += h.dataSegmentLength();
                store(h.bufferOffset(), data);
            } else if (failure == null) {
                failure = v.fail();
                String why = v.why();
                LOG.warning(() -> conn + ": ITT 0x" + Integer.toHexString(itt) + " fails: " + why);
            }
            sequenceEnded = h.finalBit();
            if (sequenceEnded) {
                if (failure == null && seq.received != seq.length) {
                    failure = DATA_PHASE_ERROR;
                    LOG.warning(() -> conn + ": ITT 0x" + Integer.toHexString(itt) + " fails: F bit after "
                            + seq.received + " of " + seq.length + " bytes of a sequence");
                }
                seq.done = true;
                if (seq == unsolicited) {
                    deferred = deferredStatus;
                    deferredStatus = null;
                    if (deferred != null) {
                        state = State.DONE;
                    }
                } else {
                    r2ts.remove(seq.ttt);
                }
            }
        }
        if (deferred != null) {
            conn.sendStatus(this, deferred);
        } else if (sequenceEnded) {
            solicit();
        }
        checkComplete();
        return Verdict.OK;
    }

    /**
     * The checks of a Data-Out's header: field errors are rejected (an unsolicited PDU where none
     * may come also drops the connection, as LIO does); a PDU out of its place in an in-order
     * sequence fails the task, which keeps the connection for the initiator's other tasks.
     */
    private Verdict check(Bhs h) {
        int offset = h.bufferOffset();
        int len = h.dataSegmentLength();
        String task = "ITT 0x" + Integer.toHexString(itt);
        if (dir != DataDirection.DATA_OUT) {
            return Verdict.reject(RejectReason.PROTOCOL_ERROR, "Data-Out for " + task + ", which does not write");
        }
        if (Integer.toUnsignedLong(offset) + len > edtl) {
            return Verdict.reject(RejectReason.INVALID_PDU_FIELD, "Data-Out at " + Integer.toUnsignedString(offset)
                    + "+" + len + " beyond the expected length " + edtl + " of " + task);
        }
        Sequence seq;
        if (h.ttt() == Pdus.RESERVED) {
            seq = unsolicited;
            if (seq == null) {
                return Verdict.rejectAndDrop(RejectReason.PROTOCOL_ERROR, "unsolicited Data-Out for " + task
                        + (conn.session().parameters().initialR2T() ? " with InitialR2T=Yes" : " after its F bit"));
            }
            if (offset < seq.offset || offset + len > seq.offset + seq.length) {
                return Verdict.rejectAndDrop(RejectReason.PROTOCOL_ERROR, "unsolicited Data-Out at " + offset + "+"
                        + len + " outside FirstBurstLength for " + task);
            }
        } else {
            seq = r2ts.get(h.ttt());
            if (seq == null) {
                return Verdict.reject(RejectReason.INVALID_PDU_FIELD, "Data-Out with TTT 0x"
                        + Integer.toHexString(h.ttt()) + " of no R2T of " + task);
            }
            if (offset < seq.offset || offset + len > seq.offset + seq.length) {
                return Verdict.reject(RejectReason.INVALID_PDU_FIELD, "Data-Out at " + offset + "+" + len
                        + " outside R2TSN " + seq.r2tSn + " of " + task);
            }
        }
        if (seq.done) {
            return Verdict.reject(RejectReason.PROTOCOL_ERROR, "Data-Out after the F bit of its sequence, " + task);
        }
        var p = conn.session().parameters();
        if (p.dataSequenceInOrder() && seq != currentSequence()) {
            return Verdict.fail(DATA_PHASE_ERROR, "a sequence out of order with DataSequenceInOrder=Yes");
        }
        if (p.dataPduInOrder()) {
            if (h.dataSn() != seq.nextDataSn) {
                return Verdict.fail(DATA_PHASE_ERROR, "DataSN " + Integer.toUnsignedString(h.dataSn())
                        + ", expected " + seq.nextDataSn);
            }
            if (offset != seq.nextOffset) {
                return Verdict.fail(DATA_OFFSET_ERROR, "offset " + offset + ", expected " + seq.nextOffset
                        + " with DataPDUInOrder=Yes");
            }
        }
        return Verdict.OK;
    }

    /** The sequence the initiator must be sending when sequences go in order: the first not done. */
    private Sequence currentSequence() {
        if (unsolicited != null && !unsolicited.done) {
            return unsolicited;
        }
        for (Sequence s : r2ts.values()) {
            return s;
        }
        return null;
    }

    private void store(int offset, ByteBuffer data) {
        int len = data.remaining();
        if (fabric != null && state == State.WRITE_PENDING) {
            int n = Math.min(len, wanted - offset);
            if (n > 0) {
                fabric.dataBuffer().put(offset, data, data.position(), n);
            }
        } else if (staged != null && deferredStatus == null) {
            data.get(data.position(), staged, offset, len);
        }
    }

    @Override
    public String toString() {
        return "ITT 0x" + Integer.toHexString(itt) + " CmdSN " + Integer.toUnsignedString(cmdSn) + " " + state;
    }
}
