package org.rdma.target.internal.core;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.TaskAttribute;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.emul.Cmd;

/**
 * A command in the core (LIO's {@code se_cmd}). Its state moves by compare-and-set, so that a
 * completion, an abort and a release each happen once whatever thread gets there first.
 */
final class SeCmd implements FabricCommand {
    /** The life of a command (LIO's {@code t_state}). */
    enum State {
        /** Submitted, checks running. */
        NEW,
        /** Waiting for the fabric's data-out. */
        WRITE_PENDING,
        /** In the task set, waiting or running. */
        QUEUED,
        /** Status handed to the fabric. */
        COMPLETE,
        /** Aborted by task management or session close; no status. */
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
    final AtomicReference<State> state = new AtomicReference<>(State.NEW);
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

    boolean transition(State from, State to) {
        return state.compareAndSet(from, to);
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
            moved = dir == DataDirection.DATA_OUT && emul != null && state.get() != State.NEW ? dataLength : 0;
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
            throw new IllegalStateException("EINVAL: command " + tag + " is " + state.get() + ", not waiting for data-out");
        }
        session.core().queue(this);
    }

    @Override
    public void release() {
        State s = state.getAndSet(State.RELEASED);
        if (s != State.RELEASED) {
            session.forget(this);
        }
    }

    @Override
    public String toString() {
        return "tag " + tag + " " + org.rdma.scsi.Opcode.name(cdb.length > 0 ? cdb[0] : 0) + " " + state.get();
    }
}
