package org.rdma.verbs;

/** Bits of {@code ib_port_attr.port_cap_flags} (IBTA PortInfo:CapabilityMask, {@code enum ib_port_capability_mask_bits}). */
public final class PortCapFlags {
    private PortCapFlags() {
    }

    /** {@code IB_PORT_SM}. */
    public static final int SM = 1 << 1;
    /** {@code IB_PORT_NOTICE_SUP}. */
    public static final int NOTICE_SUP = 1 << 2;
    /** {@code IB_PORT_TRAP_SUP}. */
    public static final int TRAP_SUP = 1 << 3;
    /** {@code IB_PORT_OPT_IPD_SUP}. */
    public static final int OPT_IPD_SUP = 1 << 4;
    /** {@code IB_PORT_AUTO_MIGR_SUP}. */
    public static final int AUTO_MIGR_SUP = 1 << 5;
    /** {@code IB_PORT_SL_MAP_SUP}. */
    public static final int SL_MAP_SUP = 1 << 6;
    /** {@code IB_PORT_MKEY_NVRAM}. */
    public static final int MKEY_NVRAM = 1 << 7;
    /** {@code IB_PORT_PKEY_NVRAM}. */
    public static final int PKEY_NVRAM = 1 << 8;
    /** {@code IB_PORT_LED_INFO_SUP}. */
    public static final int LED_INFO_SUP = 1 << 9;
    /** {@code IB_PORT_SM_DISABLED}. */
    public static final int SM_DISABLED = 1 << 10;
    /** {@code IB_PORT_SYS_IMAGE_GUID_SUP}. */
    public static final int SYS_IMAGE_GUID_SUP = 1 << 11;
    /** {@code IB_PORT_PKEY_SW_EXT_PORT_TRAP_SUP}. */
    public static final int PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12;
    /** {@code IB_PORT_EXTENDED_SPEEDS_SUP}. */
    public static final int EXTENDED_SPEEDS_SUP = 1 << 14;
    /** {@code IB_PORT_CAP_MASK2_SUP}. */
    public static final int CAP_MASK2_SUP = 1 << 15;
    /** {@code IB_PORT_CM_SUP}. */
    public static final int CM_SUP = 1 << 16;
    /** {@code IB_PORT_SNMP_TUNNEL_SUP}. */
    public static final int SNMP_TUNNEL_SUP = 1 << 17;
    /** {@code IB_PORT_REINIT_SUP}. */
    public static final int REINIT_SUP = 1 << 18;
    /** {@code IB_PORT_DEVICE_MGMT_SUP}. */
    public static final int DEVICE_MGMT_SUP = 1 << 19;
    /** {@code IB_PORT_VENDOR_CLASS_SUP}. */
    public static final int VENDOR_CLASS_SUP = 1 << 20;
    /** {@code IB_PORT_DR_NOTICE_SUP}. */
    public static final int DR_NOTICE_SUP = 1 << 21;
    /** {@code IB_PORT_CAP_MASK_NOTICE_SUP}. */
    public static final int CAP_MASK_NOTICE_SUP = 1 << 22;
    /** {@code IB_PORT_BOOT_MGMT_SUP}. */
    public static final int BOOT_MGMT_SUP = 1 << 23;
    /** {@code IB_PORT_LINK_LATENCY_SUP}. */
    public static final int LINK_LATENCY_SUP = 1 << 24;
    /** {@code IB_PORT_CLIENT_REG_SUP}. */
    public static final int CLIENT_REG_SUP = 1 << 25;
    /** Also {@code IB_PORT_IP_BASED_GIDS} for RoCE ports. */
    public static final int OTHER_LOCAL_CHANGES_SUP = 1 << 26;
    /** {@code IB_PORT_IP_BASED_GIDS}. */
    public static final int IP_BASED_GIDS = 1 << 26;
    /** {@code IB_PORT_LINK_SPEED_WIDTH_TABLE_SUP}. */
    public static final int LINK_SPEED_WIDTH_TABLE_SUP = 1 << 27;
    /** {@code IB_PORT_VENDOR_SPECIFIC_MADS_TABLE_SUP}. */
    public static final int VENDOR_SPECIFIC_MADS_TABLE_SUP = 1 << 28;
    /** {@code IB_PORT_MCAST_PKEY_TRAP_SUPPRESSION_SUP}. */
    public static final int MCAST_PKEY_TRAP_SUPPRESSION_SUP = 1 << 29;
    /** {@code IB_PORT_MCAST_FDB_TOP_SUP}. */
    public static final int MCAST_FDB_TOP_SUP = 1 << 30;
    /** {@code IB_PORT_HIERARCHY_INFO_SUP}. */
    public static final int HIERARCHY_INFO_SUP = 1 << 31;
}
