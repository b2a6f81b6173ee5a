package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The SwitchInfo SMP attribute (IBTA vol. 1, 14.2.5.4, table 145), attribute ID
 * {@link Smp#IB_SMP_ATTR_SWITCH_INFO}, 20 bytes.
 *
 * <p>Mirrors opensm's {@code ib_switch_info_t} (include/iba/ib_types.h) with its packed
 * {@code life_state} and {@code flags} bytes split into fields; positions agree with libibmad's
 * {@code IB_SW_*_F} entries.
 *
 * <pre>
 *  word 0:  LinearFDBCap(16) | RandomFDBCap(16)
 *  word 1:  MulticastFDBCap(16) | LinearFDBTop(16)
 *  word 2:  DefaultPort(8) | DefaultMulticastPrimaryPort(8) | DefaultMulticastNotPrimaryPort(8)
 *           | LifeTimeValue(5) PortStateChange(1) OptimizedSLtoVLMappingProgramming(2)
 *  word 3:  LIDsPerPort(16) | PartitionEnforcementCap(16)
 *  word 4:  InboundEnforcementCap(1) OutboundEnforcementCap(1) FilterRawInboundCap(1)
 *           FilterRawOutboundCap(1) EnhancedPort0(1) rsv(3) | rsv(8) | MulticastFDBTop(16)
 * </pre>
 */
public final class SwitchInfo implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_SWITCH_INFO;
    /** Size on the wire. */
    public static final int BYTES = 20;

    /** Number of entries in the linear forwarding table, 16 bits. */
    public int linearFdbCap;
    /** Number of entries in the random forwarding table, 16 bits. */
    public int randomFdbCap;
    /** Number of entries in the multicast forwarding table, 16 bits. */
    public int mcastFdbCap;
    /** Highest valid LID of the linear forwarding table, 16 bits. */
    public int linearFdbTop;
    /** Default port for unknown unicast DLIDs, 8 bits. */
    public int defaultPort;
    /** Default port for unknown multicast DLIDs, primary path, 8 bits. */
    public int defaultMcastPrimaryPort;
    /** Default port for unknown multicast DLIDs, not-primary path, 8 bits. */
    public int defaultMcastNotPrimaryPort;
    /** Switch life time value, 5 bits. */
    public int lifeTimeValue;
    /** Port state change, 1 bit (write 1 to clear). */
    public boolean portStateChange;
    /** Optimized SL to VL mapping programming, 2 bits. */
    public int optimizedSlToVlMappingProgramming;
    /** LIDs per port, 16 bits. */
    public int lidsPerPort;
    /** Partition enforcement table capacity, 16 bits. */
    public int partitionEnforcementCap;
    /** Inbound partition enforcement capability, 1 bit. */
    public boolean inboundEnforcementCap;
    /** Outbound partition enforcement capability, 1 bit. */
    public boolean outboundEnforcementCap;
    /** Inbound raw packet filtering capability, 1 bit. */
    public boolean filterRawInboundCap;
    /** Outbound raw packet filtering capability, 1 bit. */
    public boolean filterRawOutboundCap;
    /** Port 0 is an enhanced port, 1 bit. */
    public boolean enhancedPort0;
    /** Highest valid multicast LID of the multicast forwarding table, 16 bits. */
    public int mcastFdbTop;

    /** The field table. */
    public static final List<IbField<SwitchInfo>> TABLE = List.of(
            IbField.of("switch_info:linear_fdb_cap", 0, 0, 16, a -> a.linearFdbCap, (a, v) -> a.linearFdbCap = (int) v),
            IbField.of("switch_info:random_fdb_cap", 0, 16, 16, a -> a.randomFdbCap, (a, v) -> a.randomFdbCap = (int) v),
            IbField.of("switch_info:mcast_fdb_cap", 1, 0, 16, a -> a.mcastFdbCap, (a, v) -> a.mcastFdbCap = (int) v),
            IbField.of("switch_info:linear_fdb_top", 1, 16, 16, a -> a.linearFdbTop, (a, v) -> a.linearFdbTop = (int) v),
            IbField.of("switch_info:default_port", 2, 0, 8, a -> a.defaultPort, (a, v) -> a.defaultPort = (int) v),
            IbField.of("switch_info:default_mcast_primary_port", 2, 8, 8,
                    a -> a.defaultMcastPrimaryPort, (a, v) -> a.defaultMcastPrimaryPort = (int) v),
            IbField.of("switch_info:default_mcast_not_primary_port", 2, 16, 8,
                    a -> a.defaultMcastNotPrimaryPort, (a, v) -> a.defaultMcastNotPrimaryPort = (int) v),
            IbField.of("switch_info:life_time_value", 2, 24, 5, a -> a.lifeTimeValue, (a, v) -> a.lifeTimeValue = (int) v),
            IbField.of("switch_info:port_state_change", 2, 29, 1,
                    a -> a.portStateChange ? 1 : 0, (a, v) -> a.portStateChange = v != 0),
            IbField.of("switch_info:optimized_sl2vl_mapping_programming", 2, 30, 2,
                    a -> a.optimizedSlToVlMappingProgramming, (a, v) -> a.optimizedSlToVlMappingProgramming = (int) v),
            IbField.of("switch_info:lids_per_port", 3, 0, 16, a -> a.lidsPerPort, (a, v) -> a.lidsPerPort = (int) v),
            IbField.of("switch_info:partition_enforcement_cap", 3, 16, 16,
                    a -> a.partitionEnforcementCap, (a, v) -> a.partitionEnforcementCap = (int) v),
            IbField.of("switch_info:inbound_enforcement_cap", 4, 0, 1,
                    a -> a.inboundEnforcementCap ? 1 : 0, (a, v) -> a.inboundEnforcementCap = v != 0),
            IbField.of("switch_info:outbound_enforcement_cap", 4, 1, 1,
                    a -> a.outboundEnforcementCap ? 1 : 0, (a, v) -> a.outboundEnforcementCap = v != 0),
            IbField.of("switch_info:filter_raw_inbound_cap", 4, 2, 1,
                    a -> a.filterRawInboundCap ? 1 : 0, (a, v) -> a.filterRawInboundCap = v != 0),
            IbField.of("switch_info:filter_raw_outbound_cap", 4, 3, 1,
                    a -> a.filterRawOutboundCap ? 1 : 0, (a, v) -> a.filterRawOutboundCap = v != 0),
            IbField.of("switch_info:enhanced_port0", 4, 4, 1,
                    a -> a.enhancedPort0 ? 1 : 0, (a, v) -> a.enhancedPort0 = v != 0),
            IbField.reserved(4, 5, 11),
            IbField.of("switch_info:mcast_fdb_top", 4, 16, 16, a -> a.mcastFdbTop, (a, v) -> a.mcastFdbTop = (int) v));

    /** Creates an all-zero attribute. */
    public SwitchInfo() {
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
    public SwitchInfo unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this attribute */
    public SwitchInfo copy() {
        SwitchInfo c = new SwitchInfo();
        c.linearFdbCap = linearFdbCap;
        c.randomFdbCap = randomFdbCap;
        c.mcastFdbCap = mcastFdbCap;
        c.linearFdbTop = linearFdbTop;
        c.defaultPort = defaultPort;
        c.defaultMcastPrimaryPort = defaultMcastPrimaryPort;
        c.defaultMcastNotPrimaryPort = defaultMcastNotPrimaryPort;
        c.lifeTimeValue = lifeTimeValue;
        c.portStateChange = portStateChange;
        c.optimizedSlToVlMappingProgramming = optimizedSlToVlMappingProgramming;
        c.lidsPerPort = lidsPerPort;
        c.partitionEnforcementCap = partitionEnforcementCap;
        c.inboundEnforcementCap = inboundEnforcementCap;
        c.outboundEnforcementCap = outboundEnforcementCap;
        c.filterRawInboundCap = filterRawInboundCap;
        c.filterRawOutboundCap = filterRawOutboundCap;
        c.enhancedPort0 = enhancedPort0;
        c.mcastFdbTop = mcastFdbTop;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SwitchInfo)) {
            return false;
        }
        SwitchInfo a = (SwitchInfo) o;
        return linearFdbCap == a.linearFdbCap && randomFdbCap == a.randomFdbCap && mcastFdbCap == a.mcastFdbCap
                && linearFdbTop == a.linearFdbTop && defaultPort == a.defaultPort
                && defaultMcastPrimaryPort == a.defaultMcastPrimaryPort
                && defaultMcastNotPrimaryPort == a.defaultMcastNotPrimaryPort && lifeTimeValue == a.lifeTimeValue
                && portStateChange == a.portStateChange
                && optimizedSlToVlMappingProgramming == a.optimizedSlToVlMappingProgramming
                && lidsPerPort == a.lidsPerPort && partitionEnforcementCap == a.partitionEnforcementCap
                && inboundEnforcementCap == a.inboundEnforcementCap
                && outboundEnforcementCap == a.outboundEnforcementCap
                && filterRawInboundCap == a.filterRawInboundCap && filterRawOutboundCap == a.filterRawOutboundCap
                && enhancedPort0 == a.enhancedPort0 && mcastFdbTop == a.mcastFdbTop;
    }

    @Override
    public int hashCode() {
        return Objects.hash(linearFdbCap, randomFdbCap, mcastFdbCap, linearFdbTop, defaultPort,
                defaultMcastPrimaryPort, defaultMcastNotPrimaryPort, lifeTimeValue, portStateChange,
                optimizedSlToVlMappingProgramming, lidsPerPort, partitionEnforcementCap, inboundEnforcementCap,
                outboundEnforcementCap, filterRawInboundCap, filterRawOutboundCap, enhancedPort0, mcastFdbTop);
    }

    @Override
    public String toString() {
        return String.format("SwitchInfo{linearFdbCap=%d, randomFdbCap=%d, mcastFdbCap=%d, linearFdbTop=0x%04x, "
                        + "defaultPort=%d, defaultMcastPrimaryPort=%d, defaultMcastNotPrimaryPort=%d, "
                        + "lifeTimeValue=%d, portStateChange=%b, optimizedSlToVlMappingProgramming=%d, "
                        + "lidsPerPort=%d, partitionEnforcementCap=%d, inboundEnforcementCap=%b, "
                        + "outboundEnforcementCap=%b, filterRawInboundCap=%b, filterRawOutboundCap=%b, "
                        + "enhancedPort0=%b, mcastFdbTop=0x%04x}",
                linearFdbCap, randomFdbCap, mcastFdbCap, linearFdbTop, defaultPort, defaultMcastPrimaryPort,
                defaultMcastNotPrimaryPort, lifeTimeValue, portStateChange, optimizedSlToVlMappingProgramming,
                lidsPerPort, partitionEnforcementCap, inboundEnforcementCap, outboundEnforcementCap,
                filterRawInboundCap, filterRawOutboundCap, enhancedPort0, mcastFdbTop);
    }
}
