package org.rdma.verbs;

import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ProviderType;

/** A protection domain: {@code struct ib_pd}. Objects created on it belong to it. */
@ProviderType
public interface IbPd {
    /** {@code IB_PD_UNSAFE_GLOBAL_RKEY}: also expose a remote key for all DMA memory. */
    int UNSAFE_GLOBAL_RKEY = 1;

    /** {@code pd->device}. */
    IbDevice device();

    /** {@code pd->local_dma_lkey}: an lkey covering every address from {@link IbDevice#dmaMapSingle}. */
    int localDmaLkey();

    /** {@code pd->unsafe_global_rkey}, or 0 unless allocated with {@link #UNSAFE_GLOBAL_RKEY}. */
    int unsafeGlobalRkey();

    /** The owner recorded for {@code rdma res} (the allocating bundle). */
    String owner();

    /** {@code rdma_create_ah()}: an address handle; the attribute's SGID reference is copied. */
    IbAh createAh(AhAttr attr, int flags);

    /** {@code ib_create_qp()}: a QP; {@code init.cap} is updated with the actual sizes. */
    IbQp createQp(QpInitAttr init);

    /** {@code ib_create_srq()}. */
    IbSrq createSrq(SrqInitAttr init);

    /** {@code ib_create_wq()}. */
    IbWq createWq(WqInitAttr init);

    /**
     * {@code ib_reg_user_mr()}: registers {@code buffer} (position to limit) at IOVA {@code iova}
     * with {@link AccessFlags}.
     */
    IbMr regMr(ByteBuffer buffer, long iova, int access);

    /** {@code ib_get_dma_mr()}: an MR over the whole DMA address space. */
    IbMr getDmaMr(int access);

    /**
     * {@code ib_alloc_mr()}: an MR for fast registration ({@link MrType#MEM_REG} or
     * {@link MrType#SG_GAPS}) with room for {@code maxNumSg} pages.
     */
    IbMr allocMr(MrType type, int maxNumSg);

    /** {@code ib_alloc_mr_integrity()}: an {@link MrType#INTEGRITY} MR for data and T10-PI metadata. */
    IbMr allocMrIntegrity(int maxNumDataSg, int maxNumMetaSg);

    /** {@code ib_alloc_mw()} (as {@code rdma_alloc_mw}): a memory window. */
    IbMw allocMw(MwType type);

    /** {@code ib_dealloc_pd()}: EBUSY while objects still use the PD. */
    void dealloc();
}
