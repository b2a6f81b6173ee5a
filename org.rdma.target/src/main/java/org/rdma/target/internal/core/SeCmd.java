package org.rdma.target.internal.core;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.TaskAttribute;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.emul.Cmd;

/**
 * A command in the core (LIO's {@code se_cmd}). Its state moves under its own monitor, so that a
 * completion, an abort and a release each happen once whatever thread gets there first; no
 * fabric callback runs while the monitor is held.
 *
 * <p>An abort takes a command that has not started off its path at once. A command that is
 * executing runs to its end (a write either happens whole or not at all) and is then aborted
 * instead of completed; whoever aborted it waits for that through {@link #abort}'s waiter, as it
 * waits for a command whose status is being handed to the fabric, so that a task management
 * response never overtakes the statuses it covers (LIO's {@code CMD_T_ABORTED} and
 * {@code target_put_cmd_and_wait()}).
 */
final class SeCmd implements FabricCommand {
    /** The life of a command (LIO's {@code t_state}). */
    enum State {
        /** Submitted, checks running. */
        NEW,
        /** Waiting for the fabric's data-out. */
        WRITE_PENDING,
        /** In the task set, waiting or handed to the executor, not started. */
        QUEUED,
        /** Executing: at the backstore, or in the emulation. */
        EXECUTING,
        /** Its status is (being) handed to the fabric. */
        COMPLETE,
        /** Aborted by task management or session close: TASK ABORTED status or none. */
        ABORTED,
        /** Released by the fabric. */
        RELEASED
    }

    final Session session;
    private final long lun;
    private final byte[] cdb;
    private final long tag;
    private final TaskAttribute attr;
    final int expectedLength;
    final DataDirection expectedDirection;
    /** How {@link #abort} took the command. */
    enum Abort {
        /** It had not started: aborted now, the caller delivers the abort. */
        NOW,
        /** It is executing: aborted when it ends, then the waiter runs. */
        AFTER_EXECUTION,
        /** Not aborted (it ended first), but its status is still being delivered: the waiter runs after. */
        NOT_AFFECTED_WAIT,
        /** Not aborted, nothing to wait for. */
        NOT_AFFECTED
    }

    // Guarded by this.
    private State state = State.NEW;
    private boolean abortRequested;
    private boolean taskAbortedStatus;
    private boolean delivered;
    private List<Runnable> waiters = new ArrayList<>();
    /** The device of the LUN, or null for a LUN the nexus does not see. */
    ScsiDevice dev;
    /** The mapped LUN number, or -1. */
    int mappedLun = -1;
    Cmd emul;
    private DataDirection dir = DataDirection.NONE;
    private ByteBuffer buffer = ByteBuffer.allocate(0);
    private volatile ScsiStatus status;
    private volatile byte[] sense;
    private volatile int dataLength;
    private volatile int residual;
    private volatile boolean overflow;
    private volatile boolean underflow;

    SeCmd(Session session, long lun, byte[] cdb, long tag, TaskAttribute attr, int expectedLength,
            DataDirection expectedDirection) {
        this.session = session;
        this.lun = lun;
        this.cdb = cdb.clone();
        this.tag = tag;
        this.attr = attr;
        this.expectedLength = expectedLength;
        this.expectedDirection = expectedDirection;
    }

    synchronized boolean transition(State from, State to) {
        if (state != from) {
            return false;
        }
        state = to;
        return true;
    }

    synchronized State state() {
        return state;
    }

    /**
     * Aborts the command as far as its state allows.
     *
     * @param taskAborted whether the abort ends in TASK ABORTED status (TAS set, aborted from
     *        another I_T nexus) rather than in no status
     * @param waiter run once the command's outcome has been delivered, for
     *        {@link Abort#AFTER_EXECUTION} and {@link Abort#NOT_AFFECTED_WAIT} only
     */
    synchronized Abort abort(boolean taskAborted, Runnable waiter) {
        switch (state) {
            case NEW, WRITE_PENDING, QUEUED -> {
                state = State.ABORTED;
                taskAbortedStatus = taskAborted;
                return Abort.NOW;
            }
            case EXECUTING -> {
                if (!abortRequested) {
                    abortRequested = true;
                    taskAbortedStatus = taskAborted;
                }
                waiters.add(waiter);
                return Abort.AFTER_EXECUTION;
            }
            case COMPLETE, ABORTED -> {
                if (!delivered) {
                    waiters.add(waiter);
                    return Abort.NOT_AFFECTED_WAIT;
                }
                return Abort.NOT_AFFECTED;
            }
            default -> {
                return Abort.NOT_AFFECTED;
            }
        }
    }

    /**
     * Ends the command's path: COMPLETE, or ABORTED when an abort arrived while it executed.
     *
     * @return the state it ended in, or null when it had already ended (aborted, released)
     */
    synchronized State end() {
        if (state == State.ABORTED || state == State.RELEASED || state == State.COMPLETE) {
            return null;
        }
        state = abortRequested ? State.ABORTED : State.COMPLETE;
        return state;
    }

    /** Whether the command is still a task of its task set (SAM-5 8.1): submitted and not ended. */
    synchronized boolean inTaskSet() {
        return state == State.NEW || state == State.WRITE_PENDING || state == State.QUEUED || state == State.EXECUTING;
    }

    /** Whether an abort asks for TASK ABORTED status. */
    synchronized boolean taskAbortedStatus() {
        return taskAbortedStatus;
    }

    /** The outcome is with the fabric: runs whoever waits for it. */
    void delivered() {
        List<Runnable> run;
        synchronized (this) {
            delivered = true;
            run = waiters;
            waiters = List.of();
        }
        run.forEach(Runnable::run);
    }

    void prepared(Cmd c) {
        emul = c;
        dir = c.direction();
        buffer = ByteBuffer.allocate(c.length());
        c.setData(buffer);
        dataLength = dir == DataDirection.DATA_OUT ? c.length() : 0;
    }

    /** Sets the outcome and the residual (SAM-5 5.4.3) from the bytes moved against the expected length. */
    void result(ScsiStatus st, byte[] senseData) {
        status = st;
        sense = senseData;
        long moved;
        if (st == ScsiStatus.GOOD && dir == DataDirection.DATA_IN) {
            int produced = emul.dataInLength();
            dataLength = Math.min(produced, expectedLength);
            buffer.clear().limit(dataLength);
            moved = produced;
        } else {
            moved = dir == DataDirection.DATA_OUT && emul != null && state() != State.NEW ? dataLength : 0;
            if (dir != DataDirection.DATA_OUT) {
                dataLength = 0;
            }
        }
        overflow = moved > expectedLength;
        underflow = moved < expectedLength;
        residual = (int) Math.abs(moved - expectedLength);
    }

    @Override
    public long tag() {
        return tag;
    }

    @Override
    public long lun() {
        return lun;
    }

    @Override
    public byte[] cdb() {
        return cdb.clone();
    }

    @Override
    public TaskAttribute taskAttribute() {
        return attr;
    }

    @Override
    public DataDirection direction() {
        return dir;
    }

    @Override
    public ByteBuffer dataBuffer() {
        return buffer;
    }

    @Override
    public int dataLength() {
        return dataLength;
    }

    @Override
    public ScsiStatus status() {
        return status;
    }

    @Override
    public byte[] senseData() {
        return sense == null ? null : sense.clone();
    }

    @Override
    public int residualCount() {
        return residual;
    }

    @Override
    public boolean residualOverflow() {
        return overflow;
    }

    @Override
    public boolean residualUnderflow() {
        return underflow;
    }

    @Override
    public void writeDataReady() {
        if (!transition(State.WRITE_PENDING, State.QUEUED)) {
            State s = state();
            if (s == State.ABORTED || s == State.RELEASED) {
                // Task management got there first; the data came too late to matter.
                return;
            }
            throw new IllegalStateException("EINVAL: command " + tag + " is " + s + ", not waiting for data-out");
        }
        session.core().queue(this);
    }

    @Override
    public void release() {
        State s;
        synchronized (this) {
            s = state;
            state = State.RELEASED;
        }
        if (s != State.RELEASED) {
            session.forget(this);
        }
    }

    @Override
    public String toString() {
        return "tag " + tag + " " + org.rdma.scsi.Opcode.name(cdb.length > 0 ? cdb[0] : 0) + " " + state();
    }
}
