package org.rdma.fabric.ibsim;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.fabric.FabricPort;
import org.rdma.verbs.wire.PortInfo;

/**
 * A port of a simulated HCA made a node of a running ibsim simulator: the port is cabled to a
 * gateway that carries its QP0/QP1 MADs to ibsim as {@link SimRequest} frames and delivers the
 * frames ibsim sends back as InfiniBand packets, so the MAD layer, the SA client and the CM run
 * against the subnet ibsim simulates and the SM that manages it (OpenSM under umad2sim).
 *
 * <p>ibsim's own model of the node answers every SMP addressed to it (NodeInfo, PortInfo, ...)
 * and is the state the SM configures; the attachment mirrors that state (LID, LMC, MasterSMLID,
 * GID prefix, PortState) into the HCA's embedded SMA with SubnSet(PortInfo), as a local SM would.
 * Created by {@link IbsimAttachments#attach}, or per configuration of the factory PID
 * {@code org.rdma.fabric.ibsim} (then also published as a service).
 */
@ProviderType
public interface IbsimAttachment extends AutoCloseable {

    /**
     * What the gateway did, for tests and diagnostics.
     *
     * @param framesToIbsim   MADs of the HCA sent to ibsim
     * @param framesFromIbsim MADs from ibsim delivered to the HCA
     * @param bounced         requests of the HCA that ibsim returned undelivered (status 110)
     * @param dropped         packets or frames that were not MADs, and MADs lost on a socket error
     * @param trapsSuppressed traps of the HCA's SMA not forwarded (ibsim's node model is the SMA)
     * @param tidsRestored    responses whose TID bits 63..48 were put back
     * @param portInfoSets    SubnSet(PortInfo) applied to the HCA's SMA to mirror ibsim's port
     * @param ctlErrors       control requests (PortInfo polls) that failed or timed out
     */
    record Stats(long framesToIbsim, long framesFromIbsim, long bounced, long dropped, long trapsSuppressed,
                 long tidsRestored, long portInfoSets, long ctlErrors) {
    }

    /** @return the ibsim client index ({@code sc->clientid}), also in TID bits 63..48 of the requests sent */
    int clientId();

    /** @return the ibsim node id the port is attached as */
    String nodeId();

    /** @return the HCA port that is the ibsim node's port */
    FabricPort localPort();

    /** @return the gateway's end of the cable to {@link #localPort()} */
    FabricPort gatewayPort();

    /** @return ibsim's PortInfo of the node's port as last read ({@code SIM_CTL_GET_PORTINFO}) */
    PortInfo ibsimPortInfo();

    /** @return counters of frames carried, dropped and mirrored */
    Stats stats();

    /**
     * Detaches: stops the PortInfo poll, disconnects from ibsim ({@code SIM_CTL_DISCONNECT}) and
     * unplugs the gateway from the HCA port (the link goes down). Idempotent.
     */
    @Override
    void close();
}
