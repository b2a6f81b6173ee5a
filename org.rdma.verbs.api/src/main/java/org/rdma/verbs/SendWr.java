package org.rdma.verbs;

/**
 * A send-queue work request: {@code struct ib_send_wr} together with the members of its
 * extensions {@code ib_rdma_wr}, {@code ib_atomic_wr}, {@code ib_ud_wr} and {@code ib_reg_wr}.
 * Reusable: the datapath never allocates one per operation. Requests chain through {@link #next}.
 */
public final class SendWr {
    /** {@code next}. */
    public SendWr next;
    /** {@code wr_id}, returned in the completion. */
    public long wrId;
    /** {@code wr_cqe}: when set, the completion is delivered to it (and {@link #wrId} is ignored). */
    public IbCqe wrCqe;
    /** {@code sg_list}. */
    public Sge[] sgList = new Sge[0];
    /** {@code num_sge}. */
    public int numSge;
    /** {@code opcode}. */
    public WrOpcode opcode = WrOpcode.SEND;
    /** {@code send_flags}: {@link SendFlags} bits. */
    public int sendFlags;
    /** {@code ex.imm_data} (network order value). */
    public int immData;
    /** {@code ex.invalidate_rkey}. */
    public int invalidateRkey;

    /** {@code ib_rdma_wr.remote_addr} and {@code ib_atomic_wr.remote_addr}. */
    public long remoteAddr;
    /** {@code ib_rdma_wr.rkey} and {@code ib_atomic_wr.rkey}. */
    public int rkey;

    /** {@code ib_atomic_wr.compare_add}. */
    public long compareAdd;
    /** {@code ib_atomic_wr.swap}. */
    public long swap;
    /** {@code ib_atomic_wr.compare_add_mask}. */
    public long compareAddMask;
    /** {@code ib_atomic_wr.swap_mask}. */
    public long swapMask;

    /** {@code ib_ud_wr.ah}. */
    public IbAh ah;
    /** {@code ib_ud_wr.remote_qpn}. */
    public int remoteQpn;
    /** {@code ib_ud_wr.remote_qkey}. */
    public int remoteQkey;
    /** {@code ib_ud_wr.pkey_index} (GSI only). */
    public int pkeyIndex;
    /** {@code ib_ud_wr.port_num} (SMI only). */
    public int portNum;

    /**
     * {@code ib_reg_wr.mr}. For {@link WrOpcode#REG_MR_INTEGRITY} the registration applies the
     * MR's {@link IbMr#sigAttrs()} (the kernel keeps them in {@code mr->sig_attrs}, not in the
     * work request) and the request carries no SGEs.
     */
    public IbMr mr;
    /** {@code ib_reg_wr.key}: the key the MR takes when the registration executes. */
    public int key;
    /** {@code ib_reg_wr.access}. */
    public int access;

    /** Sets the scatter/gather list and {@link #numSge}. */
    public SendWr sg(Sge... sges) {
        this.sgList = sges;
        this.numSge = sges.length;
        return this;
    }

    /** Total bytes of the first {@link #numSge} elements. */
    public long totalLength() {
        long n = 0;
        for (int i = 0; i < numSge; i++) {
            n += sgList[i].length & 0xffff_ffffL;
        }
        return n;
    }

    /** Whether {@code flag} is set in {@link #sendFlags}. */
    public boolean hasFlag(int flag) {
        return (sendFlags & flag) != 0;
    }
}
