package org.rdma.hca.mlx4sim.internal;

import org.rdma.rvt.RvtDevice;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;

/**
 * What a ConnectX-3 tells the driver about itself: the PCI identity, the firmware version and the
 * device limits {@code mlx4_ib_query_device()} (drivers/infiniband/hw/mlx4/main.c) derives from
 * {@code QUERY_DEV_CAP}/{@code QUERY_FW}, applied to rvt's defaults.
 */
final class Mlx4Identity {
    /** {@code PCI_VENDOR_ID_MELLANOX}: NodeInfo:VendorID / {@code vendor_id}. */
    static final int VENDOR_ID = 0x02c9;
    /** ConnectX-3 (MT27500, device 4099): NodeInfo:DeviceID / {@code vendor_part_id}. */
    static final int VENDOR_PART_ID = 0x1003;
    /** {@code hw_ver}: the PCI revision NodeInfo:Revision carries. */
    static final int HW_VER = 0x1;
    /** The firmware 2.42.5000, encoded as {@code mlx4_QUERY_FW()} stores {@code fw_ver}. */
    static final long FW_VER = fwVer(2, 42, 5000);
    /** {@code dev->caps.reserved_lkey}: the firmware's reserved L_Key, mlx4's {@code local_dma_lkey}. */
    static final int RESERVED_LKEY = 0x100;
    /** {@code MLX4_MAX_FAST_REG_PAGES}. */
    static final int MAX_FAST_REG_PAGES = 511;
    /** P_Key table length per port ({@code dev->caps.pkey_table_len}). */
    static final int PKEY_TABLE_LEN = 128;
    /** GID table length of an InfiniBand port ({@code dev->caps.gid_table_len}). */
    static final int IB_GID_TABLE_LEN = 128;
    /** GID table length of a RoCE port ({@code MLX4_ROCE_MAX_GIDS}). */
    static final int ROCE_GID_TABLE_LEN = 128;
    /** PortInfo:CapabilityMask of an IB port as ConnectX-3 firmware reports it (ibstat's 0x02514868). */
    static final int IB_PORT_CAP_MASK = 0x02514868;

    private Mlx4Identity() {
    }

    /**
     * Encodes a firmware version as mlx4 does ({@code (major << 32) | (minor << 16) | subminor},
     * {@code mlx4_QUERY_FW()} in drivers/net/ethernet/mellanox/mlx4/fw.c).
     */
    static long fwVer(int major, int minor, int subminor) {
        return ((long) major << 32) | ((long) minor << 16) | subminor;
    }

    /** Formats an mlx4 firmware version as {@code ibv_devinfo} prints it ("2.42.5000"). */
    static String fwString(long fw) {
        return (fw >>> 32) + "." + ((fw >>> 16) & 0xffff) + "." + (fw & 0xffff);
    }

    /**
     * The device attributes of {@code mlx4_ib_query_device()}: rvt's defaults adjusted to
     * ConnectX-3 limits, with the base memory management extensions
     * ({@code IB_DEVICE_MEM_MGT_EXTENSIONS}), memory windows type 1 and 2B and the reserved local
     * DMA L_Key ({@code IBK_LOCAL_DMA_LKEY}).
     */
    static DeviceAttr deviceAttr(long sysImageGuid) {
        DeviceAttr a = RvtDevice.defaultAttr();
        a.fwVer = FW_VER;
        a.sysImageGuid = sysImageGuid;
        a.vendorId = VENDOR_ID;
        a.vendorPartId = VENDOR_PART_ID;
        a.hwVer = HW_VER;
        a.maxMrSize = -1L >>> 1;
        a.pageSizeCap = 0xfffffe00L;
        a.maxQp = 1 << 17;
        a.maxQpWr = 16351;
        a.deviceCapFlags = DeviceCapFlags.BAD_PKEY_CNTR | DeviceCapFlags.BAD_QKEY_CNTR
                | DeviceCapFlags.CHANGE_PHY_PORT | DeviceCapFlags.PORT_ACTIVE_EVENT
                | DeviceCapFlags.SYS_IMAGE_GUID | DeviceCapFlags.RC_RNR_NAK_GEN
                | DeviceCapFlags.UD_AV_PORT_ENFORCE | DeviceCapFlags.SRQ_RESIZE
                | DeviceCapFlags.MEM_MGT_EXTENSIONS | DeviceCapFlags.MEM_WINDOW
                | DeviceCapFlags.MEM_WINDOW_TYPE_2B | DeviceCapFlags.UD_IP_CSUM
                | DeviceCapFlags.AUTO_PATH_MIG;
        a.kernelCapFlags = DeviceCapFlags.IBK_LOCAL_DMA_LKEY | DeviceCapFlags.IBK_SG_GAPS_REG;
        a.maxSendSge = 32;
        a.maxRecvSge = 32;
        a.maxSgeRd = 30;
        a.maxCq = 65408;
        a.maxCqe = 4194303;
        a.maxMr = 524032;
        a.maxPd = 32764;
        a.maxQpRdAtom = 16;
        a.maxResRdAtom = 16 << 17;
        a.maxQpInitRdAtom = 128;
        a.atomicCap = 1;
        a.maxMw = 4096;
        a.maxMcastGrp = 131072;
        a.maxMcastQpAttach = 244;
        a.maxTotalMcastQpAttach = 131072 * 244;
        a.maxAh = Integer.MAX_VALUE;
        a.maxSrq = 65472;
        a.maxSrqWr = 16383;
        a.maxSrqSge = 31;
        a.maxFastRegPageListLen = MAX_FAST_REG_PAGES;
        a.maxPkeys = PKEY_TABLE_LEN;
        a.localCaAckDelay = 15;
        a.maxInlineData = 912;
        a.numCompVectors = 1;
        return a;
    }
}
