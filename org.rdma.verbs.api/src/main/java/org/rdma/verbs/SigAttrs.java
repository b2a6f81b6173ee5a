package org.rdma.verbs;

/**
 * Signature attributes of an {@link MrType#INTEGRITY} MR: {@code struct ib_sig_attrs}. The
 * memory domain describes how data and protection information lie in host memory (DIX: a
 * separate metadata list; or interleaved with the data; or no protection), the wire domain what
 * an RDMA operation through the MR moves (data with interleaved 8-byte tuples, or data only).
 * The device converts between them, inserting, stripping or passing tuples, and checks the tuples
 * it reads against {@link #checkMask}. Consumers set {@link IbMr#sigAttrs()} before posting
 * {@link WrOpcode#REG_MR_INTEGRITY}, which snapshots it.
 */
public final class SigAttrs {
    /** {@code IB_SIG_CHECK_GUARD}: the two guard bytes of the tuple. */
    public static final int CHECK_GUARD = 0xc0;
    /** {@code IB_SIG_CHECK_APPTAG}: the two application tag bytes. */
    public static final int CHECK_APPTAG = 0x30;
    /** {@code IB_SIG_CHECK_REFTAG}: the four reference tag bytes. */
    public static final int CHECK_REFTAG = 0x0f;
    /** Bytes of one T10 DIF tuple. */
    public static final int DIF_TUPLE_BYTES = 8;

    /**
     * {@code check_mask}: one bit per tuple byte, bit 7 for byte 0 (the guard's high byte) down
     * to bit 0 for byte 7 (the reference tag's low byte); a set bit has that byte checked.
     */
    public int checkMask;
    /** {@code mem}: the memory domain. */
    public final SigDomain mem = new SigDomain();
    /** {@code wire}: the wire domain. */
    public final SigDomain wire = new SigDomain();
    /** {@code meta_length}: metadata bytes mapped by {@code ib_map_mr_sg_pi()}; set by the driver. */
    public int metaLength;

    /** Copies every field from {@code src} (the {@code memcpy} of {@code rdma_rw_ctx_signature_init()}). */
    public SigAttrs copyFrom(SigAttrs src) {
        checkMask = src.checkMask;
        mem.copyFrom(src.mem);
        wire.copyFrom(src.wire);
        metaLength = src.metaLength;
        return this;
    }

    /**
     * The length of the wire-domain view of an INTEGRITY MR whose {@link IbMr#length()} after
     * {@code ib_map_mr_sg_pi()} is {@code mrLength} (data plus {@link #metaLength} metadata bytes):
     * the byte count an RDMA operation through the MR moves. Memory protection without a metadata
     * list is interleaved in the data. Equals {@code rdma_rw_ctx_signature_init()}'s SGE length
     * ({@code mr->length}, less {@code meta_length} when the wire carries no protection) whenever
     * the memory domain has its metadata list, and also counts inserted tuples when it has none.
     */
    public long wireLength(long mrLength) {
        long data = mrLength - metaLength;
        SigDomain pi = mem.isDif() ? mem : wire.isDif() ? wire : null;
        if (pi == null || pi.dif.piInterval <= 0) {
            return data;
        }
        int interval = pi.dif.piInterval;
        boolean interleaved = mem.isDif() && metaLength == 0;
        long blocks = data / (interval + (interleaved ? DIF_TUPLE_BYTES : 0));
        return blocks * (interval + (wire.isDif() ? DIF_TUPLE_BYTES : 0));
    }
}
