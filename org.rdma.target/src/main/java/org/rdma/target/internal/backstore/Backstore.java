package org.rdma.target.internal.backstore;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The storage of one device, in logical blocks; LIO's {@code struct target_backend_ops} as the
 * device emulation uses it. Thin-provisioned backstores read unmapped blocks as zeros (LBPRZ).
 */
public interface Backstore extends Closeable {
    /** The backstore type as targetcli names it ({@code "fileio"}, {@code "ramdisk"}). */
    String type();

    int blockSize();

    long blockCount();

    /** Reads {@code dst.remaining()} bytes, a whole number of blocks, from {@code lba}. */
    void read(long lba, ByteBuffer dst) throws IOException;

    /** Writes {@code src.remaining()} bytes, a whole number of blocks, at {@code lba}. */
    void write(long lba, ByteBuffer src) throws IOException;

    /** Makes every completed write stable (FUA, SYNCHRONIZE CACHE, write cache off). */
    void force() throws IOException;

    /** Whether blocks can be deallocated (UNMAP, WRITE SAME with UNMAP). */
    boolean thin();

    /** Deallocates {@code blocks} blocks from {@code lba}; they read as zeros afterwards. */
    void unmap(long lba, long blocks) throws IOException;

    /** Whether {@code lba} is mapped; a backstore that is not thin maps every block. */
    boolean isMapped(long lba);

    /**
     * The number of blocks from {@code lba}, at most {@code max}, that share {@code lba}'s
     * mapped state (GET LBA STATUS descriptors).
     */
    long runLength(long lba, long max);

    /** The smallest number of blocks UNMAP deallocates as a whole (VPD 0xB0's granularity). */
    default long unmapGranularity() {
        return 1;
    }
}
