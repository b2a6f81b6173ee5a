package org.rdma.target.internal.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rdma.scsi.Asc;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.backstore.Backstore;

/**
 * A SCSI logical unit's device (LIO's {@code struct se_device}): a backstore, its attributes
 * and identity, and the state the commands change (mode parameters, started, medium removal).
 *
 * <p>Locking: {@link #atomicLock()} is a read-write lock; every write takes its read side and
 * COMPARE AND WRITE its write side, so no write interleaves with a compare and its write. The
 * mode fields are volatile: a MODE SELECT is seen by the commands that start after it.
 */
public final class ScsiDevice {
    private final String name;
    private final Backstore store;
    private final DeviceAttributes attrs;
    private final DeviceIdentity identity;
    private final ReadWriteLock atomic = new ReentrantReadWriteLock();

    private volatile boolean writeCacheEnabled;
    private volatile boolean descriptorSense;
    private volatile boolean dexcpt;
    private volatile boolean stopped;
    private volatile boolean removalPrevented;

    public ScsiDevice(String name, Backstore store, DeviceAttributes attrs, DeviceIdentity identity) {
        if (attrs.thinProvisioning() && !store.thin()) {
            throw new IllegalArgumentException("EINVAL: " + name + ": thin provisioning needs a thin " + store.type());
        }
        this.name = name;
        this.store = store;
        this.attrs = attrs;
        this.identity = identity;
        this.writeCacheEnabled = attrs.writeCache();
        this.dexcpt = true;
    }

    public String name() {
        return name;
    }

    public Backstore backstore() {
        return store;
    }

    public DeviceAttributes attributes() {
        return attrs;
    }

    public DeviceIdentity identity() {
        return identity;
    }

    public int blockSize() {
        return store.blockSize();
    }

    public long blockCount() {
        return store.blockCount();
    }

    public boolean readOnly() {
        return attrs.readOnly();
    }

    /** LIO's emulate_tpu/emulate_tpws: UNMAP supported, LBPME set. */
    public boolean thin() {
        return attrs.thinProvisioning();
    }

    /** The largest READ/WRITE transfer in blocks (VPD 0xB0 MAXIMUM TRANSFER LENGTH). */
    public long maxTransferBlocks() {
        return attrs.maxTransferBytes() / blockSize();
    }

    public ReadWriteLock atomicLock() {
        return atomic;
    }

    /** WCE of the caching mode page. */
    public boolean writeCacheEnabled() {
        return writeCacheEnabled;
    }

    public void setWriteCacheEnabled(boolean wce) {
        writeCacheEnabled = wce;
    }

    /** D_SENSE of the control mode page: CHECK CONDITION sense in descriptor format. */
    public boolean descriptorSense() {
        return descriptorSense;
    }

    public void setDescriptorSense(boolean d) {
        descriptorSense = d;
    }

    /** DEXCPT of the informational exceptions control mode page. */
    public boolean dexcpt() {
        return dexcpt;
    }

    public void setDexcpt(boolean d) {
        dexcpt = d;
    }

    /** Stopped by START STOP UNIT: media access answers NOT READY. */
    public boolean stopped() {
        return stopped;
    }

    public void setStopped(boolean s) {
        stopped = s;
    }

    public boolean removalPrevented() {
        return removalPrevented;
    }

    public void setRemovalPrevented(boolean p) {
        removalPrevented = p;
    }

    /** Reads blocks into {@code dst}; an I/O failure is MEDIUM ERROR, UNRECOVERED READ ERROR. */
    public void read(long lba, ByteBuffer dst) throws ScsiException {
        try {
            store.read(lba, dst);
        } catch (IOException e) {
            throw new ScsiException(SenseKey.MEDIUM_ERROR, Asc.UNRECOVERED_READ_ERROR);
        }
    }

    /**
     * Writes blocks and, with {@code fua} or the write cache off, forces them before returning:
     * the caller produces GOOD status only after this returns. Takes the shared side of
     * {@link #atomicLock()} unless the caller already holds its exclusive side.
     */
    public void write(long lba, ByteBuffer src, boolean fua) throws ScsiException {
        atomic.readLock().lock();
        try {
            writeLocked(lba, src, fua);
        } finally {
            atomic.readLock().unlock();
        }
    }

    /** {@link #write} for a caller that holds a side of {@link #atomicLock()}. */
    public void writeLocked(long lba, ByteBuffer src, boolean fua) throws ScsiException {
        try {
            store.write(lba, src);
            if (fua || !writeCacheEnabled) {
                store.force();
            }
        } catch (IOException e) {
            throw new ScsiException(SenseKey.MEDIUM_ERROR, Asc.WRITE_ERROR);
        }
    }

    /** Deallocates blocks, forced when the write cache is off (nothing acknowledged before it is stable). */
    public void unmap(long lba, long blocks) throws ScsiException {
        atomic.readLock().lock();
        try {
            store.unmap(lba, blocks);
            if (!writeCacheEnabled) {
                store.force();
            }
        } catch (IOException e) {
            throw new ScsiException(SenseKey.MEDIUM_ERROR, Asc.WRITE_ERROR);
        } finally {
            atomic.readLock().unlock();
        }
    }

    /** SYNCHRONIZE CACHE. */
    public void flush() throws ScsiException {
        try {
            store.force();
        } catch (IOException e) {
            throw new ScsiException(SenseKey.MEDIUM_ERROR, Asc.WRITE_ERROR);
        }
    }
}
