package org.rdma.target.internal.backstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file as a device (LIO's {@code target_core_file.c}): positional reads and writes through a
 * {@link BlockChannel}, {@code force()} for FUA, SYNCHRONIZE CACHE and a disabled write cache. A
 * missing file is created sparse at the given size. Thin provisioning keeps an
 * {@link AllocationMap} in {@code <file>.lbamap}. Protection information lives in
 * {@code <file>.pi}, 8 bytes per block at {@code lba * 8}, stored complemented: the zeros of a
 * sparse or short file read as the all-ones tuples of unwritten blocks, so formatting writes
 * nothing, and UNMAP writes zeros.
 */
public final class FileioBackstore implements Backstore {
    /** The suffix of the allocation map beside the data file. */
    public static final String MAP_SUFFIX = ".lbamap";
    /** The suffix of the protection information beside the data file. */
    public static final String PI_SUFFIX = ".pi";

    /** Opens the channels of a backstore; tests substitute recording channels. */
    @FunctionalInterface
    public interface Opener {
        BlockChannel open(Path file) throws IOException;
    }

    /** The production opener: a read-write {@link FileChannel}, created when missing. */
    public static final Opener FILES = f -> BlockChannel.of(FileChannel.open(f, StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE));

    private final BlockChannel data;
    private final AllocationMap map;
    private final BlockChannel pi;
    private final int protectionType;
    private final int blockSize;
    private final long blockCount;

    private FileioBackstore(BlockChannel data, AllocationMap map, BlockChannel pi, int protectionType, int blockSize,
            long blockCount) {
        this.data = data;
        this.map = map;
        this.pi = pi;
        this.protectionType = protectionType;
        this.blockSize = blockSize;
        this.blockCount = blockCount;
    }

    /** {@link #open(Path, long, int, boolean, int, Opener)} without protection information. */
    public static FileioBackstore open(Path file, long size, int blockSize, boolean thin, Opener opener) throws IOException {
        return open(file, size, blockSize, thin, 0, opener);
    }

    /**
     * Opens (creating sparse when missing) a fileio backstore.
     *
     * @param size bytes; 0 takes the size of an existing file. A file smaller than {@code size}
     *        grows (sparse); the capacity is {@code size} rounded down to whole blocks.
     * @param protectionType the DIF type of {@code <file>.pi} (0: none); a missing one is created
     * @throws IllegalArgumentException {@code EINVAL} for a block size other than 512 or 4096, a
     *         capacity of no block, or a type other than 0 to 3; {@code ENOENT} for size 0 and no file
     */
    public static FileioBackstore open(Path file, long size, int blockSize, boolean thin, int protectionType, Opener opener)
            throws IOException {
        checkBlockSize(blockSize);
        checkProtectionType(protectionType);
        boolean existed = Files.exists(file);
        if (!existed && size <= 0) {
            throw new IllegalArgumentException("ENOENT: " + file + " does not exist and no size was given");
        }
        BlockChannel ch = opener.open(file);
        try {
            long bytes = size > 0 ? size : ch.size();
            long blocks = bytes / blockSize;
            if (blocks == 0) {
                throw new IllegalArgumentException("EINVAL: " + file + ": " + bytes + " bytes hold no block of " + blockSize);
            }
            if (ch.size() < bytes) {
                // One byte at the end sets the size without allocating the blocks before it.
                ch.writeFully(ByteBuffer.allocate(1), bytes - 1);
                ch.force(true);
            }
            AllocationMap map = null;
            if (thin) {
                Path mapFile = file.resolveSibling(file.getFileName() + MAP_SUFFIX);
                boolean mapExisted = Files.exists(mapFile);
                map = AllocationMap.open(opener.open(mapFile), blocks, !existed && !mapExisted);
            }
            BlockChannel pi = protectionType == 0 ? null : opener.open(file.resolveSibling(file.getFileName() + PI_SUFFIX));
            return new FileioBackstore(ch, map, pi, protectionType, blockSize, blocks);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    static void checkProtectionType(int type) {
        if (type < 0 || type > 3) {
            throw new IllegalArgumentException("EINVAL: protection type " + type + " is not 0 to 3");
        }
    }

    static void checkBlockSize(int blockSize) {
        if (blockSize != 512 && blockSize != 4096) {
            throw new IllegalArgumentException("EINVAL: logical block size " + blockSize + " is not 512 or 4096");
        }
    }

    @Override
    public String type() {
        return "fileio";
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
    public void read(long lba, ByteBuffer dst) throws IOException {
        if (map == null) {
            data.readFully(dst, lba * blockSize);
            return;
        }
        long blocks = dst.remaining() / blockSize;
        for (long done = 0; done < blocks;) {
            long run = map.runLength(lba + done, blocks - done);
            ByteBuffer part = dst.slice(dst.position(), (int) (run * blockSize));
            if (map.isMapped(lba + done)) {
                data.readFully(part, (lba + done) * blockSize);
            } else {
                part.put(new byte[part.remaining()]);
            }
            dst.position(dst.position() + (int) (run * blockSize));
            done += run;
        }
    }

    @Override
    public void write(long lba, ByteBuffer src) throws IOException {
        if (map != null) {
            map.set(lba, src.remaining() / blockSize, true);
        }
        data.writeFully(src, lba * blockSize);
    }

    @Override
    public int protectionType() {
        return protectionType;
    }

    @Override
    public void readPi(long lba, ByteBuffer dst) throws IOException {
        requirePi();
        int from = dst.position();
        pi.readFully(dst, lba * 8);
        for (int i = from; i < dst.position(); i++) {
            dst.put(i, (byte) ~dst.get(i));
        }
    }

    @Override
    public void writePi(long lba, ByteBuffer src) throws IOException {
        requirePi();
        ByteBuffer inverted = ByteBuffer.allocate(src.remaining());
        while (src.hasRemaining()) {
            inverted.put((byte) ~src.get());
        }
        pi.writeFully(inverted.flip(), lba * 8);
    }

    private void requirePi() {
        if (pi == null) {
            throw new UnsupportedOperationException("EOPNOTSUPP: fileio without protection information");
        }
    }

    @Override
    public void force() throws IOException {
        data.force(false);
        if (map != null) {
            map.force();
        }
        if (pi != null) {
            pi.force(false);
        }
    }

    @Override
    public boolean thin() {
        return map != null;
    }

    @Override
    public void unmap(long lba, long blocks) throws IOException {
        if (map == null) {
            throw new UnsupportedOperationException("EOPNOTSUPP: fileio without thin provisioning does not unmap");
        }
        map.set(lba, blocks, false);
        if (pi != null) {
            // Zeros, stored complemented, read as the tuples of unwritten blocks.
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(blocks * 8, 1 << 20));
            for (long off = lba * 8, end = (lba + blocks) * 8; off < end; off += zeros.capacity()) {
                pi.writeFully(zeros.clear().limit((int) Math.min(zeros.capacity(), end - off)), off);
            }
        }
    }

    @Override
    public boolean isMapped(long lba) {
        return map == null || map.isMapped(lba);
    }

    @Override
    public long runLength(long lba, long max) {
        return map == null ? Math.min(max, blockCount - lba) : map.runLength(lba, max);
    }

    @Override
    public void close() throws IOException {
        try (BlockChannel d = data; AllocationMap m = map; BlockChannel p = pi) {
            d.force(false);
            if (p != null) {
                p.force(false);
            }
        }
    }
}
