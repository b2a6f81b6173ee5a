package org.rdma.diags.internal;

import static org.rdma.diags.internal.MadFields.field;

import java.util.ArrayList;
import java.util.List;
import org.rdma.diags.internal.MadFields.Field;
import org.rdma.diags.internal.MadFields.Fmt;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortCountersExtended;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * The attribute dumps of libibmad (libibmad/dump.c {@code mad_dump_nodeinfo()},
 * {@code mad_dump_switchinfo()}, {@code mad_dump_perfcounters()} ...; infiniband-diags'
 * {@code dump_portinfo()}): which fields, in which order, with which labels.
 */
final class AttrDumps {
    /** NodeInfo ({@code IB_NODE_FIRST_F} .. {@code IB_NODE_LAST_F}). */
    static final List<Field> NODE_INFO = List.of(
            field("BaseVers", NodeInfo.TABLE, "node_info:base_version", Fmt.UINT),
            field("ClassVers", NodeInfo.TABLE, "node_info:class_version", Fmt.UINT),
            field("NodeType", NodeInfo.TABLE, "node_info:node_type", Fmt.NODE_TYPE),
            field("NumPorts", NodeInfo.TABLE, "node_info:num_ports", Fmt.UINT),
            field("SystemGuid", NodeInfo.TABLE, "node_info:sys_guid", Fmt.HEX),
            field("Guid", NodeInfo.TABLE, "node_info:node_guid", Fmt.HEX),
            field("PortGuid", NodeInfo.TABLE, "node_info:port_guid", Fmt.HEX),
            field("PartCap", NodeInfo.TABLE, "node_info:partition_cap", Fmt.UINT),
            field("DevId", NodeInfo.TABLE, "node_info:device_id", Fmt.HEX),
            field("Revision", NodeInfo.TABLE, "node_info:revision", Fmt.HEX),
            field("LocalPort", NodeInfo.TABLE, "node_info:local_port_num", Fmt.UINT),
            field("VendorId", NodeInfo.TABLE, "node_info:vendor_id", Fmt.HEX));

    /** PortInfo's M_Key, which {@code dump_portinfo()} hides unless keys are shown. */
    static final Field PORT_MKEY = field("Mkey", PortInfo.TABLE, "port_info:mkey", Fmt.HEX);

    /** PortInfo after the M_Key ({@code IB_PORT_FIRST_F} .. {@code IB_PORT_LAST_F}, then CapMask2 and extended speeds). */
    static final List<Field> PORT_INFO = List.of(
            field("GidPrefix", PortInfo.TABLE, "port_info:gid_prefix", Fmt.HEX),
            field("Lid", PortInfo.TABLE, "port_info:lid", Fmt.UINT),
            field("SMLid", PortInfo.TABLE, "port_info:sm_lid", Fmt.UINT),
            field("CapMask", PortInfo.TABLE, "port_info:cap_mask", Fmt.CAP_MASK),
            field("DiagCode", PortInfo.TABLE, "port_info:diag_code", Fmt.HEX),
            field("MkeyLeasePeriod", PortInfo.TABLE, "port_info:mkey_lease_period", Fmt.UINT),
            field("LocalPort", PortInfo.TABLE, "port_info:local_port_num", Fmt.UINT),
            field("LinkWidthEnabled", PortInfo.TABLE, "port_info:link_width_enabled", Fmt.LINK_WIDTH_EN),
            field("LinkWidthSupported", PortInfo.TABLE, "port_info:link_width_supported", Fmt.LINK_WIDTH_SUP),
            field("LinkWidthActive", PortInfo.TABLE, "port_info:link_width_active", Fmt.LINK_WIDTH),
            field("LinkSpeedSupported", PortInfo.TABLE, "port_info:link_speed_supported", Fmt.LINK_SPEED_SET),
            field("LinkState", PortInfo.TABLE, "port_info:port_state", Fmt.PORT_STATE),
            field("PhysLinkState", PortInfo.TABLE, "port_info:port_phys_state", Fmt.PHYS_STATE),
            field("LinkDownDefState", PortInfo.TABLE, "port_info:link_down_default_state", Fmt.LINK_DOWN_DEF),
            field("ProtectBits", PortInfo.TABLE, "port_info:mkey_protect_bits", Fmt.UINT),
            field("LMC", PortInfo.TABLE, "port_info:lmc", Fmt.UINT),
            field("LinkSpeedActive", PortInfo.TABLE, "port_info:link_speed_active", Fmt.LINK_SPEED),
            field("LinkSpeedEnabled", PortInfo.TABLE, "port_info:link_speed_enabled", Fmt.LINK_SPEED_SET),
            field("NeighborMTU", PortInfo.TABLE, "port_info:neighbor_mtu", Fmt.MTU),
            field("SMSL", PortInfo.TABLE, "port_info:master_sm_sl", Fmt.UINT),
            field("VLCap", PortInfo.TABLE, "port_info:vl_cap", Fmt.VL_CAP),
            field("InitType", PortInfo.TABLE, "port_info:init_type", Fmt.HEX),
            field("VLHighLimit", PortInfo.TABLE, "port_info:vl_high_limit", Fmt.UINT),
            field("VLArbHighCap", PortInfo.TABLE, "port_info:vl_arb_high_cap", Fmt.UINT),
            field("VLArbLowCap", PortInfo.TABLE, "port_info:vl_arb_low_cap", Fmt.UINT),
            field("InitReply", PortInfo.TABLE, "port_info:init_type_reply", Fmt.HEX),
            field("MtuCap", PortInfo.TABLE, "port_info:mtu_cap", Fmt.MTU),
            field("VLStallCount", PortInfo.TABLE, "port_info:vl_stall_count", Fmt.UINT),
            field("HoqLife", PortInfo.TABLE, "port_info:hoq_life", Fmt.UINT),
            field("OperVLs", PortInfo.TABLE, "port_info:operational_vls", Fmt.OPER_VLS),
            field("PartEnforceInb", PortInfo.TABLE, "port_info:partition_enforcement_inbound", Fmt.UINT),
            field("PartEnforceOutb", PortInfo.TABLE, "port_info:partition_enforcement_outbound", Fmt.UINT),
            field("FilterRawInb", PortInfo.TABLE, "port_info:filter_raw_inbound", Fmt.UINT),
            field("FilterRawOutb", PortInfo.TABLE, "port_info:filter_raw_outbound", Fmt.UINT),
            field("MkeyViolations", PortInfo.TABLE, "port_info:mkey_violations", Fmt.UINT),
            field("PkeyViolations", PortInfo.TABLE, "port_info:pkey_violations", Fmt.UINT),
            field("QkeyViolations", PortInfo.TABLE, "port_info:qkey_violations", Fmt.UINT),
            field("GuidCap", PortInfo.TABLE, "port_info:guid_cap", Fmt.UINT),
            field("ClientReregister", PortInfo.TABLE, "port_info:client_reregister", Fmt.UINT),
            field("McastPkeyTrapSuppressionEnabled", PortInfo.TABLE, "port_info:mcast_pkey_trap_suppression_enabled",
                    Fmt.UINT),
            field("SubnetTimeout", PortInfo.TABLE, "port_info:subnet_timeout", Fmt.UINT),
            field("RespTimeVal", PortInfo.TABLE, "port_info:resp_time_value", Fmt.UINT),
            field("LocalPhysErr", PortInfo.TABLE, "port_info:local_phy_errors", Fmt.UINT),
            field("OverrunErr", PortInfo.TABLE, "port_info:overrun_errors", Fmt.UINT),
            field("MaxCreditHint", PortInfo.TABLE, "port_info:max_credit_hint", Fmt.UINT),
            field("RoundTrip", PortInfo.TABLE, "port_info:link_roundtrip_latency", Fmt.UINT),
            field("CapabilityMask2", PortInfo.TABLE, "port_info:cap_mask2", Fmt.CAP_MASK2),
            field("LinkSpeedExtActive", PortInfo.TABLE, "port_info:link_speed_ext_active", Fmt.LINK_SPEED_EXT),
            field("LinkSpeedExtSupported", PortInfo.TABLE, "port_info:link_speed_ext_supported",
                    Fmt.LINK_SPEED_EXT_SUP),
            field("LinkSpeedExtEnabled", PortInfo.TABLE, "port_info:link_speed_ext_enabled", Fmt.LINK_SPEED_EXT_EN));

    /** SwitchInfo ({@code IB_SW_FIRST_F} .. {@code IB_SW_LAST_F}). */
    static final List<Field> SWITCH_INFO = List.of(
            field("LinearFdbCap", SwitchInfo.TABLE, "switch_info:linear_fdb_cap", Fmt.UINT),
            field("RandomFdbCap", SwitchInfo.TABLE, "switch_info:random_fdb_cap", Fmt.UINT),
            field("McastFdbCap", SwitchInfo.TABLE, "switch_info:mcast_fdb_cap", Fmt.UINT),
            field("LinearFdbTop", SwitchInfo.TABLE, "switch_info:linear_fdb_top", Fmt.UINT),
            field("DefPort", SwitchInfo.TABLE, "switch_info:default_port", Fmt.UINT),
            field("DefMcastPrimPort", SwitchInfo.TABLE, "switch_info:default_mcast_primary_port", Fmt.UINT),
            field("DefMcastNotPrimPort", SwitchInfo.TABLE, "switch_info:default_mcast_not_primary_port", Fmt.UINT),
            field("LifeTime", SwitchInfo.TABLE, "switch_info:life_time_value", Fmt.UINT),
            field("StateChange", SwitchInfo.TABLE, "switch_info:port_state_change", Fmt.UINT),
            field("OptSLtoVLMapping", SwitchInfo.TABLE, "switch_info:optimized_sl2vl_mapping_programming", Fmt.UINT),
            field("LidsPerPort", SwitchInfo.TABLE, "switch_info:lids_per_port", Fmt.UINT),
            field("PartEnforceCap", SwitchInfo.TABLE, "switch_info:partition_enforcement_cap", Fmt.UINT),
            field("InboundPartEnf", SwitchInfo.TABLE, "switch_info:inbound_enforcement_cap", Fmt.UINT),
            field("OutboundPartEnf", SwitchInfo.TABLE, "switch_info:outbound_enforcement_cap", Fmt.UINT),
            field("FilterRawInbound", SwitchInfo.TABLE, "switch_info:filter_raw_inbound_cap", Fmt.UINT),
            field("FilterRawOutbound", SwitchInfo.TABLE, "switch_info:filter_raw_outbound_cap", Fmt.UINT),
            field("EnhancedPort0", SwitchInfo.TABLE, "switch_info:enhanced_port0", Fmt.UINT),
            field("MulticastFDBTop", SwitchInfo.TABLE, "switch_info:mcast_fdb_top", Fmt.HEX));

    /**
     * PortCounters as {@code mad_dump_perfcounters()} orders them: the error counters,
     * QP1Dropped (bits 0..15 of word 5, which the codec keeps reserved), then VL15Dropped and the
     * data counters.
     */
    static final List<Field> PORT_COUNTERS = List.of(
            field("PortSelect", PortCounters.TABLE, "pc:port_select", Fmt.UINT),
            field("CounterSelect", PortCounters.TABLE, "pc:counter_select", Fmt.HEX),
            field("SymbolErrorCounter", PortCounters.TABLE, "pc:symbol_error_counter", Fmt.UINT),
            field("LinkErrorRecoveryCounter", PortCounters.TABLE, "pc:link_error_recovery_counter", Fmt.UINT),
            field("LinkDownedCounter", PortCounters.TABLE, "pc:link_downed_counter", Fmt.UINT),
            field("PortRcvErrors", PortCounters.TABLE, "pc:port_rcv_errors", Fmt.UINT),
            field("PortRcvRemotePhysicalErrors", PortCounters.TABLE, "pc:port_rcv_remphys_errors", Fmt.UINT),
            field("PortRcvSwitchRelayErrors", PortCounters.TABLE, "pc:port_rcv_switch_relay_errors", Fmt.UINT),
            field("PortXmitDiscards", PortCounters.TABLE, "pc:port_xmit_discards", Fmt.UINT),
            field("PortXmitConstraintErrors", PortCounters.TABLE, "pc:port_xmit_constraint_errors", Fmt.UINT),
            field("PortRcvConstraintErrors", PortCounters.TABLE, "pc:port_rcv_constraint_errors", Fmt.UINT),
            field("CounterSelect2", PortCounters.TABLE, "pc:counter_select2", Fmt.HEX),
            field("LocalLinkIntegrityErrors", PortCounters.TABLE, "pc:local_link_integrity_errors", Fmt.UINT),
            field("ExcessiveBufferOverrunErrors", PortCounters.TABLE, "pc:excessive_buffer_overrun_errors", Fmt.UINT),
            new Field("QP1Dropped", 5, 0, 16, Fmt.UINT),
            field("VL15Dropped", PortCounters.TABLE, "pc:vl15_dropped", Fmt.UINT),
            field("PortXmitData", PortCounters.TABLE, "pc:port_xmit_data", Fmt.UINT),
            field("PortRcvData", PortCounters.TABLE, "pc:port_rcv_data", Fmt.UINT),
            field("PortXmitPkts", PortCounters.TABLE, "pc:port_xmit_packets", Fmt.UINT),
            field("PortRcvPkts", PortCounters.TABLE, "pc:port_rcv_packets", Fmt.UINT),
            field("PortXmitWait", PortCounters.TABLE, "pc:port_xmit_wait", Fmt.UINT));

    /** PortCountersExtended up to PortRcvPkts ({@code IB_PC_EXT_FIRST_F} .. {@code IB_PC_EXT_XMT_UPKTS_F}). */
    static final List<Field> PORT_COUNTERS_EXT = List.of(
            field("PortSelect", PortCountersExtended.TABLE, "pcx:port_select", Fmt.UINT),
            field("CounterSelect", PortCountersExtended.TABLE, "pcx:counter_select", Fmt.HEX),
            field("PortXmitData", PortCountersExtended.TABLE, "pcx:port_xmit_data", Fmt.UINT),
            field("PortRcvData", PortCountersExtended.TABLE, "pcx:port_rcv_data", Fmt.UINT),
            field("PortXmitPkts", PortCountersExtended.TABLE, "pcx:port_xmit_packets", Fmt.UINT),
            field("PortRcvPkts", PortCountersExtended.TABLE, "pcx:port_rcv_packets", Fmt.UINT));

    /** The unicast and multicast packet counters, printed when the PMA has extended width ({@code IB_PM_EXT_WIDTH_SUPPORTED}). */
    static final List<Field> PORT_COUNTERS_EXT_WIDTH = List.of(
            field("PortUnicastXmitPkts", PortCountersExtended.TABLE, "pcx:port_unicast_xmit_packets", Fmt.UINT),
            field("PortUnicastRcvPkts", PortCountersExtended.TABLE, "pcx:port_unicast_rcv_packets", Fmt.UINT),
            field("PortMulticastXmitPkts", PortCountersExtended.TABLE, "pcx:port_multicast_xmit_packets", Fmt.UINT),
            field("PortMulticastRcvPkts", PortCountersExtended.TABLE, "pcx:port_multicast_rcv_packets", Fmt.UINT));

    private AttrDumps() {
    }

    /**
     * infiniband-diags' {@code dump_portinfo(pi, tabs)}: every PortInfo field, each line after
     * {@code tabs} tabs; the M_Key shown only with {@code showKeys} ({@code -K}).
     */
    static List<String> portInfo(byte[] pi, int off, int tabs, boolean showKeys) {
        String indent = "\t".repeat(tabs);
        List<String> out = new ArrayList<>();
        out.add(indent + (showKeys ? PORT_MKEY.dump(pi, off) : MadFields.label(PORT_MKEY.name()) + DiagText.NOT_DISPLAYED));
        for (String l : MadFields.dump(PORT_INFO, pi, off)) {
            out.add(indent + l);
        }
        return out;
    }
}
