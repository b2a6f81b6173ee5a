package org.rdma.scsi;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A logical unit an initiator (iSCSI, iSER, SRP) has attached, published as an OSGi service with
 * the properties below so that tools (the load generator, a file system) work over any
 * transport; the role of a Linux {@code struct gendisk} / {@code sd} disk. Operations are
 * asynchronous: their futures complete exceptionally with a {@link ScsiException} when the
 * target answered other than GOOD, and with an {@link java.io.IOException} when the transport
 * failed.
 */
@ProviderType
public interface BlockDevice extends AutoCloseable {
    /** Service property: the transport, e.g. {@code "iscsi"}, {@code "iser"}, {@code "srp"}. */
    String TRANSPORT = "scsi.transport";
    /** Service property: the target's name (an IQN for iSCSI). */
    String TARGET = "scsi.target";
    /** Service property: the LUN number ({@code Integer}). */
    String LUN = "scsi.lun";
    /** Service property: the NAA WWN of VPD page 0x83 as hex digits. */
    String WWN = "scsi.wwn";
    /** Service property: the unit serial number of VPD page 0x80. */
    String SERIAL = "scsi.serial";
    /** Service property: the logical block size in bytes ({@code Integer}). */
    String BLOCK_SIZE = "scsi.block.size";
    /** Service property: the number of logical blocks ({@code Long}). */
    String BLOCK_COUNT = "scsi.block.count";

    /** The logical block length (READ CAPACITY). */
    int blockSize();

    /** The number of logical blocks (READ CAPACITY's last LBA + 1). */
    long blockCount();

    /** The NAA designator of VPD page 0x83, as hex digits. */
    String wwn();

    /** The unit serial number of VPD page 0x80. */
    String serial();

    /** Reads {@code dst.remaining()} bytes (a whole number of blocks) from {@code lba} into {@code dst}. */
    CompletableFuture<Void> read(long lba, ByteBuffer dst);

    /**
     * Writes {@code src.remaining()} bytes (a whole number of blocks) at {@code lba}; with
     * {@code fua} the future completes only once the data is on stable storage.
     */
    CompletableFuture<Void> write(long lba, ByteBuffer src, boolean fua);

    /** SYNCHRONIZE CACHE of the whole device. */
    CompletableFuture<Void> flush();

    /** UNMAP of {@code blocks} blocks from {@code lba}. */
    CompletableFuture<Void> unmap(long lba, long blocks);

    /** Detaches the device; outstanding operations complete exceptionally. */
    @Override
    void close();
}
