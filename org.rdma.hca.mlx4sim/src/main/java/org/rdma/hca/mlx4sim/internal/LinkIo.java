package org.rdma.hca.mlx4sim.internal;

import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketSink;
import org.rdma.rvt.RvtPacket;

/**
 * The link side of one port: how a ConnectX-3 port wraps a transport packet for the wire on send
 * ({@code mlx4_ib_post_send()} with the address vector the hardware turns into LRH/GRH or
 * Ethernet/IP/UDP headers; {@code build_mlx_header()} for QP0/QP1) and checks and strips them on
 * receive before the transport sees the packet.
 */
interface LinkIo extends PacketSink {
    /**
     * Sends one transport packet ({@code RvtDriver.transmit}).
     *
     * @return 0 (sent, looped back or dropped and counted)
     */
    int transmit(RvtPacket pkt);

    /**
     * Puts a fully built frame on the wire, or loops it back inside the HCA when it is addressed
     * to this port (ConnectX loopback). Consumes the caller's reference.
     */
    void sendFrame(Packet p);
}
