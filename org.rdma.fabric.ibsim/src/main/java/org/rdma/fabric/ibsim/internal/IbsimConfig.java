package org.rdma.fabric.ibsim.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.rdma.fabric.ibsim.IbsimAttachments;
import org.rdma.fabric.ibsim.IbsimClient;

/**
 * One attachment of a local HCA port to an ibsim simulator (factory PID
 * {@value IbsimComponent#PID}): the environment umad2sim reads ({@code IBSIM_SERVER_NAME},
 * {@code IBSIM_SERVER_PORT}, {@code SIM_HOST}) plus the local device and port.
 */
@ObjectClassDefinition(name = "RDMA ibsim attachment",
        description = "Makes a port of a local simulated HCA a node of a running ibsim simulator (ibsim -r), "
                + "so that it is managed by the SM on that simulated subnet (e.g. OpenSM under umad2sim).")
public @interface IbsimConfig {
    /** @return ibsim's host */
    @AttributeDefinition(name = "ibsim host", description = "Host of ibsim's control socket (IBSIM_SERVER_NAME); "
            + "IPv4 only. On 127.0.0.1 every socket stays on loopback.")
    String server_host() default "127.0.0.1";

    /** @return ibsim's control port */
    @AttributeDefinition(name = "ibsim port", description = "ibsim's control UDP port (IBSIM_SERVER_PORT, ibsim -l); "
            + "the client slots use the next 10 ports.", min = "1", max = "65524")
    int server_port() default IbsimClient.IBSIM_DEFAULT_SERVER_PORT;

    /** @return the node to attach as */
    @AttributeDefinition(name = "ibsim node", required = false, description = "Node id or NodeDescription in "
            + "ibsim's topology (SIM_HOST); its node GUID must be the local HCA's. Empty: ibsim's default node.")
    String node() default "";

    /** @return the local device service filter */
    @AttributeDefinition(name = "Device", description = "Target filter on the local IbDevice service, e.g. "
            + "(rdma.device.name=mlx4_0). Its node must be on the fabric selected by fabric.target.")
    String device_target() default "(rdma.device.name=mlx4_0)";

    /** @return the fabric service filter */
    @AttributeDefinition(name = "Fabric", description = "Target filter on the Fabric service the device's ports are "
            + "on, e.g. (fabric.name=fabric0).")
    String fabric_target() default "(fabric.name=fabric0)";

    /** @return the local port */
    @AttributeDefinition(name = "Port", description = "The device's port to attach (uncabled, InfiniBand).", min = "1")
    int port() default 1;

    /** @return whether QP0/QP1 requests are delivered */
    @AttributeDefinition(name = "Receive requests", description = "Whether ibsim delivers the QP0/QP1 requests "
            + "its own node model does not answer (GSI requests such as CM REQs) to this port.")
    boolean receive_requests() default true;

    /** @return the PortInfo poll interval */
    @AttributeDefinition(name = "PortInfo poll interval (ms)", description = "How often ibsim's PortInfo of the "
            + "node is read and mirrored into the HCA's SMA.", min = "1")
    long poll_interval_ms() default IbsimAttachments.Options.DEFAULT_POLL_INTERVAL_MS;

    /** @return the control timeout */
    @AttributeDefinition(name = "Control timeout (ms)", description = "How long a control request waits for ibsim.",
            min = "1")
    int ctl_timeout_ms() default IbsimAttachments.Options.DEFAULT_CTL_TIMEOUT_MS;
}
