package org.rdma.target.internal.backstore;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Memory as a device (LIO's {@code target_core_rd.c}, rd_mcp): fixed-size pages allocated on
 * first write, so a ramdisk is thin by nature; UNMAP frees whole pages and zeroes partial ones.
 * Protection information, when formatted with it, lives in pages of its own the same way (LIO's
 * {@code rd_build_prot_space()}), all ones until written. Nothing to force.
 */
public final class RamdiskBackstore implements Backstore {
    /** The page size, and so UNMAP's granularity. */
    public static final int PAGE = 64 * 1024;

    private final int blockSize;
    private final long blockCount;
    private final AtomicReferenceArray<byte[]> pages;
    private final int protectionType;
    /** Pages of tuples, PAGE bytes each; null when not formatted with protection information. */
    private final AtomicReferenceArray<byte[]> piPages;

    /**
     * A ramdisk without protection information.
     *
     * @throws IllegalArgumentException {@code EINVAL} for a block size other than 512 or 4096, a
     *         size of no block, or more pages than an array holds
     */
    public RamdiskBackstore(long size, int blockSize) {
        this(size, blockSize, 0);
    }

    /**
     * A ramdisk formatted with protection information of DIF type {@code protectionType} (0: none).
     *
     * @throws IllegalArgumentException {@code EINVAL} as above, or for a type other than 0 to 3
     */
    public RamdiskBackstore(long size, int blockSize, int protectionType) {
        FileioBackstore.checkBlockSize(blockSize);
        FileioBackstore.checkProtectionType(protectionType);
        this.protectionType = protectionType;
        this.blockSize = blockSize;
        this.blockCount = size / blockSize;
        long nPages = (blockCount * blockSize + PAGE - 1) / PAGE;
        if (blockCount == 0 || nPages > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("EINVAL: ramdisk size " + size + " bytes");
        }
        this.pages = new AtomicReferenceArray<>((int) nPages);
        this.piPages = protectionType == 0 ? null : new AtomicReferenceArray<>((int) ((blockCount * 8 + PAGE - 1) / PAGE));
    }

    @Override
    public int protectionType() {
        return protectionType;
    }

    @Override
    public void readPi(long lba, ByteBuffer dst) {
        checkPi();
        for (long off = lba * 8; dst.hasRemaining();) {
            int in = (int) (off % PAGE);
            int n = Math.min(PAGE - in, dst.remaining());
            byte[] p = piPages.get((int) (off / PAGE));
            if (p == null) {
                for (int i = 0; i < n; i++) {
                    dst.put((byte) 0xFF);
                }
            } else {
                dst.put(p, in, n);
            }
            off += n;
        }
    }

    @Override
    public void writePi(long lba, ByteBuffer src) {
        checkPi();
        for (long off = lba * 8; src.hasRemaining();) {
            int in = (int) (off % PAGE);
            int n = Math.min(PAGE - in, src.remaining());
            src.get(page(piPages, (int) (off / PAGE), (byte) 0xFF), in, n);
            off += n;
        }
    }

    private void checkPi() {
        if (piPages == null) {
            throw new UnsupportedOperationException("EOPNOTSUPP: ramdisk without protection information");
        }
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
            src.get(page(pages, (int) (off / PAGE), (byte) 0), in, n);
            off += n;
        }
    }

    /** Page {@code i} of {@code a}, allocated filled with {@code fill} when missing. */
    private static byte[] page(AtomicReferenceArray<byte[]> a, int i, byte fill) {
        byte[] p = a.get(i);
        if (p == null) {
            byte[] fresh = new byte[PAGE];
            if (fill != 0) {
                java.util.Arrays.fill(fresh, fill);
            }
            a.compareAndSet(i, null, fresh);
            p = a.get(i);
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
        release(pages, lba * blockSize, blocks * blockSize, (byte) 0);
        if (piPages != null) {
            release(piPages, lba * 8, blocks * 8, (byte) 0xFF);
        }
    }

    /** Frees the whole pages of a byte range and fills the rest of it with what a free page reads as. */
    private static void release(AtomicReferenceArray<byte[]> pages, long off, long len, byte fill) {
        long end = off + len;
        while (off < end) {
            int i = (int) (off / PAGE);
            int in = (int) (off % PAGE);
            int n = (int) Math.min(PAGE - in, end - off);
            if (n == PAGE) {
                pages.set(i, null);
            } else {
                byte[] p = pages.get(i);
                if (p != null) {
                    java.util.Arrays.fill(p, in, in + n, fill);
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
