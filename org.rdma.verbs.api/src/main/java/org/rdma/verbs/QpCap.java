package org.rdma.verbs;

/** Queue sizes: {@code struct ib_qp_cap}. The driver writes back what it actually allocated. */
public final class QpCap {
    /** {@code max_send_wr}. */
    public int maxSendWr;
    /** {@code max_recv_wr}. */
    public int maxRecvWr;
    /** {@code max_send_sge}. */
    public int maxSendSge;
    /** {@code max_recv_sge}. */
    public int maxRecvSge;
    /** {@code max_inline_data}. */
    public int maxInlineData;
    /** {@code max_rdma_ctxs}: R/W contexts the core reserves ({@code rdma_rw}). */
    public int maxRdmaCtxs;

    /** Copies every field from {@code src}. */
    public void copyFrom(QpCap src) {
        maxSendWr = src.maxSendWr;
        maxRecvWr = src.maxRecvWr;
        maxSendSge = src.maxSendSge;
        maxRecvSge = src.maxRecvSge;
        maxInlineData = src.maxInlineData;
        maxRdmaCtxs = src.maxRdmaCtxs;
    }
}
