package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The PortCountersExtended PMA attribute (IBTA vol. 1, 16.1.4.11), attribute ID
 * {@link PerfMgmtMad#IB_PMA_PORT_COUNTERS_EXT}, 72 bytes: 64-bit data and packet counters.
 *
 * <p>Mirrors {@code struct ib_pma_portcounters_ext} (include/rdma/ib_pma.h). Counters are unsigned
 * 64-bit values held in {@code long}s with the same bit pattern.
 *
 * <pre>
 *  word 0:      rsv(8) | PortSelect(8) | CounterSelect(16)
 *  word 1:      rsv(32)
 *  words 2-17:  PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts, PortUnicastXmitPkts,
 *               PortUnicastRcvPkts, PortMulticastXmitPkts, PortMulticastRcvPkts (64 bits each)
 * </pre>
 */
public final class PortCountersExtended implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT;
    /** Size on the wire. */
    public static final int BYTES = 72;

    /** CounterSelect: PortXmitData ({@code IB_PMA_SELX_PORT_XMIT_DATA}). */
    public static final int SELX_PORT_XMIT_DATA = 0x0001;
    /** CounterSelect: PortRcvData. */
    public static final int SELX_PORT_RCV_DATA = 0x0002;
    /** CounterSelect: PortXmitPkts. */
    public static final int SELX_PORT_XMIT_PACKETS = 0x0004;
    /** CounterSelect: PortRcvPkts. */
    public static final int SELX_PORT_RCV_PACKETS = 0x0008;
    /** CounterSelect: PortUnicastXmitPkts. */
    public static final int SELX_PORT_UNI_XMIT_PACKETS = 0x0010;
    /** CounterSelect: PortUnicastRcvPkts. */
    public static final int SELX_PORT_UNI_RCV_PACKETS = 0x0020;
    /** CounterSelect: PortMulticastXmitPkts. */
    public static final int SELX_PORT_MULTI_XMIT_PACKETS = 0x0040;
    /** CounterSelect: PortMulticastRcvPkts. */
    public static final int SELX_PORT_MULTI_RCV_PACKETS = 0x0080;

    /** Port to read or reset, 8 bits. */
    public int portSelect;
    /** Counters to reset on a Set, 16 bits ({@code SELX_*}). */
    public int counterSelect;
    /** Data words transmitted (octets / 4), 64 bits. */
    public long portXmitData;
    /** Data words received (octets / 4), 64 bits. */
    public long portRcvData;
    /** Packets transmitted, 64 bits. */
    public long portXmitPkts;
    /** Packets received, 64 bits. */
    public long portRcvPkts;
    /** Unicast packets transmitted, 64 bits. */
    public long portUnicastXmitPkts;
    /** Unicast packets received, 64 bits. */
    public long portUnicastRcvPkts;
    /** Multicast packets transmitted, 64 bits. */
    public long portMulticastXmitPkts;
    /** Multicast packets received, 64 bits. */
    public long portMulticastRcvPkts;

    /** The field table. */
    public static final List<IbField<PortCountersExtended>> TABLE = List.of(
            IbField.reserved(0, 0, 8),
            IbField.of("pcx:port_select", 0, 8, 8, a -> a.portSelect, (a, v) -> a.portSelect = (int) v),
            IbField.of("pcx:counter_select", 0, 16, 16, a -> a.counterSelect, (a, v) -> a.counterSelect = (int) v),
            IbField.reserved(1, 0, 32),
            IbField.of("pcx:port_xmit_data", 2, 0, 64, a -> a.portXmitData, (a, v) -> a.portXmitData = v),
            IbField.of("pcx:port_rcv_data", 4, 0, 64, a -> a.portRcvData, (a, v) -> a.portRcvData = v),
            IbField.of("pcx:port_xmit_packets", 6, 0, 64, a -> a.portXmitPkts, (a, v) -> a.portXmitPkts = v),
            IbField.of("pcx:port_rcv_packets", 8, 0, 64, a -> a.portRcvPkts, (a, v) -> a.portRcvPkts = v),
            IbField.of("pcx:port_unicast_xmit_packets", 10, 0, 64,
                    a -> a.portUnicastXmitPkts, (a, v) -> a.portUnicastXmitPkts = v),
            IbField.of("pcx:port_unicast_rcv_packets", 12, 0, 64,
                    a -> a.portUnicastRcvPkts, (a, v) -> a.portUnicastRcvPkts = v),
            IbField.of("pcx:port_multicast_xmit_packets", 14, 0, 64,
                    a -> a.portMulticastXmitPkts, (a, v) -> a.portMulticastXmitPkts = v),
            IbField.of("pcx:port_multicast_rcv_packets", 16, 0, 64,
                    a -> a.portMulticastRcvPkts, (a, v) -> a.portMulticastRcvPkts = v));

    /** Creates an all-zero attribute. */
    public PortCountersExtended() {
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
    public PortCountersExtended unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this attribute */
    public PortCountersExtended copy() {
        PortCountersExtended c = new PortCountersExtended();
        c.portSelect = portSelect;
        c.counterSelect = counterSelect;
        c.portXmitData = portXmitData;
        c.portRcvData = portRcvData;
        c.portXmitPkts = portXmitPkts;
        c.portRcvPkts = portRcvPkts;
        c.portUnicastXmitPkts = portUnicastXmitPkts;
        c.portUnicastRcvPkts = portUnicastRcvPkts;
        c.portMulticastXmitPkts = portMulticastXmitPkts;
        c.portMulticastRcvPkts = portMulticastRcvPkts;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PortCountersExtended)) {
            return false;
        }
        PortCountersExtended a = (PortCountersExtended) o;
        return portSelect == a.portSelect && counterSelect == a.counterSelect && portXmitData == a.portXmitData
                && portRcvData == a.portRcvData && portXmitPkts == a.portXmitPkts && portRcvPkts == a.portRcvPkts
                && portUnicastXmitPkts == a.portUnicastXmitPkts && portUnicastRcvPkts == a.portUnicastRcvPkts
                && portMulticastXmitPkts == a.portMulticastXmitPkts
                && portMulticastRcvPkts == a.portMulticastRcvPkts;
    }

    @Override
    public int hashCode() {
        return Objects.hash(portSelect, counterSelect, portXmitData, portRcvData, portXmitPkts, portRcvPkts,
                portUnicastXmitPkts, portUnicastRcvPkts, portMulticastXmitPkts, portMulticastRcvPkts);
    }

    @Override
    public String toString() {
        return String.format("PortCountersExtended{portSelect=%d, counterSelect=0x%04x, portXmitData=%s, "
                        + "portRcvData=%s, portXmitPkts=%s, portRcvPkts=%s, portUnicastXmitPkts=%s, "
                        + "portUnicastRcvPkts=%s, portMulticastXmitPkts=%s, portMulticastRcvPkts=%s}",
                portSelect, counterSelect, Long.toUnsignedString(portXmitData), Long.toUnsignedString(portRcvData),
                Long.toUnsignedString(portXmitPkts), Long.toUnsignedString(portRcvPkts),
                Long.toUnsignedString(portUnicastXmitPkts), Long.toUnsignedString(portUnicastRcvPkts),
                Long.toUnsignedString(portMulticastXmitPkts), Long.toUnsignedString(portMulticastRcvPkts));
    }
}
