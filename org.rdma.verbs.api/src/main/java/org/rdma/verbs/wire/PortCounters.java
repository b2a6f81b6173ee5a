package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The PortCounters PMA attribute (IBTA vol. 1, 16.1.3.5, table 247), attribute ID
 * {@link PerfMgmtMad#IB_PMA_PORT_COUNTERS}, 44 bytes.
 *
 * <p>Mirrors {@code struct ib_pma_portcounters} (include/rdma/ib_pma.h), with
 * {@code link_overrun_errors} split into its two nibbles and the byte the kernel calls
 * {@code reserved1} carried as {@link #counterSelect2} (IBTA 1.2.1 and later; libibmad's
 * {@code IB_PC_COUNTER_SELECT2_F}).
 *
 * <pre>
 *  word 0:   rsv(8) | PortSelect(8) | CounterSelect(16)
 *  word 1:   SymbolErrorCounter(16) | LinkErrorRecoveryCounter(8) | LinkDownedCounter(8)
 *  word 2:   PortRcvErrors(16) | PortRcvRemotePhysicalErrors(16)
 *  word 3:   PortRcvSwitchRelayErrors(16) | PortXmitDiscards(16)
 *  word 4:   PortXmitConstraintErrors(8) | PortRcvConstraintErrors(8) | CounterSelect2(8)
 *            | LocalLinkIntegrityErrors(4) ExcessiveBufferOverrunErrors(4)
 *  word 5:   rsv(16) | VL15Dropped(16)
 *  words 6-10: PortXmitData(32) PortRcvData(32) PortXmitPkts(32) PortRcvPkts(32) PortXmitWait(32)
 * </pre>
 *
 * <p>PortXmitData and PortRcvData count 32-bit words (octets divided by 4). All counters
 * saturate at their maximum instead of wrapping (16.1.3.5).
 */
public final class PortCounters implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = PerfMgmtMad.IB_PMA_PORT_COUNTERS;
    /** Size on the wire. */
    public static final int BYTES = 44;
    /** PortSelect: all ports (with ClassPortInfo AllPortSelect). */
    public static final int PORT_SELECT_ALL = 0xFF;

    /** CounterSelect: SymbolErrorCounter ({@code IB_PMA_SEL_SYMBOL_ERROR}). */
    public static final int SEL_SYMBOL_ERROR = 0x0001;
    /** CounterSelect: LinkErrorRecoveryCounter. */
    public static final int SEL_LINK_ERROR_RECOVERY = 0x0002;
    /** CounterSelect: LinkDownedCounter. */
    public static final int SEL_LINK_DOWNED = 0x0004;
    /** CounterSelect: PortRcvErrors. */
    public static final int SEL_PORT_RCV_ERRORS = 0x0008;
    /** CounterSelect: PortRcvRemotePhysicalErrors. */
    public static final int SEL_PORT_RCV_REMPHYS_ERRORS = 0x0010;
    /** CounterSelect: PortRcvSwitchRelayErrors. */
    public static final int SEL_PORT_RCV_SWITCH_RELAY_ERRORS = 0x0020;
    /** CounterSelect: PortXmitDiscards. */
    public static final int SEL_PORT_XMIT_DISCARDS = 0x0040;
    /** CounterSelect: PortXmitConstraintErrors. */
    public static final int SEL_PORT_XMIT_CONSTRAINT_ERRORS = 0x0080;
    /** CounterSelect: PortRcvConstraintErrors. */
    public static final int SEL_PORT_RCV_CONSTRAINT_ERRORS = 0x0100;
    /** CounterSelect: LocalLinkIntegrityErrors. */
    public static final int SEL_LOCAL_LINK_INTEGRITY_ERRORS = 0x0200;
    /** CounterSelect: ExcessiveBufferOverrunErrors. */
    public static final int SEL_EXCESSIVE_BUFFER_OVERRUNS = 0x0400;
    /** CounterSelect: VL15Dropped. */
    public static final int SEL_PORT_VL15_DROPPED = 0x0800;
    /** CounterSelect: PortXmitData. */
    public static final int SEL_PORT_XMIT_DATA = 0x1000;
    /** CounterSelect: PortRcvData. */
    public static final int SEL_PORT_RCV_DATA = 0x2000;
    /** CounterSelect: PortXmitPkts. */
    public static final int SEL_PORT_XMIT_PACKETS = 0x4000;
    /** CounterSelect: PortRcvPkts. */
    public static final int SEL_PORT_RCV_PACKETS = 0x8000;
    /** CounterSelect2: PortXmitWait. */
    public static final int SEL2_PORT_XMIT_WAIT = 0x01;

    /** Port to read or reset, 8 bits ({@link #PORT_SELECT_ALL} for all). */
    public int portSelect;
    /** Counters to reset on a Set, 16 bits ({@code SEL_*}). */
    public int counterSelect;
    /** Symbol errors, 16 bits. */
    public int symbolErrorCounter;
    /** Link error recoveries, 8 bits. */
    public int linkErrorRecoveryCounter;
    /** Links downed, 8 bits. */
    public int linkDownedCounter;
    /** Received packets with errors, 16 bits. */
    public int portRcvErrors;
    /** Received packets marked with EBP, 16 bits. */
    public int portRcvRemotePhysicalErrors;
    /** Packets a switch could not relay, 16 bits. */
    public int portRcvSwitchRelayErrors;
    /** Outbound packets discarded, 16 bits. */
    public int portXmitDiscards;
    /** Outbound packets not sent due to constraints, 8 bits. */
    public int portXmitConstraintErrors;
    /** Inbound packets discarded due to constraints, 8 bits. */
    public int portRcvConstraintErrors;
    /** Further counters to reset on a Set, 8 bits ({@code SEL2_*}). */
    public int counterSelect2;
    /** Local link integrity threshold exceeded, 4 bits. */
    public int localLinkIntegrityErrors;
    /** Excessive buffer overrun threshold exceeded, 4 bits. */
    public int excessiveBufferOverrunErrors;
    /** VL15 packets dropped, 16 bits. */
    public int vl15Dropped;
    /** Data words transmitted (octets / 4), 32 bits (held as a signed {@code int}). */
    public int portXmitData;
    /** Data words received (octets / 4), 32 bits (held as a signed {@code int}). */
    public int portRcvData;
    /** Packets transmitted, 32 bits (held as a signed {@code int}). */
    public int portXmitPkts;
    /** Packets received, 32 bits (held as a signed {@code int}). */
    public int portRcvPkts;
    /** Ticks spent waiting to transmit, 32 bits (held as a signed {@code int}). */
    public int portXmitWait;

    /** The field table. */
    public static final List<IbField<PortCounters>> TABLE = List.of(
            IbField.reserved(0, 0, 8),
            IbField.of("pc:port_select", 0, 8, 8, a -> a.portSelect, (a, v) -> a.portSelect = (int) v),
            IbField.of("pc:counter_select", 0, 16, 16, a -> a.counterSelect, (a, v) -> a.counterSelect = (int) v),
            IbField.of("pc:symbol_error_counter", 1, 0, 16,
                    a -> a.symbolErrorCounter, (a, v) -> a.symbolErrorCounter = (int) v),
            IbField.of("pc:link_error_recovery_counter", 1, 16, 8,
                    a -> a.linkErrorRecoveryCounter, (a, v) -> a.linkErrorRecoveryCounter = (int) v),
            IbField.of("pc:link_downed_counter", 1, 24, 8,
                    a -> a.linkDownedCounter, (a, v) -> a.linkDownedCounter = (int) v),
            IbField.of("pc:port_rcv_errors", 2, 0, 16, a -> a.portRcvErrors, (a, v) -> a.portRcvErrors = (int) v),
            IbField.of("pc:port_rcv_remphys_errors", 2, 16, 16,
                    a -> a.portRcvRemotePhysicalErrors, (a, v) -> a.portRcvRemotePhysicalErrors = (int) v),
            IbField.of("pc:port_rcv_switch_relay_errors", 3, 0, 16,
                    a -> a.portRcvSwitchRelayErrors, (a, v) -> a.portRcvSwitchRelayErrors = (int) v),
            IbField.of("pc:port_xmit_discards", 3, 16, 16,
                    a -> a.portXmitDiscards, (a, v) -> a.portXmitDiscards = (int) v),
            IbField.of("pc:port_xmit_constraint_errors", 4, 0, 8,
                    a -> a.portXmitConstraintErrors, (a, v) -> a.portXmitConstraintErrors = (int) v),
            IbField.of("pc:port_rcv_constraint_errors", 4, 8, 8,
                    a -> a.portRcvConstraintErrors, (a, v) -> a.portRcvConstraintErrors = (int) v),
            IbField.of("pc:counter_select2", 4, 16, 8, a -> a.counterSelect2, (a, v) -> a.counterSelect2 = (int) v),
            IbField.of("pc:local_link_integrity_errors", 4, 24, 4,
                    a -> a.localLinkIntegrityErrors, (a, v) -> a.localLinkIntegrityErrors = (int) v),
            IbField.of("pc:excessive_buffer_overrun_errors", 4, 28, 4,
                    a -> a.excessiveBufferOverrunErrors, (a, v) -> a.excessiveBufferOverrunErrors = (int) v),
            IbField.reserved(5, 0, 16),
            IbField.of("pc:vl15_dropped", 5, 16, 16, a -> a.vl15Dropped, (a, v) -> a.vl15Dropped = (int) v),
            IbField.of("pc:port_xmit_data", 6, 0, 32,
                    a -> a.portXmitData & 0xFFFF_FFFFL, (a, v) -> a.portXmitData = (int) v),
            IbField.of("pc:port_rcv_data", 7, 0, 32,
                    a -> a.portRcvData & 0xFFFF_FFFFL, (a, v) -> a.portRcvData = (int) v),
            IbField.of("pc:port_xmit_packets", 8, 0, 32,
                    a -> a.portXmitPkts & 0xFFFF_FFFFL, (a, v) -> a.portXmitPkts = (int) v),
            IbField.of("pc:port_rcv_packets", 9, 0, 32,
                    a -> a.portRcvPkts & 0xFFFF_FFFFL, (a, v) -> a.portRcvPkts = (int) v),
            IbField.of("pc:port_xmit_wait", 10, 0, 32,
                    a -> a.portXmitWait & 0xFFFF_FFFFL, (a, v) -> a.portXmitWait = (int) v));

    /** Creates an all-zero attribute. */
    public PortCounters() {
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
    public PortCounters unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this attribute */
    public PortCounters copy() {
        PortCounters c = new PortCounters();
        c.portSelect = portSelect;
        c.counterSelect = counterSelect;
        c.symbolErrorCounter = symbolErrorCounter;
        c.linkErrorRecoveryCounter = linkErrorRecoveryCounter;
        c.linkDownedCounter = linkDownedCounter;
        c.portRcvErrors = portRcvErrors;
        c.portRcvRemotePhysicalErrors = portRcvRemotePhysicalErrors;
        c.portRcvSwitchRelayErrors = portRcvSwitchRelayErrors;
        c.portXmitDiscards = portXmitDiscards;
        c.portXmitConstraintErrors = portXmitConstraintErrors;
        c.portRcvConstraintErrors = portRcvConstraintErrors;
        c.counterSelect2 = counterSelect2;
        c.localLinkIntegrityErrors = localLinkIntegrityErrors;
        c.excessiveBufferOverrunErrors = excessiveBufferOverrunErrors;
        c.vl15Dropped = vl15Dropped;
        c.portXmitData = portXmitData;
        c.portRcvData = portRcvData;
        c.portXmitPkts = portXmitPkts;
        c.portRcvPkts = portRcvPkts;
        c.portXmitWait = portXmitWait;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PortCounters)) {
            return false;
        }
        PortCounters a = (PortCounters) o;
        return portSelect == a.portSelect && counterSelect == a.counterSelect
                && symbolErrorCounter == a.symbolErrorCounter
                && linkErrorRecoveryCounter == a.linkErrorRecoveryCounter
                && linkDownedCounter == a.linkDownedCounter && portRcvErrors == a.portRcvErrors
                && portRcvRemotePhysicalErrors == a.portRcvRemotePhysicalErrors
                && portRcvSwitchRelayErrors == a.portRcvSwitchRelayErrors && portXmitDiscards == a.portXmitDiscards
                && portXmitConstraintErrors == a.portXmitConstraintErrors
                && portRcvConstraintErrors == a.portRcvConstraintErrors && counterSelect2 == a.counterSelect2
                && localLinkIntegrityErrors == a.localLinkIntegrityErrors
                && excessiveBufferOverrunErrors == a.excessiveBufferOverrunErrors && vl15Dropped == a.vl15Dropped
                && portXmitData == a.portXmitData && portRcvData == a.portRcvData
                && portXmitPkts == a.portXmitPkts && portRcvPkts == a.portRcvPkts && portXmitWait == a.portXmitWait;
    }

    @Override
    public int hashCode() {
        return Objects.hash(portSelect, counterSelect, symbolErrorCounter, linkErrorRecoveryCounter,
                linkDownedCounter, portRcvErrors, portRcvRemotePhysicalErrors, portRcvSwitchRelayErrors,
                portXmitDiscards, portXmitConstraintErrors, portRcvConstraintErrors, counterSelect2,
                localLinkIntegrityErrors, excessiveBufferOverrunErrors, vl15Dropped, portXmitData, portRcvData,
                portXmitPkts, portRcvPkts, portXmitWait);
    }

    @Override
    public String toString() {
        return String.format("PortCounters{portSelect=%d, counterSelect=0x%04x, symbolErrorCounter=%d, "
                        + "linkErrorRecoveryCounter=%d, linkDownedCounter=%d, portRcvErrors=%d, "
                        + "portRcvRemotePhysicalErrors=%d, portRcvSwitchRelayErrors=%d, portXmitDiscards=%d, "
                        + "portXmitConstraintErrors=%d, portRcvConstraintErrors=%d, counterSelect2=0x%02x, "
                        + "localLinkIntegrityErrors=%d, excessiveBufferOverrunErrors=%d, vl15Dropped=%d, "
                        + "portXmitData=%d, portRcvData=%d, portXmitPkts=%d, portRcvPkts=%d, portXmitWait=%d}",
                portSelect, counterSelect, symbolErrorCounter, linkErrorRecoveryCounter, linkDownedCounter,
                portRcvErrors, portRcvRemotePhysicalErrors, portRcvSwitchRelayErrors, portXmitDiscards,
                portXmitConstraintErrors, portRcvConstraintErrors, counterSelect2, localLinkIntegrityErrors,
                excessiveBufferOverrunErrors, vl15Dropped, portXmitData & 0xFFFF_FFFFL, portRcvData & 0xFFFF_FFFFL,
                portXmitPkts & 0xFFFF_FFFFL, portRcvPkts & 0xFFFF_FFFFL, portXmitWait & 0xFFFF_FFFFL);
    }
}
