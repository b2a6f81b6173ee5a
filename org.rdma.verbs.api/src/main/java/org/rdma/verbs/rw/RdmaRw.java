package org.rdma.verbs.rw;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;

/**
 * The RDMA READ/WRITE service of the core ({@code rdma_rw_*}). Scatter/gather lists are
 * DMA-mapped already ({@link org.rdma.verbs.IbDevice#dmaMapSingle}); the QP must be one of the
 * core's, created with {@code cap.max_rdma_ctxs} so that its send queue and MR pools have room.
 * Per-I/O calls return counts or a negative errno ({@code -EAGAIN} when the QP's MR pool is
 * empty: retry once a context was destroyed), as the kernel's do; none of them blocks.
 */
@ProviderType
public interface RdmaRw {
    /**
     * {@code rdma_rw_ctx_init()}: prepares the transfer of {@code sg[0..sgCnt)} (from
     * {@code sgOffset} bytes into the list) to ({@link DmaDataDirection#TO_DEVICE}, RDMA WRITE) or
     * from ({@link DmaDataDirection#FROM_DEVICE}, RDMA READ) {@code remoteAddr} under {@code rkey}.
     * Uses MRs from {@link IbQp#rdmaMrs()} when the device needs them for the direction
     * (iWARP READs, more elements than {@code max_sgl_rd}) or they are forced; else one WR per
     * {@code max_write_sge}/{@code max_read_sge} elements over the PD's local DMA lkey.
     *
     * @return the number of work requests the transfer posts, or a negative errno
     *     ({@code -EAGAIN}: no free MR; {@code -EINVAL}: bad list, or an MR could not map it;
     *     {@code -EIO}: the offset is beyond the list)
     */
    int rwCtxInit(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, int sgOffset, long remoteAddr,
            int rkey, DmaDataDirection dir);

    /**
     * {@code rdma_rw_ctx_signature_init()}: as {@link #rwCtxInit}, through a signature MR from
     * {@link IbQp#sigMrs()} that maps the data list {@code sg} and the protection list
     * {@code protSg} (may be empty) with {@code sigAttrs} (copied): the device converts between the
     * memory and wire domains and checks the protection information; check the outcome with
     * {@link org.rdma.verbs.IbMr#checkMrStatus} on {@code ctx.reg[0].mr} after the completion.
     *
     * @return the number of work requests, or a negative errno ({@code -EINVAL}: more elements
     *     than one MR maps, or a QP without integrity; {@code -EAGAIN}: no free signature MR)
     */
    int rwCtxSignatureInit(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, SgEntry[] protSg,
            int protSgCnt, SigAttrs sigAttrs, long remoteAddr, int rkey, DmaDataDirection dir);

    /**
     * {@code rdma_rw_ctx_wrs()}: gives each MR its next key and returns the first work request of
     * the transfer; the last one is followed by {@code chainWr} or, if that is null, is signaled
     * with {@code cqe}.
     */
    SendWr rwCtxWrs(RdmaRwCtx ctx, IbQp qp, int portNum, IbCqe cqe, SendWr chainWr);

    /** {@code rdma_rw_ctx_post()}: {@link #rwCtxWrs} and {@code ib_post_send()}; 0 or a negative errno. */
    int rwCtxPost(RdmaRwCtx ctx, IbQp qp, int portNum, IbCqe cqe, SendWr chainWr);

    /** {@code rdma_rw_ctx_destroy()}: returns the context's MRs to the QP's pool; the context may be reused. */
    void rwCtxDestroy(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, DmaDataDirection dir);

    /** {@code rdma_rw_ctx_destroy_signature()}: as {@link #rwCtxDestroy} for a signature context. */
    void rwCtxDestroySignature(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, SgEntry[] protSg,
            int protSgCnt, DmaDataDirection dir);

    /**
     * {@code rdma_rw_mr_factor()}: how many MRs (or, without MRs, READ work requests) a transfer
     * of {@code maxPages} pages needs, for sizing {@code max_rdma_ctxs}.
     */
    int rwMrFactor(IbDevice device, int portNum, int maxPages);

    /**
     * {@code rdma_rw_init_qp()}: grows {@code attr.cap.max_send_wr} by what
     * {@code cap.max_rdma_ctxs} contexts post (capped by the device's {@code max_qp_wr}). The core's
     * {@code ib_create_qp()} calls it.
     */
    void rwInitQp(IbDevice device, QpInitAttr attr);

    /**
     * {@code rdma_rw_init_mrs()}: fills the QP's MR pools for {@code cap.max_rdma_ctxs} contexts.
     * The core's {@code ib_create_qp()} calls it; throws the allocation error.
     */
    void rwInitMrs(IbQp qp, QpInitAttr attr);

    /** {@code rdma_rw_cleanup_mrs()}: destroys the QP's MR pools; {@code ib_destroy_qp()} calls it. */
    void rwCleanupMrs(IbQp qp);
}
