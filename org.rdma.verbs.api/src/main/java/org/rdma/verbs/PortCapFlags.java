package org.rdma.verbs;

/** Bits of {@code ib_port_attr.port_cap_flags} (IBTA PortInfo:CapabilityMask, {@code enum ib_port_capability_mask_bits}). */
public final class PortCapFlags {
    private PortCapFlags() {
    }

    public static final int SM = 1 << 1;
    public static final int NOTICE_SUP = 1 << 2;
    public static final int TRAP_SUP = 1 << 3;
    public static final int OPT_IPD_SUP = 1 << 4;
    public static final int AUTO_MIGR_SUP = 1 << 5;
    public static final int SL_MAP_SUP = 1 << 6;
    public static final int MKEY_NVRAM = 1 << 7;
    public static final int PKEY_NVRAM = 1 << 8;
    public static final int LED_INFO_SUP = 1 << 9;
    public static final int SM_DISABLED = 1 << 10;
    public static final int SYS_IMAGE_GUID_SUP = 1 << 11;
    public static final int PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12;
    public static final int EXTENDED_SPEEDS_SUP = 1 << 14;
    public static final int CAP_MASK2_SUP = 1 << 15;
    public static final int CM_SUP = 1 << 16;
    public static final int SNMP_TUNNEL_SUP = 1 << 17;
    public static final int REINIT_SUP = 1 << 18;
    public static final int DEVICE_MGMT_SUP = 1 << 19;
    public static final int VENDOR_CLASS_SUP = 1 << 20;
    public static final int DR_NOTICE_SUP = 1 << 21;
    public static final int CAP_MASK_NOTICE_SUP = 1 << 22;
    public static final int BOOT_MGMT_SUP = 1 << 23;
    public static final int LINK_LATENCY_SUP = 1 << 24;
    public static final int CLIENT_REG_SUP = 1 << 25;
    /** Also {@code IB_PORT_IP_BASED_GIDS} for RoCE ports. */
    public static final int OTHER_LOCAL_CHANGES_SUP = 1 << 26;
    public static final int IP_BASED_GIDS = 1 << 26;
    public static final int LINK_SPEED_WIDTH_TABLE_SUP = 1 << 27;
    public static final int VENDOR_SPECIFIC_MADS_TABLE_SUP = 1 << 28;
    public static final int MCAST_PKEY_TRAP_SUPPRESSION_SUP = 1 << 29;
    public static final int MCAST_FDB_TOP_SUP = 1 << 30;
    public static final int HIERARCHY_INFO_SUP = 1 << 31;
}
