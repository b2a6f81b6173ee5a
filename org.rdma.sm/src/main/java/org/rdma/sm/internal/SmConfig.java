package org.rdma.sm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * One subnet manager instance (factory PID {@code org.rdma.sm}): the options of
 * {@code opensm -g GUID -p PRIORITY} and {@code sweep_interval} in opensm.conf.
 *
 * <p>Which device: device names ({@code mlx4_0}, ...) are handed out at run time in
 * registration order, so a configuration may instead name the node GUID, or leave both empty
 * to take the first InfiniBand device whose port {@link #port()} exists.
 */
@ObjectClassDefinition(pid = SmComponent.PID, name = "RDMA subnet manager",
        description = "Runs a subnet manager and SA on one port of an RDMA device (OpenSM).")
@interface SmConfig {
    @AttributeDefinition(name = "Device", required = false,
            description = "Device name, e.g. mlx4_0; empty: any (see node GUID)")
    String device() default "";

    @AttributeDefinition(name = "Node GUID", required = false,
            description = "Node GUID of the device, hexadecimal (0x and colons allowed); empty: any")
    String nodeGuid() default "";

    @AttributeDefinition(name = "Port", description = "Port number the SM runs on")
    int port() default 1;

    @AttributeDefinition(name = "Sweep period (s)", description = "Periodic re-sweep; 0 sweeps on traps only")
    int sweepPeriodSeconds() default 10;

    @AttributeDefinition(name = "SM priority", description = "SMInfo:Priority, 0..15")
    int smPriority() default 0;
}
