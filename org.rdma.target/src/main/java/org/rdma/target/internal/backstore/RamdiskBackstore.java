package org.rdma.target.internal.backstore;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Memory as a device (LIO's {@code target_core_rd.c}, rd_mcp): fixed-size pages allocated on
 * first write, so a ramdisk is thin by nature; UNMAP frees whole pages and zeroes partial ones.
 * Nothing to force.
 */
public final class RamdiskBackstore implements Backstore {
    /** The page size, and so UNMAP's granularity. */
    public static final int PAGE = 64 * 1024;

    private final int blockSize;
    private final long blockCount;
    private final AtomicReferenceArray<byte[]> pages;

    /**
     * @throws IllegalArgumentException {@code EINVAL} for a block size other than 512 or 4096, a
     *         size of no block, or more pages than an array holds
     */
    public RamdiskBackstore(long size, int blockSize) {
        FileioBackstore.checkBlockSize(blockSize);
        this.blockSize = blockSize;
        this.blockCount = size / blockSize;
        long nPages = (blockCount * blockSize + PAGE - 1) / PAGE;
        if (blockCount == 0 || nPages > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("EINVAL: ramdisk size " + size + " bytes");
        }
        this.pages = new AtomicReferenceArray<>((int) nPages);
    }

    @Override
    public String type() {
        return "ramdisk";
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public long blockCount() {
        return blockCount;
    }

    @Override
    public void read(long lba, ByteBuffer dst) {
        long off = lba * blockSize;
        while (dst.hasRemaining()) {
            int in = (int) (off % PAGE);
            int n = Math.min(PAGE - in, dst.remaining());
            byte[] p = pages.get((int) (off / PAGE));
            if (p == null) {
                dst.put(new byte[n]);
            } else {
                dst.put(p, in, n);
            }
            off += n;
        }
    }

    @Override
    public void write(long lba, ByteBuffer src) {
        long off = lba * blockSize;
        while (src.hasRemaining()) {
            int in = (int) (off % PAGE);
            int n = Math.min(PAGE - in, src.remaining());
            src.get(page((int) (off / PAGE)), in, n);
            off += n;
        }
    }

    private byte[] page(int i) {
        byte[] p = pages.get(i);
        if (p == null) {
            pages.compareAndSet(i, null, new byte[PAGE]);
            p = pages.get(i);
        }
        return p;
    }

    @Override
    public void force() {
    }

    @Override
    public boolean thin() {
        return true;
    }

    @Override
    public void unmap(long lba, long blocks) {
        long off = lba * blockSize;
        long end = off + blocks * blockSize;
        while (off < end) {
            int i = (int) (off / PAGE);
            int in = (int) (off % PAGE);
            int n = (int) Math.min(PAGE - in, end - off);
            if (n == PAGE) {
                pages.set(i, null);
            } else {
                byte[] p = pages.get(i);
                if (p != null) {
                    java.util.Arrays.fill(p, in, in + n, (byte) 0);
                }
            }
            off += n;
        }
    }

    @Override
    public boolean isMapped(long lba) {
        return pages.get((int) (lba * blockSize / PAGE)) != null;
    }

    @Override
    public long runLength(long lba, long max) {
        boolean mapped = isMapped(lba);
        long blocksPerPage = PAGE / blockSize;
        long run = blocksPerPage - lba % blocksPerPage;
        while (run < max && lba + run < blockCount && isMapped(lba + run) == mapped) {
            run += blocksPerPage;
        }
        return Math.min(Math.min(run, max), blockCount - lba);
    }

    @Override
    public long unmapGranularity() {
        return PAGE / blockSize;
    }

    @Override
    public void close() {
    }
}
