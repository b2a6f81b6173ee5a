package org.rdma.verbs;

/** A receive work request: {@code struct ib_recv_wr}. Reusable; chains through {@link #next}. */
public final class RecvWr {
    /** {@code next}. */
    public RecvWr next;
    /** {@code wr_id}. */
    public long wrId;
    /** {@code wr_cqe}. */
    public IbCqe wrCqe;
    /** {@code sg_list}. */
    public Sge[] sgList = new Sge[0];
    /** {@code num_sge}. */
    public int numSge;

    /** Sets the scatter/gather list and {@link #numSge}. */
    public RecvWr sg(Sge... sges) {
        this.sgList = sges;
        this.numSge = sges.length;
        return this;
    }
}
