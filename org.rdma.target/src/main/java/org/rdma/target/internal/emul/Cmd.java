package org.rdma.target.internal.emul;

import java.nio.ByteBuffer;
import org.rdma.scsi.Cdb;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * A command as the emulation sees it (the emulation's part of LIO's {@code struct se_cmd}): the
 * CDB, the device (null for a LUN that is not mapped), the nexus, and what the parse step decided.
 * The owner allocates {@link #data} of {@link #length()} bytes between parse and execute.
 */
public final class Cmd {
    /** The most data-in an allocation length gets buffered for; longer answers do not exist. */
    static final int MAX_ALLOCATION = 256 * 1024;

    final byte[] cdb;
    final ScsiDevice dev;
    final Nexus nexus;
    private DataDirection dir = DataDirection.NONE;
    private int length;
    private Exec exec;
    private ByteBuffer data;
    private int dataIn;

    public Cmd(byte[] cdb, ScsiDevice dev, Nexus nexus) {
        this.cdb = cdb;
        this.dev = dev;
        this.nexus = nexus;
    }

    public byte[] cdb() {
        return cdb;
    }

    public ScsiDevice device() {
        return dev;
    }

    public DataDirection direction() {
        return dir;
    }

    /** The data length the CDB asks for (data-in: the allocation length, capped). */
    public int length() {
        return length;
    }

    public Exec exec() {
        return exec;
    }

    public ByteBuffer data() {
        return data;
    }

    public void setData(ByteBuffer b) {
        this.data = b;
    }

    /** Bytes of data-in the execution produced (at most {@link #length()}). */
    public int dataInLength() {
        return dataIn;
    }

    /** Writes are refused: the device is read-only or the LUN is mapped read-only for the nexus. */
    boolean writeProtected() {
        return dev.readOnly() || nexus.readOnly();
    }

    long field(int off, int n) {
        return Cdb.get(cdb, off, n);
    }

    void noData(Exec e) {
        dir = DataDirection.NONE;
        length = 0;
        exec = e;
    }

    void dataIn(long len, Exec e) {
        dir = len == 0 ? DataDirection.NONE : DataDirection.DATA_IN;
        length = (int) Math.min(len, MAX_ALLOCATION);
        exec = e;
    }

    void dataOut(long len, Exec e) {
        dir = len == 0 ? DataDirection.NONE : DataDirection.DATA_OUT;
        length = (int) len;
        exec = e;
    }

    /** Data-in built whole: copies as much as the allocation length takes. */
    void respond(byte[] payload) {
        int n = Math.min(payload.length, length);
        data.clear();
        data.put(payload, 0, n);
        dataIn = n;
    }

    /** Data-in written directly into {@link #data} (READ). */
    void produced(int n) {
        dataIn = n;
    }

    /** The data-out bytes, the whole buffer. */
    byte[] dataOutBytes() {
        byte[] b = new byte[length];
        data.duplicate().clear().get(b);
        return b;
    }
}
