package org.rdma.verbs;

/** Device capabilities: {@code struct ib_device_attr} ({@code ib_query_device()}, {@code device->attrs}). */
public final class DeviceAttr implements Cloneable {
    /** {@code fw_ver}. */
    public long fwVer;
    /** {@code sys_image_guid}. */
    public long sysImageGuid;
    /** {@code max_mr_size}. */
    public long maxMrSize;
    /** {@code page_size_cap}: bit mask of supported page sizes. */
    public long pageSizeCap;
    /** {@code vendor_id}. */
    public int vendorId;
    /** {@code vendor_part_id}. */
    public int vendorPartId;
    /** {@code hw_ver}. */
    public int hwVer;
    /** {@code max_qp}. */
    public int maxQp;
    /** {@code max_qp_wr}. */
    public int maxQpWr;
    /** {@code device_cap_flags}: {@link DeviceCapFlags} bits. */
    public long deviceCapFlags;
    /** {@code kernel_cap_flags}: {@code DeviceCapFlags.IBK_*} bits. */
    public int kernelCapFlags;
    /** {@code max_send_sge}. */
    public int maxSendSge;
    /** {@code max_recv_sge}. */
    public int maxRecvSge;
    /** {@code max_sge_rd}. */
    public int maxSgeRd;
    /**
     * {@code max_sgl_rd}: SGEs an RDMA READ may scatter into before registering memory is the
     * better choice ({@code rdma_rw} then uses MRs); 0 when the device has no such preference.
     */
    public int maxSglRd;
    /** {@code max_cq}. */
    public int maxCq;
    /** {@code max_cqe}. */
    public int maxCqe;
    /** {@code max_mr}. */
    public int maxMr;
    /** {@code max_pd}. */
    public int maxPd;
    /** {@code max_qp_rd_atom}. */
    public int maxQpRdAtom;
    /** {@code max_res_rd_atom}. */
    public int maxResRdAtom;
    /** {@code max_qp_init_rd_atom}. */
    public int maxQpInitRdAtom;
    /** {@code atomic_cap}: 0 none, 1 HCA, 2 global ({@code enum ib_atomic_cap}). */
    public int atomicCap;
    /** {@code max_mw}. */
    public int maxMw;
    /** {@code max_mcast_grp}. */
    public int maxMcastGrp;
    /** {@code max_mcast_qp_attach}. */
    public int maxMcastQpAttach;
    /** {@code max_total_mcast_qp_attach}. */
    public int maxTotalMcastQpAttach;
    /** {@code max_ah}. */
    public int maxAh;
    /** {@code max_srq}. */
    public int maxSrq;
    /** {@code max_srq_wr}. */
    public int maxSrqWr;
    /** {@code max_srq_sge}. */
    public int maxSrqSge;
    /** {@code max_fast_reg_page_list_len}. */
    public int maxFastRegPageListLen;
    /** {@code max_pi_fast_reg_page_list_len}. */
    public int maxPiFastRegPageListLen;
    /** {@code max_pkeys}. */
    public int maxPkeys;
    /** {@code local_ca_ack_delay}. */
    public int localCaAckDelay;
    /** {@code max_wq_type_rq}. */
    public int maxWqTypeRq;
    /** {@code max_inline_data} (rdma-core's {@code max_inline_data}). */
    public int maxInlineData;
    /** {@code num_comp_vectors} of {@code struct ib_device}. */
    public int numCompVectors = 1;

    /** Whether every bit of {@code flag} is in {@link #deviceCapFlags}. */
    public boolean has(long flag) {
        return (deviceCapFlags & flag) == flag;
    }

    /** A copy, so the core can hand out attributes that callers may change. */
    public DeviceAttr copy() {
        try {
            return (DeviceAttr) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    protected Object clone() throws CloneNotSupportedException {
        return super.clone();
    }
}
