package org.rdma.verbs;

/** Mirrors {@code enum ib_mr_type} ({@code ib_alloc_mr()}). */
public enum MrType {
    /** {@code IB_MR_TYPE_MEM_REG}: fast registration of page lists. */
    MEM_REG,
    /** {@code IB_MR_TYPE_SG_GAPS}: registration of arbitrary SG lists with gaps. */
    SG_GAPS,
    /** {@code IB_MR_TYPE_DM}: device memory. */
    DM,
    /** {@code IB_MR_TYPE_USER}: memory registered by {@code ib_reg_user_mr()}. */
    USER,
    /** {@code IB_MR_TYPE_DMA}: the whole DMA space ({@code ib_get_dma_mr()}). */
    DMA,
    /** {@code IB_MR_TYPE_INTEGRITY}: data plus T10-PI metadata ({@code ib_alloc_mr_integrity()}). */
    INTEGRITY
}
