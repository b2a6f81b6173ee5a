package org.rdma.target.internal.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.rdma.target.internal.backstore.Backstore;
import org.rdma.target.internal.backstore.RamdiskBackstore;

/**
 * A ramdisk that runs a hook in the middle of a write (the command is then executing, at the
 * backstore) and logs {@code "backstore write LBA+BLOCKS"} once the write is done, so a test can
 * act on a command in flight without threads or timing.
 */
final class HookedBackstore implements Backstore {
    private final RamdiskBackstore ram;
    private final List<String> events;
    /** Runs once, during the next write, then is cleared. */
    Runnable duringWrite;

    HookedBackstore(long size, List<String> events) {
        this.ram = new RamdiskBackstore(size, 512);
        this.events = events;
    }

    @Override
    public void write(long lba, ByteBuffer src) throws IOException {
        Runnable hook = duringWrite;
        duringWrite = null;
        int blocks = src.remaining() / 512;
        if (hook != null) {
            hook.run();
        }
        ram.write(lba, src);
        events.add("backstore write " + lba + "+" + blocks);
    }

    @Override
    public String type() {
        return ram.type();
    }

    @Override
    public int blockSize() {
        return ram.blockSize();
    }

    @Override
    public long blockCount() {
        return ram.blockCount();
    }

    @Override
    public void read(long lba, ByteBuffer dst) {
        ram.read(lba, dst);
    }

    @Override
    public void force() {
    }

    @Override
    public boolean thin() {
        return ram.thin();
    }

    @Override
    public void unmap(long lba, long blocks) {
        ram.unmap(lba, blocks);
    }

    @Override
    public boolean isMapped(long lba) {
        return ram.isMapped(lba);
    }

    @Override
    public long runLength(long lba, long max) {
        return ram.runLength(lba, max);
    }

    @Override
    public void close() {
    }
}
