package org.rdma.fabric;

/**
 * The PortCounters attribute of a port (IBTA vol. 1, 16.1.3.5, Performance Management) with
 * 64-bit values as PortCountersExtended carries them; {@code PortXmitData}/{@code PortRcvData}
 * count 4-byte words from the first LRH byte through the ICRC (for Ethernet, the frame without
 * FCS), as IBTA defines them.
 *
 * @param symbolErrorCounter         SymbolErrorCounter
 * @param linkErrorRecoveryCounter   LinkErrorRecoveryCounter
 * @param linkDownedCounter          LinkDownedCounter: times the link went down
 * @param portRcvErrors              PortRcvErrors: packets received with errors (ICRC/VCRC/FCS failures, malformed)
 * @param portRcvRemotePhysicalErrors PortRcvRemotePhysicalErrors
 * @param portRcvSwitchRelayErrors   PortRcvSwitchRelayErrors: packets a switch could not route (no LFT/MFT entry)
 * @param portXmitDiscards           PortXmitDiscards: outbound packets discarded (port down, not Active, SL mapped to VL15)
 * @param portXmitConstraintErrors   PortXmitConstraintErrors
 * @param portRcvConstraintErrors    PortRcvConstraintErrors
 * @param vl15Dropped                VL15Dropped: SMPs dropped (no SMA, port Down, malformed SMP)
 * @param portXmitData               PortXmitData, in 4-byte words
 * @param portRcvData                PortRcvData, in 4-byte words
 * @param portXmitPkts               PortXmitPkts
 * @param portRcvPkts                PortRcvPkts
 * @param portUnicastXmitPkts        PortUnicastXmitPkts (extended)
 * @param portUnicastRcvPkts         PortUnicastRcvPkts (extended)
 * @param portMulticastXmitPkts      PortMulticastXmitPkts (extended)
 * @param portMulticastRcvPkts       PortMulticastRcvPkts (extended)
 * @param portRcvStateDiscards       not an IBTA counter: packets dropped on receive because the port state refused them
 */
public record PortCounterSnapshot(long symbolErrorCounter, long linkErrorRecoveryCounter, long linkDownedCounter,
                                  long portRcvErrors, long portRcvRemotePhysicalErrors, long portRcvSwitchRelayErrors,
                                  long portXmitDiscards, long portXmitConstraintErrors, long portRcvConstraintErrors,
                                  long vl15Dropped, long portXmitData, long portRcvData, long portXmitPkts,
                                  long portRcvPkts, long portUnicastXmitPkts, long portUnicastRcvPkts,
                                  long portMulticastXmitPkts, long portMulticastRcvPkts, long portRcvStateDiscards) {
    /** The number of components. */
    public static final int COMPONENTS = 19;

    /** The components in declaration order (bit {@code i} of {@link FabricPort#clearCounters(long)} is element {@code i}). */
    public long[] toArray() {
        return new long[] {symbolErrorCounter, linkErrorRecoveryCounter, linkDownedCounter, portRcvErrors,
            portRcvRemotePhysicalErrors, portRcvSwitchRelayErrors, portXmitDiscards, portXmitConstraintErrors,
            portRcvConstraintErrors, vl15Dropped, portXmitData, portRcvData, portXmitPkts, portRcvPkts,
            portUnicastXmitPkts, portUnicastRcvPkts, portMulticastXmitPkts, portMulticastRcvPkts, portRcvStateDiscards};
    }
}
