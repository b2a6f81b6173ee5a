package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;
import org.rdma.verbs.PortState;

/**
 * The PortInfo SMP attribute (IBTA vol. 1, 14.2.5.6, table 146), attribute ID
 * {@link Smp#IB_SMP_ATTR_PORT_INFO}, 64 bytes; the attribute modifier is the port number.
 *
 * <p>Mirrors {@code struct ib_port_info} (include/rdma/ib_smi.h), with every packed sub-byte field
 * of the kernel struct ({@code linkspeed_portstate}, {@code mkeyprot_resv_lmc}, ...) split into its
 * own entry. Bit positions agree with libibmad's {@code ib_mad_f[]} (rdma-core libibmad/fields.c),
 * opensm's {@code ib_port_info_t} (include/iba/ib_types.h) and python-rdma's spec-derived
 * {@code SMPPortInfo} (codegen/iba_14.xml). Byte offsets, bit 0 being the most significant:
 *
 * <pre>
 *   0  M_Key(64)                        8  GIDPrefix(64)
 *  16  LID(16) | MasterSMLID(16)       20  CapabilityMask(32)
 *  24  DiagCode(16) | M_KeyLeasePeriod(16)
 *  28  LocalPortNum(8) | LinkWidthEnabled(8) | LinkWidthSupported(8) | LinkWidthActive(8)
 *  32  LinkSpeedSupported(4) PortState(4) | PortPhysicalState(4) LinkDownDefaultState(4)
 *      | M_KeyProtectBits(2) rsv(3) LMC(3) | LinkSpeedActive(4) LinkSpeedEnabled(4)
 *  36  NeighborMTU(4) MasterSMSL(4) | VLCap(4) InitType(4) | VLHighLimit(8) | VLArbitrationHighCap(8)
 *  40  VLArbitrationLowCap(8) | InitTypeReply(4) MTUCap(4) | VLStallCount(3) HOQLife(5)
 *      | OperationalVLs(4) PartitionEnforcementInbound(1) PartitionEnforcementOutbound(1)
 *        FilterRawInbound(1) FilterRawOutbound(1)
 *  44  M_KeyViolations(16) | P_KeyViolations(16)
 *  48  Q_KeyViolations(16) | GUIDCap(8) | ClientReregister(1) MulticastPKeyTrapSuppressionEnabled(2)
 *      SubnetTimeOut(5)
 *  52  rsv(3) RespTimeValue(5) | LocalPhyErrors(4) OverrunErrors(4) | MaxCreditHint(16)
 *  56  rsv(8) | LinkRoundTripLatency(24)
 *  60  CapabilityMask2(16) | LinkSpeedExtActive(4) LinkSpeedExtSupported(4) | rsv(3) LinkSpeedExtEnabled(5)
 * </pre>
 *
 * <p>The capability mask bits are in {@link org.rdma.verbs.PortCapFlags}.
 */
public final class PortInfo implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_PORT_INFO;
    /** Size on the wire. */
    public static final int BYTES = 64;

    /** PortState: no state change (Set only). */
    public static final int PORT_STATE_NOP = 0;
    /** PortState: Down. */
    public static final int PORT_STATE_DOWN = 1;
    /** PortState: Initialize. */
    public static final int PORT_STATE_INIT = 2;
    /** PortState: Armed. */
    public static final int PORT_STATE_ARMED = 3;
    /** PortState: Active. */
    public static final int PORT_STATE_ACTIVE = 4;

    /** PortPhysicalState: no state change (Set only). */
    public static final int PHYS_STATE_NOP = 0;
    /** PortPhysicalState: Sleep. */
    public static final int PHYS_STATE_SLEEP = 1;
    /** PortPhysicalState: Polling. */
    public static final int PHYS_STATE_POLLING = 2;
    /** PortPhysicalState: Disabled. */
    public static final int PHYS_STATE_DISABLED = 3;
    /** PortPhysicalState: PortConfigurationTraining. */
    public static final int PHYS_STATE_PORT_CONFIGURATION_TRAINING = 4;
    /** PortPhysicalState: LinkUp. */
    public static final int PHYS_STATE_LINK_UP = 5;
    /** PortPhysicalState: LinkErrorRecovery. */
    public static final int PHYS_STATE_LINK_ERROR_RECOVERY = 6;
    /** PortPhysicalState: Phy Test. */
    public static final int PHYS_STATE_PHY_TEST = 7;

    /** LinkWidth bit: 1x. */
    public static final int LINK_WIDTH_1X = 0x01;
    /** LinkWidth bit: 4x. */
    public static final int LINK_WIDTH_4X = 0x02;
    /** LinkWidth bit: 8x. */
    public static final int LINK_WIDTH_8X = 0x04;
    /** LinkWidth bit: 12x. */
    public static final int LINK_WIDTH_12X = 0x08;
    /** LinkWidth bit: 2x. */
    public static final int LINK_WIDTH_2X = 0x10;
    /** LinkWidthEnabled: set to LinkWidthSupported. */
    public static final int LINK_WIDTH_SET_TO_SUPPORTED = 0xFF;

    /** LinkSpeed bit: 2.5 Gb/s (SDR). */
    public static final int LINK_SPEED_SDR = 0x1;
    /** LinkSpeed bit: 5.0 Gb/s (DDR). */
    public static final int LINK_SPEED_DDR = 0x2;
    /** LinkSpeed bit: 10.0 Gb/s (QDR). */
    public static final int LINK_SPEED_QDR = 0x4;
    /** LinkSpeedEnabled: set to LinkSpeedSupported. */
    public static final int LINK_SPEED_SET_TO_SUPPORTED = 0xF;

    /** LinkSpeedExt bit: 14.0625 Gb/s (FDR). */
    public static final int LINK_SPEED_EXT_FDR = 0x1;
    /** LinkSpeedExt bit: 25.78125 Gb/s (EDR). */
    public static final int LINK_SPEED_EXT_EDR = 0x2;
    /** LinkSpeedExt bit: 53.125 Gb/s (HDR). */
    public static final int LINK_SPEED_EXT_HDR = 0x4;
    /** LinkSpeedExt bit: 106.25 Gb/s (NDR). */
    public static final int LINK_SPEED_EXT_NDR = 0x8;

    /** MTU encoding ({@code enum ib_mtu}): 256. */
    public static final int MTU_256 = 1;
    /** MTU encoding: 512. */
    public static final int MTU_512 = 2;
    /** MTU encoding: 1024. */
    public static final int MTU_1024 = 3;
    /** MTU encoding: 2048. */
    public static final int MTU_2048 = 4;
    /** MTU encoding: 4096. */
    public static final int MTU_4096 = 5;

    /** VLCap: VL0 only. */
    public static final int VL_CAP_VL0 = 1;
    /** VLCap: VL0-1. */
    public static final int VL_CAP_VL0_1 = 2;
    /** VLCap: VL0-3. */
    public static final int VL_CAP_VL0_3 = 3;
    /** VLCap: VL0-7. */
    public static final int VL_CAP_VL0_7 = 4;
    /** VLCap: VL0-14. */
    public static final int VL_CAP_VL0_14 = 5;

    /** CapabilityMask2 bit: IsSetNodeDescriptionSupported ({@code IB_PORT_SET_NODE_DESC_SUP}). */
    public static final int CAP2_SET_NODE_DESC_SUP = 1 << 0;
    /** CapabilityMask2 bit: IsPortInfoExtendedSupported ({@code IB_PORT_EX_PORT_INFO_EX_SUP}). */
    public static final int CAP2_PORT_INFO_EXT_SUP = 1 << 1;
    /** CapabilityMask2 bit: IsVirtualizationSupported ({@code IB_PORT_VIRT_SUP}). */
    public static final int CAP2_VIRT_SUP = 1 << 2;
    /** CapabilityMask2 bit: IsSwitchPortStateTableSupported. */
    public static final int CAP2_SWITCH_PORT_STATE_TABLE_SUP = 1 << 3;
    /** CapabilityMask2 bit: IsLinkWidth2xSupported ({@code IB_PORT_LINK_WIDTH_2X_SUP}). */
    public static final int CAP2_LINK_WIDTH_2X_SUP = 1 << 4;
    /** CapabilityMask2 bit: IsLinkSpeedHDRSupported ({@code IB_PORT_LINK_SPEED_HDR_SUP}). */
    public static final int CAP2_LINK_SPEED_HDR_SUP = 1 << 5;

    /** M_Key, 64 bits. */
    public long mkey;
    /** GID prefix (subnet prefix), 64 bits. */
    public long gidPrefix;
    /** Base LID, 16 bits. */
    public int lid;
    /** LID of the master SM, 16 bits. */
    public int masterSmLid;
    /** Capability mask, 32 bits ({@link org.rdma.verbs.PortCapFlags}). */
    public int capabilityMask;
    /** Diagnostic code, 16 bits. */
    public int diagCode;
    /** M_Key lease period in seconds, 16 bits. */
    public int mkeyLeasePeriod;
    /** The port the SMP was received on, 8 bits. */
    public int localPortNum;
    /** Enabled link widths, 8 bits ({@code LINK_WIDTH_*}). */
    public int linkWidthEnabled;
    /** Supported link widths, 8 bits. */
    public int linkWidthSupported;
    /** Active link width, 8 bits. */
    public int linkWidthActive;
    /** Supported link speeds, 4 bits ({@code LINK_SPEED_*}). */
    public int linkSpeedSupported;
    /** Port state, 4 bits ({@code PORT_STATE_*}). */
    public int portState;
    /** Port physical state, 4 bits ({@code PHYS_STATE_*}). */
    public int portPhysState;
    /** Link down default state, 4 bits: 0 no change, 1 sleep, 2 polling. */
    public int linkDownDefaultState;
    /** M_Key protection bits, 2 bits. */
    public int mkeyProtectBits;
    /** LID mask control, 3 bits. */
    public int lmc;
    /** Active link speed, 4 bits (0: see {@link #linkSpeedExtActive}). */
    public int linkSpeedActive;
    /** Enabled link speeds, 4 bits. */
    public int linkSpeedEnabled;
    /** Neighbor MTU, 4 bits ({@code MTU_*}). */
    public int neighborMtu;
    /** SL of the master SM, 4 bits. */
    public int masterSmSl;
    /** VL capability, 4 bits ({@code VL_CAP_*}). */
    public int vlCap;
    /** InitType, 4 bits. */
    public int initType;
    /** VL high limit, 8 bits. */
    public int vlHighLimit;
    /** VL arbitration high-priority table capacity, 8 bits. */
    public int vlArbHighCap;
    /** VL arbitration low-priority table capacity, 8 bits. */
    public int vlArbLowCap;
    /** InitTypeReply, 4 bits. */
    public int initTypeReply;
    /** MTU capability, 4 bits ({@code MTU_*}). */
    public int mtuCap;
    /** VL stall count, 3 bits. */
    public int vlStallCount;
    /** Head-of-queue life, 5 bits. */
    public int hoqLife;
    /** Operational VLs, 4 bits ({@code VL_CAP_*} encoding). */
    public int operationalVls;
    /** Partition enforcement inbound, 1 bit. */
    public boolean partitionEnforcementInbound;
    /** Partition enforcement outbound, 1 bit. */
    public boolean partitionEnforcementOutbound;
    /** Filter raw packets inbound, 1 bit. */
    public boolean filterRawInbound;
    /** Filter raw packets outbound, 1 bit. */
    public boolean filterRawOutbound;
    /** M_Key violations, 16 bits. */
    public int mkeyViolations;
    /** P_Key violations, 16 bits. */
    public int pkeyViolations;
    /** Q_Key violations, 16 bits. */
    public int qkeyViolations;
    /** Number of GUIDs supported, 8 bits. */
    public int guidCap;
    /** Client reregister, 1 bit. */
    public boolean clientReregister;
    /** Multicast P_Key trap suppression enabled, 2 bits. */
    public int mcastPkeyTrapSuppressionEnabled;
    /** Subnet timeout, 5 bits (4.096 us * 2^value). */
    public int subnetTimeout;
    /** Response time value, 5 bits. */
    public int respTimeValue;
    /** Local physical error threshold, 4 bits. */
    public int localPhyErrors;
    /** Overrun error threshold, 4 bits. */
    public int overrunErrors;
    /** Maximum credit hint, 16 bits. */
    public int maxCreditHint;
    /** Link round trip latency in ns, 24 bits. */
    public int linkRoundTripLatency;
    /** Capability mask 2, 16 bits ({@code CAP2_*}). */
    public int capabilityMask2;
    /** Active extended link speed, 4 bits ({@code LINK_SPEED_EXT_*}). */
    public int linkSpeedExtActive;
    /** Supported extended link speeds, 4 bits. */
    public int linkSpeedExtSupported;
    /** Enabled extended link speeds, 5 bits. */
    public int linkSpeedExtEnabled;

    /**
     * The {@code VL_CAP_*} encoding (VLCap, OperationalVLs) of {@code dataVls} data VLs: 1, 2, 4
     * and 8 exactly, anything else as VL0-14.
     */
    public static int vlCap(int dataVls) {
        switch (dataVls) {
            case 1:
                return VL_CAP_VL0;
            case 2:
                return VL_CAP_VL0_1;
            case 4:
                return VL_CAP_VL0_3;
            case 8:
                return VL_CAP_VL0_7;
            default:
                return VL_CAP_VL0_14;
        }
    }

    /** The data VLs a {@code VL_CAP_*} value stands for, or -1 for a reserved value (0 among them). */
    public static int dataVls(int vlCap) {
        switch (vlCap) {
            case VL_CAP_VL0:
                return 1;
            case VL_CAP_VL0_1:
                return 2;
            case VL_CAP_VL0_3:
                return 4;
            case VL_CAP_VL0_7:
                return 8;
            case VL_CAP_VL0_14:
                return 15;
            default:
                return -1;
        }
    }

    /**
     * Whether a SubnSet(PortInfo) may ask a port in {@code current} for PortState
     * {@code requested} (IBTA 14.2.5.6 and the state machine of 7.2): NOP and Down always, Armed
     * from Init or Armed, Active from Armed or Active; Init and the reserved values never. The
     * SMA refuses the whole Set otherwise (C14-24).
     */
    public static boolean portStateRequestValid(int requested, PortState current) {
        switch (requested) {
            case PORT_STATE_NOP:
            case PORT_STATE_DOWN:
                return true;
            case PORT_STATE_ARMED:
                return current == PortState.INIT || current == PortState.ARMED;
            case PORT_STATE_ACTIVE:
                return current == PortState.ARMED || current == PortState.ACTIVE;
            default:
                return false;
        }
    }

    /** The field table. */
    public static final List<IbField<PortInfo>> TABLE = List.of(
            IbField.of("port_info:mkey", 0, 0, 64, a -> a.mkey, (a, v) -> a.mkey = v),
            IbField.of("port_info:gid_prefix", 2, 0, 64, a -> a.gidPrefix, (a, v) -> a.gidPrefix = v),
            IbField.of("port_info:lid", 4, 0, 16, a -> a.lid, (a, v) -> a.lid = (int) v),
            IbField.of("port_info:sm_lid", 4, 16, 16, a -> a.masterSmLid, (a, v) -> a.masterSmLid = (int) v),
            IbField.of("port_info:cap_mask", 5, 0, 32,
                    a -> a.capabilityMask & 0xFFFF_FFFFL, (a, v) -> a.capabilityMask = (int) v),
            IbField.of("port_info:diag_code", 6, 0, 16, a -> a.diagCode, (a, v) -> a.diagCode = (int) v),
            IbField.of("port_info:mkey_lease_period", 6, 16, 16,
                    a -> a.mkeyLeasePeriod, (a, v) -> a.mkeyLeasePeriod = (int) v),
            IbField.of("port_info:local_port_num", 7, 0, 8, a -> a.localPortNum, (a, v) -> a.localPortNum = (int) v),
            IbField.of("port_info:link_width_enabled", 7, 8, 8,
                    a -> a.linkWidthEnabled, (a, v) -> a.linkWidthEnabled = (int) v),
            IbField.of("port_info:link_width_supported", 7, 16, 8,
                    a -> a.linkWidthSupported, (a, v) -> a.linkWidthSupported = (int) v),
            IbField.of("port_info:link_width_active", 7, 24, 8,
                    a -> a.linkWidthActive, (a, v) -> a.linkWidthActive = (int) v),
            IbField.of("port_info:link_speed_supported", 8, 0, 4,
                    a -> a.linkSpeedSupported, (a, v) -> a.linkSpeedSupported = (int) v),
            IbField.of("port_info:port_state", 8, 4, 4, a -> a.portState, (a, v) -> a.portState = (int) v),
            IbField.of("port_info:port_phys_state", 8, 8, 4, a -> a.portPhysState, (a, v) -> a.portPhysState = (int) v),
            IbField.of("port_info:link_down_default_state", 8, 12, 4,
                    a -> a.linkDownDefaultState, (a, v) -> a.linkDownDefaultState = (int) v),
            IbField.of("port_info:mkey_protect_bits", 8, 16, 2,
                    a -> a.mkeyProtectBits, (a, v) -> a.mkeyProtectBits = (int) v),
            IbField.reserved(8, 18, 3),
            IbField.of("port_info:lmc", 8, 21, 3, a -> a.lmc, (a, v) -> a.lmc = (int) v),
            IbField.of("port_info:link_speed_active", 8, 24, 4,
                    a -> a.linkSpeedActive, (a, v) -> a.linkSpeedActive = (int) v),
            IbField.of("port_info:link_speed_enabled", 8, 28, 4,
                    a -> a.linkSpeedEnabled, (a, v) -> a.linkSpeedEnabled = (int) v),
            IbField.of("port_info:neighbor_mtu", 9, 0, 4, a -> a.neighborMtu, (a, v) -> a.neighborMtu = (int) v),
            IbField.of("port_info:master_sm_sl", 9, 4, 4, a -> a.masterSmSl, (a, v) -> a.masterSmSl = (int) v),
            IbField.of("port_info:vl_cap", 9, 8, 4, a -> a.vlCap, (a, v) -> a.vlCap = (int) v),
            IbField.of("port_info:init_type", 9, 12, 4, a -> a.initType, (a, v) -> a.initType = (int) v),
            IbField.of("port_info:vl_high_limit", 9, 16, 8, a -> a.vlHighLimit, (a, v) -> a.vlHighLimit = (int) v),
            IbField.of("port_info:vl_arb_high_cap", 9, 24, 8, a -> a.vlArbHighCap, (a, v) -> a.vlArbHighCap = (int) v),
            IbField.of("port_info:vl_arb_low_cap", 10, 0, 8, a -> a.vlArbLowCap, (a, v) -> a.vlArbLowCap = (int) v),
            IbField.of("port_info:init_type_reply", 10, 8, 4,
                    a -> a.initTypeReply, (a, v) -> a.initTypeReply = (int) v),
            IbField.of("port_info:mtu_cap", 10, 12, 4, a -> a.mtuCap, (a, v) -> a.mtuCap = (int) v),
            IbField.of("port_info:vl_stall_count", 10, 16, 3, a -> a.vlStallCount, (a, v) -> a.vlStallCount = (int) v),
            IbField.of("port_info:hoq_life", 10, 19, 5, a -> a.hoqLife, (a, v) -> a.hoqLife = (int) v),
            IbField.of("port_info:operational_vls", 10, 24, 4,
                    a -> a.operationalVls, (a, v) -> a.operationalVls = (int) v),
            IbField.of("port_info:partition_enforcement_inbound", 10, 28, 1,
                    a -> a.partitionEnforcementInbound ? 1 : 0, (a, v) -> a.partitionEnforcementInbound = v != 0),
            IbField.of("port_info:partition_enforcement_outbound", 10, 29, 1,
                    a -> a.partitionEnforcementOutbound ? 1 : 0, (a, v) -> a.partitionEnforcementOutbound = v != 0),
            IbField.of("port_info:filter_raw_inbound", 10, 30, 1,
                    a -> a.filterRawInbound ? 1 : 0, (a, v) -> a.filterRawInbound = v != 0),
            IbField.of("port_info:filter_raw_outbound", 10, 31, 1,
                    a -> a.filterRawOutbound ? 1 : 0, (a, v) -> a.filterRawOutbound = v != 0),
            IbField.of("port_info:mkey_violations", 11, 0, 16,
                    a -> a.mkeyViolations, (a, v) -> a.mkeyViolations = (int) v),
            IbField.of("port_info:pkey_violations", 11, 16, 16,
                    a -> a.pkeyViolations, (a, v) -> a.pkeyViolations = (int) v),
            IbField.of("port_info:qkey_violations", 12, 0, 16,
                    a -> a.qkeyViolations, (a, v) -> a.qkeyViolations = (int) v),
            IbField.of("port_info:guid_cap", 12, 16, 8, a -> a.guidCap, (a, v) -> a.guidCap = (int) v),
            IbField.of("port_info:client_reregister", 12, 24, 1,
                    a -> a.clientReregister ? 1 : 0, (a, v) -> a.clientReregister = v != 0),
            IbField.of("port_info:mcast_pkey_trap_suppression_enabled", 12, 25, 2,
                    a -> a.mcastPkeyTrapSuppressionEnabled, (a, v) -> a.mcastPkeyTrapSuppressionEnabled = (int) v),
            IbField.of("port_info:subnet_timeout", 12, 27, 5,
                    a -> a.subnetTimeout, (a, v) -> a.subnetTimeout = (int) v),
            IbField.reserved(13, 0, 3),
            IbField.of("port_info:resp_time_value", 13, 3, 5,
                    a -> a.respTimeValue, (a, v) -> a.respTimeValue = (int) v),
            IbField.of("port_info:local_phy_errors", 13, 8, 4,
                    a -> a.localPhyErrors, (a, v) -> a.localPhyErrors = (int) v),
            IbField.of("port_info:overrun_errors", 13, 12, 4,
                    a -> a.overrunErrors, (a, v) -> a.overrunErrors = (int) v),
            IbField.of("port_info:max_credit_hint", 13, 16, 16,
                    a -> a.maxCreditHint, (a, v) -> a.maxCreditHint = (int) v),
            IbField.reserved(14, 0, 8),
            IbField.of("port_info:link_roundtrip_latency", 14, 8, 24,
                    a -> a.linkRoundTripLatency, (a, v) -> a.linkRoundTripLatency = (int) v),
            IbField.of("port_info:cap_mask2", 15, 0, 16,
                    a -> a.capabilityMask2, (a, v) -> a.capabilityMask2 = (int) v),
            IbField.of("port_info:link_speed_ext_active", 15, 16, 4,
                    a -> a.linkSpeedExtActive, (a, v) -> a.linkSpeedExtActive = (int) v),
            IbField.of("port_info:link_speed_ext_supported", 15, 20, 4,
                    a -> a.linkSpeedExtSupported, (a, v) -> a.linkSpeedExtSupported = (int) v),
            IbField.reserved(15, 24, 3),
            IbField.of("port_info:link_speed_ext_enabled", 15, 27, 5,
                    a -> a.linkSpeedExtEnabled, (a, v) -> a.linkSpeedExtEnabled = (int) v));

    /** Creates an all-zero attribute. */
    public PortInfo() {
    }

    @Override
    public int attrId() {
        return ATTR_ID;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return BYTES;
    }

    /**
     * Unpacks this attribute with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this attribute
     */
    public PortInfo unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this attribute */
    public PortInfo copy() {
        PortInfo c = new PortInfo();
        c.mkey = mkey;
        c.gidPrefix = gidPrefix;
        c.lid = lid;
        c.masterSmLid = masterSmLid;
        c.capabilityMask = capabilityMask;
        c.diagCode = diagCode;
        c.mkeyLeasePeriod = mkeyLeasePeriod;
        c.localPortNum = localPortNum;
        c.linkWidthEnabled = linkWidthEnabled;
        c.linkWidthSupported = linkWidthSupported;
        c.linkWidthActive = linkWidthActive;
        c.linkSpeedSupported = linkSpeedSupported;
        c.portState = portState;
        c.portPhysState = portPhysState;
        c.linkDownDefaultState = linkDownDefaultState;
        c.mkeyProtectBits = mkeyProtectBits;
        c.lmc = lmc;
        c.linkSpeedActive = linkSpeedActive;
        c.linkSpeedEnabled = linkSpeedEnabled;
        c.neighborMtu = neighborMtu;
        c.masterSmSl = masterSmSl;
        c.vlCap = vlCap;
        c.initType = initType;
        c.vlHighLimit = vlHighLimit;
        c.vlArbHighCap = vlArbHighCap;
        c.vlArbLowCap = vlArbLowCap;
        c.initTypeReply = initTypeReply;
        c.mtuCap = mtuCap;
        c.vlStallCount = vlStallCount;
        c.hoqLife = hoqLife;
        c.operationalVls = operationalVls;
        c.partitionEnforcementInbound = partitionEnforcementInbound;
        c.partitionEnforcementOutbound = partitionEnforcementOutbound;
        c.filterRawInbound = filterRawInbound;
        c.filterRawOutbound = filterRawOutbound;
        c.mkeyViolations = mkeyViolations;
        c.pkeyViolations = pkeyViolations;
        c.qkeyViolations = qkeyViolations;
        c.guidCap = guidCap;
        c.clientReregister = clientReregister;
        c.mcastPkeyTrapSuppressionEnabled = mcastPkeyTrapSuppressionEnabled;
        c.subnetTimeout = subnetTimeout;
        c.respTimeValue = respTimeValue;
        c.localPhyErrors = localPhyErrors;
        c.overrunErrors = overrunErrors;
        c.maxCreditHint = maxCreditHint;
        c.linkRoundTripLatency = linkRoundTripLatency;
        c.capabilityMask2 = capabilityMask2;
        c.linkSpeedExtActive = linkSpeedExtActive;
        c.linkSpeedExtSupported = linkSpeedExtSupported;
        c.linkSpeedExtEnabled = linkSpeedExtEnabled;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PortInfo)) {
            return false;
        }
        PortInfo a = (PortInfo) o;
        return mkey == a.mkey && gidPrefix == a.gidPrefix && lid == a.lid && masterSmLid == a.masterSmLid
                && capabilityMask == a.capabilityMask && diagCode == a.diagCode
                && mkeyLeasePeriod == a.mkeyLeasePeriod && localPortNum == a.localPortNum
                && linkWidthEnabled == a.linkWidthEnabled && linkWidthSupported == a.linkWidthSupported
                && linkWidthActive == a.linkWidthActive && linkSpeedSupported == a.linkSpeedSupported
                && portState == a.portState && portPhysState == a.portPhysState
                && linkDownDefaultState == a.linkDownDefaultState && mkeyProtectBits == a.mkeyProtectBits
                && lmc == a.lmc && linkSpeedActive == a.linkSpeedActive && linkSpeedEnabled == a.linkSpeedEnabled
                && neighborMtu == a.neighborMtu && masterSmSl == a.masterSmSl && vlCap == a.vlCap
                && initType == a.initType && vlHighLimit == a.vlHighLimit && vlArbHighCap == a.vlArbHighCap
                && vlArbLowCap == a.vlArbLowCap && initTypeReply == a.initTypeReply && mtuCap == a.mtuCap
                && vlStallCount == a.vlStallCount && hoqLife == a.hoqLife && operationalVls == a.operationalVls
                && partitionEnforcementInbound == a.partitionEnforcementInbound
                && partitionEnforcementOutbound == a.partitionEnforcementOutbound
                && filterRawInbound == a.filterRawInbound && filterRawOutbound == a.filterRawOutbound
                && mkeyViolations == a.mkeyViolations && pkeyViolations == a.pkeyViolations
                && qkeyViolations == a.qkeyViolations && guidCap == a.guidCap
                && clientReregister == a.clientReregister
                && mcastPkeyTrapSuppressionEnabled == a.mcastPkeyTrapSuppressionEnabled
                && subnetTimeout == a.subnetTimeout && respTimeValue == a.respTimeValue
                && localPhyErrors == a.localPhyErrors && overrunErrors == a.overrunErrors
                && maxCreditHint == a.maxCreditHint && linkRoundTripLatency == a.linkRoundTripLatency
                && capabilityMask2 == a.capabilityMask2 && linkSpeedExtActive == a.linkSpeedExtActive
                && linkSpeedExtSupported == a.linkSpeedExtSupported && linkSpeedExtEnabled == a.linkSpeedExtEnabled;
    }

    @Override
    public int hashCode() {
        return Objects.hash(mkey, gidPrefix, lid, masterSmLid, capabilityMask, diagCode, mkeyLeasePeriod,
                localPortNum, linkWidthEnabled, linkWidthSupported, linkWidthActive, linkSpeedSupported, portState,
                portPhysState, linkDownDefaultState, mkeyProtectBits, lmc, linkSpeedActive, linkSpeedEnabled,
                neighborMtu, masterSmSl, vlCap, initType, vlHighLimit, vlArbHighCap, vlArbLowCap, initTypeReply,
                mtuCap, vlStallCount, hoqLife, operationalVls, partitionEnforcementInbound,
                partitionEnforcementOutbound, filterRawInbound, filterRawOutbound, mkeyViolations, pkeyViolations,
                qkeyViolations, guidCap, clientReregister, mcastPkeyTrapSuppressionEnabled, subnetTimeout,
                respTimeValue, localPhyErrors, overrunErrors, maxCreditHint, linkRoundTripLatency, capabilityMask2,
                linkSpeedExtActive, linkSpeedExtSupported, linkSpeedExtEnabled);
    }

    @Override
    public String toString() {
        return String.format("PortInfo{mkey=0x%016x, gidPrefix=0x%016x, lid=0x%04x, masterSmLid=0x%04x, "
                        + "capabilityMask=0x%08x, diagCode=0x%04x, mkeyLeasePeriod=%d, localPortNum=%d, "
                        + "linkWidthEnabled=0x%02x, linkWidthSupported=0x%02x, linkWidthActive=0x%02x, "
                        + "linkSpeedSupported=0x%x, portState=%d, portPhysState=%d, linkDownDefaultState=%d, "
                        + "mkeyProtectBits=%d, lmc=%d, linkSpeedActive=0x%x, linkSpeedEnabled=0x%x, neighborMtu=%d, "
                        + "masterSmSl=%d, vlCap=%d, initType=0x%x, vlHighLimit=%d, vlArbHighCap=%d, vlArbLowCap=%d, "
                        + "initTypeReply=0x%x, mtuCap=%d, vlStallCount=%d, hoqLife=%d, operationalVls=%d, "
                        + "partitionEnforcementInbound=%b, partitionEnforcementOutbound=%b, filterRawInbound=%b, "
                        + "filterRawOutbound=%b, mkeyViolations=%d, pkeyViolations=%d, qkeyViolations=%d, "
                        + "guidCap=%d, clientReregister=%b, mcastPkeyTrapSuppressionEnabled=%d, subnetTimeout=%d, "
                        + "respTimeValue=%d, localPhyErrors=%d, overrunErrors=%d, maxCreditHint=%d, "
                        + "linkRoundTripLatency=%d, capabilityMask2=0x%04x, linkSpeedExtActive=0x%x, "
                        + "linkSpeedExtSupported=0x%x, linkSpeedExtEnabled=0x%x}",
                mkey, gidPrefix, lid, masterSmLid, capabilityMask, diagCode, mkeyLeasePeriod, localPortNum,
                linkWidthEnabled, linkWidthSupported, linkWidthActive, linkSpeedSupported, portState, portPhysState,
                linkDownDefaultState, mkeyProtectBits, lmc, linkSpeedActive, linkSpeedEnabled, neighborMtu,
                masterSmSl, vlCap, initType, vlHighLimit, vlArbHighCap, vlArbLowCap, initTypeReply, mtuCap,
                vlStallCount, hoqLife, operationalVls, partitionEnforcementInbound, partitionEnforcementOutbound,
                filterRawInbound, filterRawOutbound, mkeyViolations, pkeyViolations, qkeyViolations, guidCap,
                clientReregister, mcastPkeyTrapSuppressionEnabled, subnetTimeout, respTimeValue, localPhyErrors,
                overrunErrors, maxCreditHint, linkRoundTripLatency, capabilityMask2, linkSpeedExtActive,
                linkSpeedExtSupported, linkSpeedExtEnabled);
    }
}
