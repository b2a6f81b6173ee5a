package org.rdma.verbs.rw;

import org.rdma.verbs.IbMr;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.Sge;

/**
 * One READ/WRITE transfer: {@code struct rdma_rw_ctx}. The caller owns it (the kernel embeds it
 * in the ULP's command) and hands it to {@link RdmaRw}, which fills it; re-initialising a
 * destroyed context reuses its work requests and SGEs, so a warm context allocates nothing.
 * The fields belong to the {@link RdmaRw} implementation; consumers only read {@link #nrOps}.
 */
public final class RdmaRwCtx {
    /** {@code RDMA_RW_SINGLE_WR}: one RDMA READ/WRITE with one SGE. */
    public static final int SINGLE_WR = 0;
    /** {@code RDMA_RW_MULTI_WR}: READs/WRITEs over the local DMA lkey, split by the QP's SGE limit. */
    public static final int MULTI_WR = 1;
    /** {@code RDMA_RW_MR}: per MR, [LOCAL_INV,] REG_MR and one READ/WRITE. */
    public static final int MR = 2;
    /** {@code RDMA_RW_SIG_MR}: [LOCAL_INV,] REG_MR_INTEGRITY and one READ/WRITE through a signature MR. */
    public static final int SIG_MR = 3;
    /** No transfer: never initialised, or destroyed. */
    public static final int NONE = -1;

    /** {@code nr_ops}: RDMA READ/WRITE operations (MRs for {@link #MR}). */
    public int nrOps;
    /** {@code type}: one of the constants above. */
    public int type = NONE;
    /** {@code single.wr} / {@code map.wrs}: the first {@link #nrOps} are in use, each with its own SGEs. */
    public SendWr[] wrs = new SendWr[0];
    /** {@code reg}: the first {@link #nrOps} are in use ({@link #MR}, {@link #SIG_MR}). */
    public RegCtx[] reg = new RegCtx[0];
    /** Scratch: the elements one MR maps (the kernel passes a pointer into the list instead). */
    public SgEntry[] sgWindow = new SgEntry[0];
    /** Scratch: the offset into the first element that {@code ib_map_mr_sg()} reads and updates. */
    public final int[] sgOffset = new int[1];

    /** One registration: {@code struct rdma_rw_reg_ctx}. */
    public static final class RegCtx {
        /** {@code sge}: the registered range, as the RDMA operation's only SGE. */
        public final Sge sge = new Sge();
        /** {@link #sge} as the {@code sg_list} of {@link #wr}. */
        public final Sge[] sgeList = {sge};
        /** {@code wr}: the RDMA READ or WRITE. */
        public final SendWr wr = new SendWr();
        /** {@code reg_wr}: {@code IB_WR_REG_MR} or {@code IB_WR_REG_MR_INTEGRITY}. */
        public final SendWr regWr = new SendWr();
        /** {@code inv_wr}: the {@code IB_WR_LOCAL_INV} of the MR's previous registration. */
        public final SendWr invWr = new SendWr();
        /** {@code mr}: taken from the QP's pool. */
        public IbMr mr;
        /** Whether {@link #invWr} heads this registration's chain ({@code inv_wr.next} set). */
        public boolean inv;
    }
}
