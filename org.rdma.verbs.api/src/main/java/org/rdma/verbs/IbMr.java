package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A memory region: {@code struct ib_mr}. Keys are 32 bits: a 24-bit index and an 8-bit key
 * that {@link #updateFastRegKey} changes before each fast registration.
 */
@ProviderType
public interface IbMr {
    /** {@code mr->device}. */
    IbDevice device();

    /** {@code mr->pd}. */
    IbPd pd();

    /** {@code mr->type}. */
    MrType type();

    /** {@code mr->lkey}. */
    int lkey();

    /** {@code mr->rkey}. */
    int rkey();

    /** {@code mr->iova}: set by registration or by {@link #mapMrSg}. */
    long iova();

    /** {@code mr->length}. */
    long length();

    /** {@code mr->page_size}. */
    int pageSize();

    /**
     * {@code ib_update_fast_reg_key()}: replaces the low 8 bits of lkey and rkey; the new key
     * becomes valid when a {@link WrOpcode#REG_MR} carrying it executes.
     */
    void updateFastRegKey(int newKey);

    /**
     * {@code ib_map_mr_sg()}: maps the largest prefix of {@code sg[0..nents)} (starting
     * {@code sgOffset[0]} bytes into the first element, if given) to the MR's page list with pages of
     * {@code pageSize}. Sets {@link #iova()} and {@link #length()}; returns the number of elements
     * mapped, or a negative errno; updates {@code sgOffset[0]} to the offset into the first
     * unmapped element.
     */
    int mapMrSg(SgEntry[] sg, int nents, int[] sgOffset, int pageSize);

    /**
     * {@code ib_map_mr_sg_pi()}: maps data and protection-information lists to an
     * {@link MrType#INTEGRITY} MR; returns 0 or a negative errno (EOPNOTSUPP for other MR types).
     */
    int mapMrSgPi(SgEntry[] dataSg, int dataNents, int[] dataSgOffset,
            SgEntry[] metaSg, int metaNents, int[] metaSgOffset, int pageSize);

    /** {@code ib_dereg_mr()}: EBUSY while memory windows are bound to it. */
    void dereg();

    /** {@code ib_inc_rkey()}: the key with its low 8 bits incremented. */
    static int incRkey(int rkey) {
        return (rkey & 0xffffff00) | ((rkey + 1) & 0xff);
    }
}
