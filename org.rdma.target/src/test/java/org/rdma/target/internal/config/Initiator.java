package org.rdma.target.internal.config;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.Sense;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.fabric.FabricOps;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.FabricTpg;

/**
 * A fabric for checking what a configuration made live: one session, commands run to completion
 * before {@code submit} returns (the tree's core runs them on the calling thread).
 */
final class Initiator implements FabricOps {
    private final Map<Long, byte[]> writeData = new HashMap<>();
    private final Map<Long, FabricCommand> done = new HashMap<>();
    private final Map<Long, byte[]> dataIn = new HashMap<>();
    final FabricSession session;
    private long tag;

    Initiator(FabricTpg tpg, String name) {
        session = tpg.openSession(name, name + ",i,0x023d00000001", this);
    }

    FabricCommand run(int lun, byte[] cdb, int edtl, byte[] data) {
        long t = ++tag;
        if (data != null) {
            writeData.put(t, data);
        }
        session.submit(Lun.encode(lun), cdb, t, TaskAttribute.SIMPLE, edtl,
                data != null ? DataDirection.DATA_OUT : edtl > 0 ? DataDirection.DATA_IN : DataDirection.NONE);
        FabricCommand c = done.get(t);
        if (c == null) {
            throw new AssertionError("command " + t + " did not complete");
        }
        return c;
    }

    /** The LUN numbers REPORT LUNS lists, after the unit attentions of a new session are taken. */
    List<Integer> reportLuns() {
        FabricCommand c = run(0, Cdb.reportLuns(0, 4096), 4096, null);
        if (c.status() != ScsiStatus.GOOD) {
            throw new AssertionError("REPORT LUNS: " + c.status() + " " + Sense.decode(c.senseData(), 0, c.senseData().length));
        }
        byte[] d = dataIn.get(tag);
        ByteBuffer b = ByteBuffer.wrap(d);
        int n = b.getInt(0) / 8;
        List<Integer> luns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            luns.add(Lun.decode(b.getLong(8 + 8 * i)));
        }
        return luns;
    }

    /** A WRITE(10) of one block after clearing the LUN's unit attentions; its sense or null when GOOD. */
    Sense write(int lun, int blockSize) {
        run(lun, Cdb.testUnitReady(), 0, null);
        FabricCommand c = run(lun, Cdb.write10(0, 1, 0), blockSize, new byte[blockSize]);
        return c.status() == ScsiStatus.GOOD ? null : Sense.decode(c.senseData(), 0, c.senseData().length);
    }

    @Override
    public void writePending(FabricCommand cmd) {
        cmd.dataBuffer().put(0, writeData.remove(cmd.tag()));
        cmd.writeDataReady();
    }

    @Override
    public void queueDataIn(FabricCommand cmd) {
        byte[] d = new byte[cmd.dataLength()];
        cmd.dataBuffer().get(0, d);
        dataIn.put(cmd.tag(), d);
        done.put(cmd.tag(), cmd);
        cmd.release();
    }

    @Override
    public void queueStatus(FabricCommand cmd) {
        done.put(cmd.tag(), cmd);
        cmd.release();
    }

    @Override
    public void queueTmResponse(long t, TmfFunction function, TmfResponse response) {
    }

    /** A fabric that is never called back (for logins that must fail). */
    static final class Nothing implements FabricOps {
        @Override
        public void writePending(FabricCommand cmd) {
        }

        @Override
        public void queueDataIn(FabricCommand cmd) {
        }

        @Override
        public void queueStatus(FabricCommand cmd) {
        }

        @Override
        public void queueTmResponse(long t, TmfFunction function, TmfResponse response) {
        }
    }
}
