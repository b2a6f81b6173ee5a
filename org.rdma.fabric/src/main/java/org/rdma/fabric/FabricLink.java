package org.rdma.fabric;

import java.io.IOException;
import java.nio.file.Path;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortWidth;

/**
 * A cable between two ports (IBTA vol. 1, chapter 5 physical link; ibsim's
 * {@code Port::remoteport} pair), with per-direction faults and a capture tap.
 *
 * <p>The link is up when the cable is present, both ends exist (a CA slot's driver is
 * attached) and neither port is disabled; then both ports are LinkUp and their PortState Init.
 */
@ProviderType
public interface FabricLink {

    /** @return one end, the first port named in the topology (ibsim's {@code Port}; {@code port->remoteport} is the other) */
    FabricPort endA();

    /** @return the other end ({@code remoteport} of {@link #endA()}) */
    FabricPort endB();

    /**
     * @param port one end of this link
     * @return the other end
     * @throws IllegalArgumentException if {@code port} is not an end of this link
     */
    FabricPort other(FabricPort port);

    /** @return the link width both ends train to (LinkWidthActive) */
    PortWidth width();

    /** @return the link speed both ends train to (LinkSpeedActive) */
    PortSpeed speed();

    /** @return whether the link is up: both ends PortPhysicalState LinkUp */
    boolean isUp();

    /** @return whether the cable is plugged in (ibsim's {@code unlink}/{@code relink} console commands toggle it) */
    boolean isCablePresent();

    /**
     * Pulls the cable: the link goes down, both ends see PortPhysicalState Polling and PortState
     * Down, their LinkDownedCounter counts, and their listeners hear {@link PortEvent.Type#LINK_DOWN}.
     * Packets in flight on the link (delayed by a fault) are lost.
     */
    void cablePull();

    /** Plugs the cable back in: the link trains (if both ends are there) and both ends hear LINK_UP. */
    void cableRestore();

    /**
     * Sets the faults of both directions.
     *
     * @param faults the faults, {@link FaultProfile#NONE} to clear
     */
    void setFaults(FaultProfile faults);

    /**
     * Sets the faults of one direction.
     *
     * @param from   the transmitting end
     * @param faults the faults of packets sent by {@code from}
     */
    void setFaults(FabricPort from, FaultProfile faults);

    /**
     * @param from the transmitting end
     * @return the faults of packets sent by {@code from}
     */
    FaultProfile faults(FabricPort from);

    /**
     * @param from the transmitting end
     * @return what the faults did to packets sent by {@code from}
     */
    FaultCounters faultCounters(FabricPort from);

    /**
     * Starts capturing both directions to a pcap file: InfiniBand links as LINKTYPE_ERF (197)
     * records of ERF type 21 (InfiniBand), as ibdump writes, with the ERF capture interface 0 for
     * packets sent by {@link #endA()} and 1 for {@link #endB()}; Ethernet links as LINKTYPE_ETHERNET
     * (1). Packets are recorded as they arrive at the far end of the cable (after faults; dropped
     * packets do not appear, corrupted ones do), materialized with their CRCs.
     *
     * @param file the file to create (replaced if it exists)
     * @return the running capture; close it to stop
     * @throws IOException if the file cannot be created
     */
    Capture capture(Path file) throws IOException;
}
