package org.rdma.hca.rxe.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * One Soft-RoCE device (factory PID {@value RxeComponent#PID}), the configuration form of
 * {@code rdma link add rxe0 type rxe netdev lo}.
 */
@ObjectClassDefinition(name = "RDMA Soft-RoCE (rxe)",
        description = "A Soft-RoCE device on a host network interface: RoCEv2 over real UDP sockets.")
public @interface RxeConfig {
    /** @return the network interface */
    @AttributeDefinition(name = "Network interface", description = "The netdev the device is bound to (e.g. eth0, lo).")
    String netdev() default "lo";

    /** @return the device name template */
    @AttributeDefinition(name = "Name template", description = "ib_register_device() name template, e.g. rxe%d.")
    String name_template() default "rxe%d";

    /** @return the local UDP port */
    @AttributeDefinition(name = "UDP port", description = "The UDP port this device receives RoCEv2 on (4791 is the IANA port).",
            min = "1", max = "65535")
    int udp_port() default 4791;

    /** @return the destination UDP port */
    @AttributeDefinition(name = "Remote UDP port",
            description = "The UDP port packets are sent to; 0 means the same as the UDP port. Only useful to run two "
                    + "devices on one host (tests).", min = "0", max = "65535")
    int remote_udp_port() default 0;

    /** @return addresses to bind */
    @AttributeDefinition(name = "Bind addresses", required = false,
            description = "Only these of the interface's addresses get a receive socket; empty: every address.")
    String[] bind_address() default {};

    /** @return the GID poll period */
    @AttributeDefinition(name = "Address poll period (ms)",
            description = "How often the interface's addresses, MTU and state are re-read (GID_CHANGE events).", min = "100")
    int poll_ms() default 2000;

    /** @return the receive drop probability */
    @AttributeDefinition(name = "Receive drop probability (fault injection)",
            description = "The probability (0..1) that a received datagram is dropped before it is looked at, as if "
                    + "lost on the wire; 0 disables. Drops are counted. For tests of the transport's recovery.",
            min = "0", max = "1")
    double rx_drop_probability() default 0;

    /** @return the seed of the drop decisions */
    @AttributeDefinition(name = "Receive drop seed", description = "Seed of the drop decisions, so a lossy run "
            + "can be repeated.")
    long rx_drop_seed() default 1;

    /** @return the send queue depth */
    @AttributeDefinition(name = "Send queue depth", description = "Datagram buffers (being sent, or queued for the "
            + "send thread while a socket buffer is full) before transmit answers -EAGAIN.", min = "16")
    int send_queue() default 1024;
}
