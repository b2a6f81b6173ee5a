package org.rdma.target.internal.device;

/**
 * A device's attributes, named after LIO's configfs {@code attrib/} files (emulate_write_cache,
 * emulate_tpu, is_nonrot, hw_max_sectors, max_unmap_lba_count, ...).
 *
 * @param readOnly every write answers DATA PROTECT, WRITE PROTECTED
 * @param writeCache the initial WCE bit of the caching mode page; when clear every write is
 *        forced before its status
 * @param thinProvisioning UNMAP and WRITE SAME's UNMAP bit deallocate (needs a thin backstore)
 * @param nonRotational VPD 0xB1's MEDIUM ROTATION RATE of 1
 * @param maxTransferBytes the largest data transfer of one READ or WRITE (VPD 0xB0)
 * @param maxUnmapLbaCount the most blocks one UNMAP deallocates
 * @param maxUnmapBlockDescriptors the most block descriptors of one UNMAP
 * @param maxWriteSameBlocks the most blocks one WRITE SAME writes
 */
public record DeviceAttributes(boolean readOnly, boolean writeCache, boolean thinProvisioning, boolean nonRotational,
        int maxTransferBytes, long maxUnmapLbaCount, int maxUnmapBlockDescriptors, long maxWriteSameBlocks) {
    /** Read-write, write cache on, not thin, rotational, 8 MiB transfers, LIO-like unmap limits. */
    public static final DeviceAttributes DEFAULTS =
            new DeviceAttributes(false, true, false, false, 8 << 20, 1 << 20, 256, 1 << 20);

    public DeviceAttributes withReadOnly(boolean ro) {
        return new DeviceAttributes(ro, writeCache, thinProvisioning, nonRotational, maxTransferBytes, maxUnmapLbaCount,
                maxUnmapBlockDescriptors, maxWriteSameBlocks);
    }

    public DeviceAttributes withWriteCache(boolean wce) {
        return new DeviceAttributes(readOnly, wce, thinProvisioning, nonRotational, maxTransferBytes, maxUnmapLbaCount,
                maxUnmapBlockDescriptors, maxWriteSameBlocks);
    }

    public DeviceAttributes withThinProvisioning(boolean thin) {
        return new DeviceAttributes(readOnly, writeCache, thin, nonRotational, maxTransferBytes, maxUnmapLbaCount,
                maxUnmapBlockDescriptors, maxWriteSameBlocks);
    }

    public DeviceAttributes withNonRotational(boolean nonRot) {
        return new DeviceAttributes(readOnly, writeCache, thinProvisioning, nonRot, maxTransferBytes, maxUnmapLbaCount,
                maxUnmapBlockDescriptors, maxWriteSameBlocks);
    }
}
