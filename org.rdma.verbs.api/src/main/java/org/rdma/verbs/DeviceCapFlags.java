package org.rdma.verbs;

/**
 * Bits of {@code ib_device_attr.device_cap_flags} ({@code enum ib_device_cap_flags}) and of
 * {@code ib_device_attr.kernel_cap_flags} ({@code enum ib_kernel_cap_flags}).
 */
public final class DeviceCapFlags {
    private DeviceCapFlags() {
    }

    /** {@code IB_DEVICE_RESIZE_MAX_WR}. */
    public static final long RESIZE_MAX_WR = 1L << 0;
    /** {@code IB_DEVICE_BAD_PKEY_CNTR}. */
    public static final long BAD_PKEY_CNTR = 1L << 1;
    /** {@code IB_DEVICE_BAD_QKEY_CNTR}. */
    public static final long BAD_QKEY_CNTR = 1L << 2;
    /** {@code IB_DEVICE_RAW_MULTI}. */
    public static final long RAW_MULTI = 1L << 3;
    /** {@code IB_DEVICE_AUTO_PATH_MIG}. */
    public static final long AUTO_PATH_MIG = 1L << 4;
    /** {@code IB_DEVICE_CHANGE_PHY_PORT}. */
    public static final long CHANGE_PHY_PORT = 1L << 5;
    /** {@code IB_DEVICE_UD_AV_PORT_ENFORCE}. */
    public static final long UD_AV_PORT_ENFORCE = 1L << 6;
    /** {@code IB_DEVICE_CURR_QP_STATE_MOD}. */
    public static final long CURR_QP_STATE_MOD = 1L << 7;
    /** {@code IB_DEVICE_SHUTDOWN_PORT}. */
    public static final long SHUTDOWN_PORT = 1L << 8;
    /** {@code IB_DEVICE_PORT_ACTIVE_EVENT}. */
    public static final long PORT_ACTIVE_EVENT = 1L << 10;
    /** {@code IB_DEVICE_SYS_IMAGE_GUID}. */
    public static final long SYS_IMAGE_GUID = 1L << 11;
    /** {@code IB_DEVICE_RC_RNR_NAK_GEN}. */
    public static final long RC_RNR_NAK_GEN = 1L << 12;
    /** {@code IB_DEVICE_SRQ_RESIZE}. */
    public static final long SRQ_RESIZE = 1L << 13;
    /** {@code IB_DEVICE_N_NOTIFY_CQ}. */
    public static final long N_NOTIFY_CQ = 1L << 14;
    /** {@code IB_DEVICE_MEM_WINDOW}. */
    public static final long MEM_WINDOW = 1L << 17;
    /** {@code IB_DEVICE_UD_IP_CSUM}. */
    public static final long UD_IP_CSUM = 1L << 18;
    /** {@code IB_DEVICE_XRC}. */
    public static final long XRC = 1L << 20;
    /** Base memory management extensions: fast register, local invalidate, send with invalidate. */
    public static final long MEM_MGT_EXTENSIONS = 1L << 21;
    /** {@code IB_DEVICE_MEM_WINDOW_TYPE_2A}. */
    public static final long MEM_WINDOW_TYPE_2A = 1L << 23;
    /** {@code IB_DEVICE_MEM_WINDOW_TYPE_2B}. */
    public static final long MEM_WINDOW_TYPE_2B = 1L << 24;
    /** {@code IB_DEVICE_RC_IP_CSUM}. */
    public static final long RC_IP_CSUM = 1L << 25;
    /** {@code IB_DEVICE_RAW_IP_CSUM}. */
    public static final long RAW_IP_CSUM = 1L << 26;
    /** {@code IB_DEVICE_MANAGED_FLOW_STEERING}. */
    public static final long MANAGED_FLOW_STEERING = 1L << 29;
    /** {@code IB_DEVICE_RAW_SCATTER_FCS}. */
    public static final long RAW_SCATTER_FCS = 1L << 34;
    /** {@code IB_DEVICE_PCI_WRITE_END_PADDING}. */
    public static final long PCI_WRITE_END_PADDING = 1L << 36;

    /** {@code IBK_LOCAL_DMA_LKEY}: the PD's {@code local_dma_lkey} is a device-wide key. */
    public static final int IBK_LOCAL_DMA_LKEY = 1 << 0;
    /** {@code IBK_INTEGRITY_HANDOVER}: INTEGRITY MRs ({@code ib_alloc_mr_integrity}). */
    public static final int IBK_INTEGRITY_HANDOVER = 1 << 1;
    /** {@code IBK_ON_DEMAND_PAGING}. */
    public static final int IBK_ON_DEMAND_PAGING = 1 << 2;
    /** {@code IBK_SG_GAPS_REG}: {@link MrType#SG_GAPS} MRs. */
    public static final int IBK_SG_GAPS_REG = 1 << 3;
    /** {@code IBK_ALLOW_USER_UNREG}. */
    public static final int IBK_ALLOW_USER_UNREG = 1 << 4;
    /** {@code IBK_BLOCK_MULTICAST_LOOPBACK}. */
    public static final int IBK_BLOCK_MULTICAST_LOOPBACK = 1 << 5;
    /** {@code IBK_UD_TSO}. */
    public static final int IBK_UD_TSO = 1 << 6;
    /** {@code IBK_VIRTUAL_FUNCTION}. */
    public static final int IBK_VIRTUAL_FUNCTION = 1 << 7;
    /** {@code IBK_RDMA_NETDEV_OPA}. */
    public static final int IBK_RDMA_NETDEV_OPA = 1 << 8;
}
