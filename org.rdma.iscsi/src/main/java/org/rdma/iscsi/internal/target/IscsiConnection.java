package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Ahs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.scsi.Asc;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;

/**
 * One connection of a session in the full feature phase (LIO's {@code struct iscsit_conn} with
 * iscsi_target.c's receive dispatch and response builders): it takes the PDUs its transport reads,
 * answers each as RFC 7143 chapter 11 says, numbers its responses with StatSN, pings an idle
 * initiator with NOP-In, and moves through the connection states of section 8. Every task it
 * receives is answered on it (connection allegiance, RFC 7143 4.2.2.4 at ErrorRecoveryLevel 0).
 */
public final class IscsiConnection implements PduHandler {
    private static final Logger LOG = Logger.getLogger(IscsiConnection.class.getName());

    /** The Logout Request's reason codes (RFC 7143 11.14.1) and Logout Response codes (11.15.1). */
    static final int CLOSE_SESSION = 0;
    static final int CLOSE_CONNECTION = 1;
    static final int REMOVE_FOR_RECOVERY = 2;
    static final int LOGOUT_SUCCESS = 0;
    static final int LOGOUT_CID_NOT_FOUND = 1;
    static final int LOGOUT_RECOVERY_NOT_SUPPORTED = 2;
    /** AsyncEvent 1 (RFC 7143 11.9.1): the target requests a logout. */
    static final int ASYNC_LOGOUT_REQUEST = 1;
    /** ASC/ASCQ 47h/05h, PROTOCOL SERVICE CRC ERROR: a data-out digest failed (RFC 7143 7.8). */
    static final Asc PROTOCOL_SERVICE_CRC_ERROR = Asc.of(0x47, 0x05);

    /** What a PDU does with StatSN: nothing (Data-In without status), carries it, or takes the next. */
    enum Stat { NONE, CURRENT, ADVANCE }

    private final IscsiSession session;
    private final int cid;
    private final Transport transport;
    private final LongSupplier clock;
    private final TextResponder text;
    private final ConnectionStats stats = new ConnectionStats();
    private final Object tx = new Object();
    private int statSn;
    private volatile int maxXmitDataSegmentLength;
    private volatile int expStatSn;
    private ConnState state = ConnState.LOGGED_IN;
    private volatile long lastReceived;
    private int pingTtt = Pdus.RESERVED;
    private long pingSent;
    private long logoutDeadline;
    private boolean transportOpen = true;

    IscsiConnection(IscsiSession session, int cid, Transport transport, OperationalParameters connection, int statSn,
            LongSupplier clock) {
        this.session = session;
        this.cid = cid;
        this.transport = transport;
        this.statSn = statSn;
        this.clock = clock;
        this.maxXmitDataSegmentLength = connection.maxXmitDataSegmentLength();
        this.lastReceived = clock.getAsLong();
        this.text = new TextResponder(this);
        transport.setMaxRecvDataSegmentLength(connection.maxRecvDataSegmentLength());
        transport.setDigests(connection.headerDigest(), connection.dataDigest());
    }

    public IscsiSession session() {
        return session;
    }

    public int cid() {
        return cid;
    }

    public Transport transport() {
        return transport;
    }

    public ConnectionStats stats() {
        return stats;
    }

    public synchronized ConnState state() {
        return state;
    }

    /** The StatSN the next response will carry. */
    public int nextStatSn() {
        synchronized (tx) {
            return statSn;
        }
    }

    /** The last ExpStatSN the initiator sent. */
    public int expStatSn() {
        return expStatSn;
    }

    int maxXmitDataSegmentLength() {
        return maxXmitDataSegmentLength;
    }

    /** A new MaxRecvDataSegmentLength the initiator declared in a Text Request (RFC 7143 13.12). */
    void maxXmitDataSegmentLength(int length) {
        maxXmitDataSegmentLength = length;
    }

    /** Moves to {@code to} if the RFC draws that move from the current state; false otherwise. */
    synchronized boolean transition(ConnState to) {
        if (!state.next().contains(to)) {
            return false;
        }
        LOG.fine(() -> this + ": " + state.label() + " " + state + " -> " + to.label() + " " + to);
        state = to;
        return true;
    }

    // ---------------------------------------------------------------- receive

    @Override
    public void receive(ReadResult result, Bhs bhs, ByteBuffer ahs, ByteBuffer data) {
        lastReceived = clock.getAsLong();
        stats.pdus.increment();
        switch (result) {
            case PDU -> dispatch(bhs, ahs, data);
            case DATA_DIGEST_ERROR -> dataDigestError(bhs, ahs);
            case UNKNOWN_OPCODE, OVERSIZE, INVALID_FIELD -> {
                reject(result.rejectReason(), bhs, ahs);
                if (bhs.opcode() != null && !bhs.opcode().initiator()) {
                    return; // a target opcode carries no CmdSN of the initiator's
                }
                consumeRejected(bhs);
            }
            case HEADER_DIGEST_ERROR, TRUNCATED, END_OF_STREAM -> drop(result.toString());
            case NEED_MORE -> {
            }
        }
    }

    private void dispatch(Bhs bhs, ByteBuffer ahs, ByteBuffer data) {
        ConnState s = state();
        if (s != ConnState.LOGGED_IN && s != ConnState.LOGOUT_REQUESTED) {
            stats.ignored.increment(); // after a Logout Request nothing more may come (RFC 7143 11.14)
            return;
        }
        Opcode op = bhs.opcode();
        if (op != Opcode.SCSI_DATA_OUT && op != Opcode.SNACK_REQUEST) {
            expStatSn = bhs.expStatSn();
        }
        if (session.discovery() && op != Opcode.NOP_OUT && op != Opcode.TEXT_REQUEST && op != Opcode.LOGOUT_REQUEST) {
            rejectAndConsume(RejectReason.PROTOCOL_ERROR, bhs, ahs, op + " in a discovery session");
            return;
        }
        switch (op) {
            case NOP_OUT -> nopOut(bhs, data);
            case SCSI_COMMAND -> scsiCommand(bhs, ahs, data, s);
            case SCSI_DATA_OUT -> dataOut(bhs, ahs, data);
            case TASK_MGMT_REQUEST -> taskManagement(bhs);
            case TEXT_REQUEST -> textRequest(bhs, ahs, data);
            case LOGOUT_REQUEST -> logoutRequest(bhs, ahs);
            // RFC 7143 11.16: SNACK is for ErrorRecoveryLevel > 0, which this target never negotiates.
            case SNACK_REQUEST -> rejectAndConsume(RejectReason.PROTOCOL_ERROR, bhs, ahs, "SNACK at ErrorRecoveryLevel 0");
            case LOGIN_REQUEST -> rejectAndConsume(RejectReason.PROTOCOL_ERROR, bhs, ahs, "Login Request in the full feature phase");
            default -> rejectAndConsume(RejectReason.COMMAND_NOT_SUPPORTED, bhs, ahs, op.toString());
        }
    }

    /** RFC 7143 7.8: a PDU whose data digest failed is discarded and answered with a Reject. */
    private void dataDigestError(Bhs bhs, ByteBuffer ahs) {
        stats.digestErrors.increment();
        reject(RejectReason.DATA_DIGEST_ERROR, bhs, ahs);
        if (bhs.opcode() == Opcode.SCSI_DATA_OUT) {
            TargetCmd cmd = session.task(bhs.itt());
            if (cmd != null && cmd.connection() == this) {
                apply(cmd.dataOut(bhs, null), bhs, ahs);
            }
        }
        // A command whose immediate data failed is not acknowledged: the initiator retries its CmdSN.
    }

    // ---------------------------------------------------------------- SCSI Command (11.3)

    private void scsiCommand(Bhs b, ByteBuffer ahs, ByteBuffer data, ConnState s) {
        if (s == ConnState.LOGOUT_REQUESTED) {
            rejectAndConsume(RejectReason.WAITING_FOR_LOGOUT, b, ahs, "a command after the logout request");
            return;
        }
        CommandChecks.Rejection bad = CommandChecks.check(b, ahs, session.parameters());
        if (bad != null) {
            rejectAndConsume(bad.reason(), b, ahs, bad.why());
            return;
        }
        int itt = b.itt();
        int cmdSn = b.cmdSn();
        boolean imm = b.immediate();
        if (!imm && session.takeAbortedBeforeArrival(cmdSn)) {
            sequenced(false, cmdSn, session::retire); // ABORT TASK found its RefCmdSN still to come
            return;
        }
        byte[] cdb = new byte[Ahs.cdbLength(ahs, ahs.position(), ahs.limit())];
        Ahs.cdb(b, ahs, ahs.position(), ahs.limit(), cdb);
        int edtl = b.expectedDataTransferLength();
        DataDirection dir = edtl == 0 ? DataDirection.NONE
                : b.write() ? DataDirection.DATA_OUT : DataDirection.DATA_IN;
        TargetCmd cmd = new TargetCmd(this, itt, cmdSn, imm, b.lun(), cdb, CommandChecks.attribute(b.attr()), edtl, dir, data,
                b.finalBit() || dir != DataDirection.DATA_OUT);
        if (!session.addTask(cmd)) {
            // SAM-5 5.9: a tag in use is an overlapped command; the one holding it goes on.
            sequenced(imm, cmdSn, () -> sendCheckCondition(itt, Sense.of(SenseKey.ABORTED_COMMAND,
                    Asc.OVERLAPPED_COMMANDS_ATTEMPTED), !imm));
            return;
        }
        if (!sequenced(imm, cmdSn, () -> cmd.deliver(session.nexus()))) {
            session.removeTask(cmd);
        }
    }

    // ---------------------------------------------------------------- SCSI Data-Out (11.7)

    private void dataOut(Bhs b, ByteBuffer ahs, ByteBuffer data) {
        TargetCmd cmd = session.task(b.itt());
        if (cmd == null) {
            stats.unknownItt.increment(); // an aborted or unknown task: LIO drops the payload
            return;
        }
        if (cmd.connection() != this) {
            reject(RejectReason.PROTOCOL_ERROR, b, ahs);
            LOG.warning(() -> this + ": Data-Out for ITT 0x" + Integer.toHexString(b.itt()) + " of connection "
                    + cmd.connection().cid() + " (connection allegiance)");
            return;
        }
        if (b.dataSegmentLength() == 0) {
            stats.ignored.increment();
            return;
        }
        apply(cmd.dataOut(b, data), b, ahs);
    }

    private void apply(TargetCmd.Verdict v, Bhs b, ByteBuffer ahs) {
        if (v.reject() != null) {
            LOG.warning(() -> this + ": Reject " + v.reject() + ": " + v.why());
            reject(v.reject(), b, ahs);
        }
        if (v.drop()) {
            drop(v.why());
        }
    }

    // ---------------------------------------------------------------- NOP-Out (11.18)

    private void nopOut(Bhs b, ByteBuffer data) {
        int itt = b.itt();
        if (itt == Pdus.RESERVED) {
            if (!b.immediate()) {
                rejectAndConsume(RejectReason.PROTOCOL_ERROR, b, ByteBuffer.allocate(0), "NOP-Out with ITT 0xffffffff not immediate");
                return;
            }
            if (b.ttt() != Pdus.RESERVED) {
                pingAnswered(b.ttt());
            }
            return;
        }
        byte[] ping = new byte[data.remaining()];
        data.get(data.position(), ping);
        long lun = b.lun();
        boolean imm = b.immediate();
        sequenced(imm, b.cmdSn(), () -> transmit(Pdus.nopIn(lun, itt, Pdus.RESERVED),
                ping.length == 0 ? null : ByteBuffer.wrap(ping), Stat.ADVANCE, !imm));
    }

    private synchronized void pingAnswered(int ttt) {
        if (ttt == pingTtt) {
            pingTtt = Pdus.RESERVED;
        } else {
            stats.ignored.increment();
        }
    }

    // ---------------------------------------------------------------- Task Management (11.5)

    private void taskManagement(Bhs b) {
        int fn = b.function();
        int itt = b.itt();
        long lun = b.lun();
        int rtt = b.referencedTaskTag();
        int refCmdSn = b.refCmdSn();
        int cmdSn = b.cmdSn();
        boolean imm = b.immediate();
        sequenced(imm, cmdSn, () -> session.taskManagement(this, fn, itt, lun, rtt, refCmdSn, cmdSn, !imm));
    }

    void sendTmResponse(int itt, int response, boolean retire) {
        transmit(Pdus.tmResponse(itt, response), null, Stat.ADVANCE, retire);
    }

    // ---------------------------------------------------------------- Text (11.10)

    private void textRequest(Bhs b, ByteBuffer ahs, ByteBuffer data) {
        byte[] bytes = new byte[data.remaining()];
        data.get(data.position(), bytes);
        int itt = b.itt();
        int ttt = b.ttt();
        boolean more = b.continueBit();
        boolean imm = b.immediate();
        byte[] header = b.toBytes();
        sequenced(imm, b.cmdSn(), () -> text.request(itt, ttt, more, ByteBuffer.wrap(bytes), !imm, header));
    }

    void sendTextResponse(int itt, int ttt, boolean finalBit, boolean more, ByteBuffer data, boolean retire) {
        transmit(Pdus.textResponse(itt, ttt, finalBit, more), data, Stat.ADVANCE, retire);
    }

    // ---------------------------------------------------------------- Logout (11.14)

    private void logoutRequest(Bhs b, ByteBuffer ahs) {
        int reason = b.reasonCode();
        if (reason > REMOVE_FOR_RECOVERY) {
            rejectAndConsume(RejectReason.INVALID_PDU_FIELD, b, ahs, "logout reason code " + reason);
            return;
        }
        int itt = b.itt();
        int target = b.cid();
        boolean imm = b.immediate();
        sequenced(imm, b.cmdSn(), () -> logout(itt, reason, target, !imm));
    }

    private void logout(int itt, int reason, int targetCid, boolean retire) {
        var p = session.parameters();
        if (reason == REMOVE_FOR_RECOVERY) {
            // RFC 7143 11.15.1: connection recovery needs ErrorRecoveryLevel 2.
            transmit(Pdus.logoutResponse(itt, LOGOUT_RECOVERY_NOT_SUPPORTED, 0, 0), null, Stat.ADVANCE, retire);
            return;
        }
        IscsiConnection other = reason == CLOSE_CONNECTION ? session.connection(targetCid) : this;
        if (other == null) {
            transmit(Pdus.logoutResponse(itt, LOGOUT_CID_NOT_FOUND, 0, 0), null, Stat.ADVANCE, retire);
            return;
        }
        if (other == this) {
            transition(ConnState.IN_LOGOUT);
        }
        transmit(Pdus.logoutResponse(itt, LOGOUT_SUCCESS, p.defaultTime2Wait(), p.defaultTime2Retain()), null,
                Stat.ADVANCE, retire);
        if (reason == CLOSE_SESSION) {
            session.loggedOut(this);
        } else {
            if (other != this) {
                other.close();
            }
            session.connectionLoggedOut(other);
        }
        if (other == this || reason == CLOSE_SESSION) {
            close();
        }
    }

    /** Ends the connection after its last PDU: state FREE, transport closed once what is queued is sent. */
    void close() {
        synchronized (this) {
            if (state == ConnState.FREE) {
                return;
            }
            state = ConnState.FREE;
        }
        closeTransport();
    }

    // ---------------------------------------------------------------- Asynchronous Message (11.9), NOP-In pings

    /**
     * Asks the initiator to log out within {@code seconds} (AsyncEvent 1, Parameter3), as LIO does
     * when a target goes away; the connection is dropped if it does not.
     */
    public void requestLogout(int seconds) {
        synchronized (this) {
            if (!transition(ConnState.LOGOUT_REQUESTED)) {
                return;
            }
            logoutDeadline = clock.getAsLong() + seconds * 1_000_000_000L;
        }
        transmit(Pdus.asyncMessage(ASYNC_LOGOUT_REQUEST, 0, 0, seconds), null, Stat.ADVANCE, false);
    }

    /** Timers on the engine's clock: the logout deadline, the NOP-In ping and its answer (LIO's nopin timers). */
    void tick(long now, TargetSettings settings) {
        String why = null;
        boolean ping = false;
        int ttt = 0;
        synchronized (this) {
            if (state == ConnState.LOGOUT_REQUESTED && now - logoutDeadline >= 0) {
                why = "no Logout Request within the asynchronous message's Parameter3";
            } else if (state != ConnState.LOGGED_IN && state != ConnState.LOGOUT_REQUESTED) {
                return;
            } else if (pingTtt != Pdus.RESERVED) {
                if (now - pingSent >= settings.nopInTimeoutNanos()) {
                    why = "no NOP-Out answered the NOP-In ping";
                }
            } else if (now - lastReceived >= settings.nopInIntervalNanos()) {
                pingTtt = ttt = session.nextTtt();
                pingSent = now;
                ping = true;
            }
        }
        if (why != null) {
            drop(why);
        } else if (ping) {
            transmit(Pdus.nopIn(0, Pdus.RESERVED, ttt), null, Stat.CURRENT, false);
        }
    }

    // ---------------------------------------------------------------- send

    /**
     * Queues a PDU with the sequence numbers of this moment (LIO's {@code iscsit_send_*()}): StatSN
     * as {@code stat} says, ExpCmdSN and MaxCmdSN of the session, MaxCmdSN moved first when the
     * PDU ends a non-immediate request.
     */
    void transmit(Bhs h, ByteBuffer data, Stat stat, boolean retire) {
        synchronized (tx) {
            if (retire) {
                session.retire();
            }
            if (!transportOpen) {
                return;
            }
            switch (stat) {
                case ADVANCE -> h.statSn(statSn++);
                case CURRENT -> h.statSn(statSn);
                case NONE -> {
                }
            }
            h.expCmdSn(session.expCmdSn()).maxCmdSn(session.maxCmdSn());
            h.dataSegmentLength(data == null ? 0 : data.remaining());
            transport.sendPdu(new TxPdu(h.buffer(), data));
        }
    }

    /** The SCSI Response of a task (11.4): status, residual, sense data. */
    void sendStatus(TargetCmd cmd, FabricCommand fc) {
        byte[] sense = fc.senseData();
        Bhs h = Pdus.scsiResponse(cmd.itt(), fc.status().code(), fc.residualOverflow(), fc.residualUnderflow(),
                fc.residualCount(), 0);
        session.removeTask(cmd);
        transmit(h, sense == null || sense.length == 0 ? null : Pdus.senseSegment(sense), Stat.ADVANCE, cmd.takeRetire());
        fc.release();
    }

    /**
     * A READ's data in Data-In PDUs of at most the initiator's MaxRecvDataSegmentLength, F at the
     * end of each MaxBurstLength sequence, in order (which every DataPDUInOrder and
     * DataSequenceInOrder allow), the status collapsed into the last (S bit, RFC 7143 11.7.3);
     * LIO's {@code iscsit_send_datain()} with {@code iscsit_set_datain_values_yes_and_yes()}.
     */
    void sendDataIn(TargetCmd cmd) {
        FabricCommand fc = cmd.fabric();
        int len = fc.dataLength();
        ByteBuffer buf = fc.dataBuffer();
        int burst = session.parameters().maxBurstLength();
        int status = fc.status().code();
        int inBurst = 0;
        int dataSn = 0;
        for (int offset = 0; offset < len;) {
            int n = Math.min(Math.min(maxXmitDataSegmentLength, len - offset), burst - inBurst);
            boolean last = offset + n == len;
            boolean endOfBurst = last || inBurst + n == burst;
            Bhs h = Pdus.dataIn(cmd.itt(), dataSn++, offset, endOfBurst, last ? status : -1, fc.residualOverflow(),
                    fc.residualUnderflow(), fc.residualCount());
            ByteBuffer slice = buf.slice(offset, n);
            if (last) {
                session.removeTask(cmd);
                transmit(h, slice, Stat.ADVANCE, cmd.takeRetire());
            } else {
                transmit(h, slice, Stat.NONE, false);
            }
            offset += n;
            inBurst = endOfBurst ? 0 : inBurst + n;
        }
        fc.release();
    }

    /** 11.8: an R2T; it carries StatSN without taking one. */
    void sendR2t(TargetCmd cmd, TargetCmd.Sequence s) {
        transmit(Pdus.r2t(cmd.lun(), cmd.itt(), s.ttt, s.r2tSn, s.offset, s.length), null, Stat.CURRENT, false);
    }

    /** RFC 7143 7.8 b): a task whose data-out failed (a digest, a sequence) ends with CHECK CONDITION. */
    void sendDataOutFailure(TargetCmd cmd, Asc asc) {
        session.removeTask(cmd);
        sendCheckCondition(cmd.itt(), Sense.of(SenseKey.ABORTED_COMMAND, asc), cmd.takeRetire());
    }

    private void sendCheckCondition(int itt, Sense sense, boolean retire) {
        Bhs h = Pdus.scsiResponse(itt, ScsiStatus.CHECK_CONDITION.code(), false, false, 0, 0);
        transmit(h, Pdus.senseSegment(sense.encode(false)), Stat.ADVANCE, retire);
    }

    /** A Reject (11.17) whose data segment is the rejected PDU's header with its AHSs. */
    void reject(RejectReason reason, Bhs bad, ByteBuffer ahs) {
        stats.rejects.increment();
        ByteBuffer d = ByteBuffer.allocate(Bhs.BHS_LENGTH + ahs.remaining());
        d.put(bad.toBytes()).put(ahs.duplicate()).flip();
        transmit(Pdus.reject(reason.code()), d, Stat.ADVANCE, false);
    }

    private void rejectAndConsume(RejectReason reason, Bhs bad, ByteBuffer ahs, String why) {
        LOG.warning(() -> this + ": Reject " + reason + ": " + why);
        reject(reason, bad, ahs);
        consumeRejected(bad);
    }

    /**
     * A rejected request that carries a CmdSN still takes its place in the window: the initiator
     * counted it, and at ErrorRecoveryLevel 0 nothing would ever fill the gap.
     */
    private void consumeRejected(Bhs bad) {
        Opcode op = bad.opcode();
        if (op == null || bad.immediate() || op == Opcode.SCSI_DATA_OUT || op == Opcode.SNACK_REQUEST
                || op == Opcode.LOGIN_REQUEST) {
            return;
        }
        sequenced(false, bad.cmdSn(), session::retire);
    }

    /**
     * Runs {@code action} now for an immediate request, else in CmdSN order; a CmdSN outside the
     * window is dropped without an answer (RFC 7143 4.2.2.1). Returns whether it was accepted.
     */
    private boolean sequenced(boolean immediate, int cmdSn, Runnable action) {
        if (immediate) {
            action.run();
            return true;
        }
        CmdSnWindow.Verdict v = session.admit(cmdSn, action);
        if (!v.accepted()) {
            stats.outsideWindow.increment();
            LOG.fine(() -> this + ": CmdSN " + Integer.toUnsignedString(cmdSn) + " " + v + ", dropped");
            return false;
        }
        session.drain();
        return true;
    }

    // ---------------------------------------------------------------- failure

    /** Drops the connection (ErrorRecoveryLevel 0: the session fails with it). */
    public void drop(String why) {
        synchronized (this) {
            if (state == ConnState.FREE || state == ConnState.CLEANUP_WAIT) {
                return;
            }
            state = ConnState.CLEANUP_WAIT;
        }
        LOG.log(Level.WARNING, "{0}: dropped: {1}", new Object[] {this, why});
        closeTransport();
        session.connectionFailed(this);
    }

    @Override
    public void transportClosed() {
        synchronized (tx) {
            transportOpen = false;
        }
        boolean failed;
        synchronized (this) {
            failed = state != ConnState.FREE && state != ConnState.CLEANUP_WAIT;
            if (failed) {
                state = ConnState.CLEANUP_WAIT;
            }
        }
        if (failed) {
            LOG.info(() -> this + ": transport closed by " + transport.peerName());
            session.connectionFailed(this);
        }
    }

    private void closeTransport() {
        synchronized (tx) {
            if (!transportOpen) {
                return;
            }
            transportOpen = false;
        }
        transport.close();
    }

    /** After the session's cleanup: the connection is gone for good (CLEANUP_WAIT to FREE). */
    synchronized void freed() {
        state = ConnState.FREE;
    }

    @Override
    public String toString() {
        return session + " cid " + cid;
    }
}
