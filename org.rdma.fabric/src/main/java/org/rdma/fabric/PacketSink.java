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

    /**
     * Whether {@link #receive(Packet)} takes a whole {@linkplain Packet#segments() train}, the way
     * a NIC with receive offload takes coalesced segments ({@code NETIF_F_GRO}); otherwise the
     * fabric splits trains and hands over each packet.
     *
     * @return false unless the sink walks trains itself
     */
    default boolean receivesTrains() {
        return false;
    }
}
