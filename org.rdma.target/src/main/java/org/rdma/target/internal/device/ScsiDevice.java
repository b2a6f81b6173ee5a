package org.rdma.target.internal.device;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rdma.scsi.Asc;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.backstore.Backstore;
import org.rdma.target.internal.pi.Protection;
import org.rdma.target.internal.pr.PrStore;
import org.rdma.target.internal.pr.Reservations;

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
    private final Reservations reservations;

    private volatile boolean writeCacheEnabled;
    private volatile boolean descriptorSense;
    private volatile boolean dexcpt;
    private volatile boolean stopped;
    private volatile boolean removalPrevented;
    private volatile boolean taskAbortedStatus = true;

    /** A device whose persistent reservations do not survive a restart (PTPL_C zero: APTPL is refused). */
    public ScsiDevice(String name, Backstore store, DeviceAttributes attrs, DeviceIdentity identity) {
        this(name, store, attrs, identity, newReservations(PrStore.NONE));
    }

    /**
     * A device whose persistent reservations persist in {@code prStore} while APTPL is active, and
     * are restored from it now.
     *
     * @throws IOException when the store cannot be read; {@code IllegalArgumentException}
     *         {@code EINVAL} when it holds no valid state
     */
    public ScsiDevice(String name, Backstore store, DeviceAttributes attrs, DeviceIdentity identity, PrStore prStore)
            throws IOException {
        this(name, store, attrs, identity, new Reservations(prStore));
    }

    private static Reservations newReservations(PrStore s) {
        try {
            return new Reservations(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ScsiDevice(String name, Backstore store, DeviceAttributes attrs, DeviceIdentity identity, Reservations r) {
        if (attrs.thinProvisioning() && !store.thin()) {
            throw new IllegalArgumentException("EINVAL: " + name + ": thin provisioning needs a thin " + store.type());
        }
        this.name = name;
        this.store = store;
        this.attrs = attrs;
        this.identity = identity;
        this.writeCacheEnabled = attrs.writeCache();
        this.dexcpt = true;
        this.reservations = r;
    }

    /** The device's SPC-2 and persistent reservations (LIO's {@code t10_pr}). */
    public Reservations reservations() {
        return reservations;
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

    /** The DIF type the backstore is formatted with, 0 for none (READ CAPACITY(16)'s P_TYPE + 1). */
    public int protectionType() {
        return store.protectionType();
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

    /**
     * TAS of the control mode page: commands aborted by another I_T nexus end with TASK ABORTED
     * status rather than none. Set by default, as LIO's {@code emulate_tas}.
     */
    public boolean taskAbortedStatus() {
        return taskAbortedStatus;
    }

    public void setTaskAbortedStatus(boolean tas) {
        taskAbortedStatus = tas;
    }

    /**
     * The state a logical unit reset returns to its initial value (SAM-5 6.3.3; SBC-3 5.9: a
     * medium removal prevention ends; SPC-2 5.5.1: an SPC-2 reservation is released).
     */
    public void logicalUnitReset() {
        removalPrevented = false;
        reservations.logicalUnitReset();
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

    /** Reads the protection information tuples of {@code dst.remaining() / 8} blocks. */
    public void readPi(long lba, ByteBuffer dst) throws ScsiException {
        try {
            store.readPi(lba, dst);
        } catch (IOException e) {
            throw new ScsiException(SenseKey.MEDIUM_ERROR, Asc.UNRECOVERED_READ_ERROR);
        }
    }

    /**
     * Writes blocks and, with {@code fua} or the write cache off, forces them before returning:
     * the caller produces GOOD status only after this returns. On a device formatted with
     * protection information their tuples are generated (reference tags from {@code lba},
     * application tag zero). Takes the shared side of {@link #atomicLock()}.
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
        ByteBuffer pi = protectionType() == 0 ? null
                : Protection.of(protectionType(), 0, lba, null).generate(src.slice(), blockSize());
        store(lba, src, pi, fua);
    }

    /** Writes blocks with the given protection information tuples, as {@link #write}. */
    public void writeWithPi(long lba, ByteBuffer src, ByteBuffer pi, boolean fua) throws ScsiException {
        atomic.readLock().lock();
        try {
            store(lba, src, pi, fua);
        } finally {
            atomic.readLock().unlock();
        }
    }

    /** The data, then its tuples: a crash between them leaves a guard that no longer matches, which a read reports. */
    private void store(long lba, ByteBuffer src, ByteBuffer pi, boolean fua) throws ScsiException {
        try {
            store.write(lba, src);
            if (pi != null) {
                store.writePi(lba, pi);
            }
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
