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

    /**
     * {@code mr->sig_attrs}: the signature attributes of an {@link MrType#INTEGRITY} MR, which the
     * consumer fills before posting {@link WrOpcode#REG_MR_INTEGRITY}; {@code null} for other types.
     */
    default SigAttrs sigAttrs() {
        return null;
    }

    /**
     * {@code ib_check_mr_status()}: with {@link MrStatus#CHECK_SIG_STATUS}, reports the first
     * signature error since the last check in {@code status} ({@link MrStatus#failStatus}) and
     * clears it. Returns 0, {@code -EINVAL} for an unknown check bit or an MR without signature
     * support, {@code -EOPNOTSUPP} when the device cannot check. Never allocates.
     */
    default int checkMrStatus(int checkMask, MrStatus status) {
        return -Errno.EOPNOTSUPP.value;
    }

    /**
     * {@code mr->need_inval}: the MR's last registration may still be valid, so its next user
     * must post a {@link WrOpcode#LOCAL_INV} first ({@code rdma_rw}'s bookkeeping).
     */
    default boolean needInval() {
        return false;
    }

    /** Sets {@code mr->need_inval}. */
    default void setNeedInval(boolean needInval) {
        throw new RdmaException(Errno.EOPNOTSUPP, "need_inval is not tracked by this MR");
    }

    /** {@code ib_dereg_mr()}: EBUSY while memory windows are bound to it. */
    void dereg();

    /** {@code ib_inc_rkey()}: the key with its low 8 bits incremented. */
    static int incRkey(int rkey) {
        return (rkey & 0xffffff00) | ((rkey + 1) & 0xff);
    }
}
