package org.rdma.fabric;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * The receive side of a port: what an HCA driver plugs into a {@link FabricPort}, the
 * counterpart of a driver's receive handler ({@code rxe_rcv()}, the mlx4 completion of a receive
 * descriptor). The fabric calls it on the sender's thread (or on the clock's thread for a packet
 * a fault delayed), never while holding a fabric lock.
 */
@ConsumerType
@FunctionalInterface
public interface PacketSink {
    /**
     * Receives one packet that passed the port's checks (CRCs of a materialized packet, port
     * state, length). The fabric releases the packet when this method returns; call
     * {@link Packet#retain()} (and {@link Packet#retainPayload()} for a payload that must outlive
     * the sender's completion) to keep it.
     *
     * @param packet the packet
     */
    void receive(Packet packet);
}
