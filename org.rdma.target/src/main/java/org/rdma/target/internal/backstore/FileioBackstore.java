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
 * {@link AllocationMap} in {@code <file>.lbamap}.
 */
public final class FileioBackstore implements Backstore {
    /** The suffix of the allocation map beside the data file. */
    public static final String MAP_SUFFIX = ".lbamap";

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
    private final int blockSize;
    private final long blockCount;

    private FileioBackstore(BlockChannel data, AllocationMap map, int blockSize, long blockCount) {
        this.data = data;
        this.map = map;
        this.blockSize = blockSize;
        this.blockCount = blockCount;
    }

    /**
     * Opens (creating sparse when missing) a fileio backstore.
     *
     * @param size bytes; 0 takes the size of an existing file. A file smaller than {@code size}
     *        grows (sparse); the capacity is {@code size} rounded down to whole blocks.
     * @throws IllegalArgumentException {@code EINVAL} for a block size other than 512 or 4096, or
     *         a capacity of no block; {@code ENOENT} for size 0 and no file
     */
    public static FileioBackstore open(Path file, long size, int blockSize, boolean thin, Opener opener)
            throws IOException {
        checkBlockSize(blockSize);
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
            return new FileioBackstore(ch, map, blockSize, blocks);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
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
    public void force() throws IOException {
        data.force(false);
        if (map != null) {
            map.force();
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
        try (BlockChannel d = data; AllocationMap m = map) {
            d.force(false);
        }
    }
}
