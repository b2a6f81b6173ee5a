package org.rdma.hca.mlx4sim.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * One simulated ConnectX-3 (factory PID {@value Mlx4Component#PID}): the module parameters and
 * firmware port configuration of an mlx4 device ({@code mlx4_core}'s {@code port_type_array},
 * the netdevs of {@code mlx4_en}).
 */
@ObjectClassDefinition(name = "RDMA simulated ConnectX-3 (mlx4)",
        description = "A simulated Mellanox ConnectX-3 HCA on a simulated fabric: InfiniBand or RoCEv2 ports.")
public @interface Mlx4Config {
    /** @return the device name template */
    @AttributeDefinition(name = "Name template", description = "ib_register_device() name template, e.g. mlx4_%d.")
    String name_template() default "mlx4_%d";

    /** @return the host name in the NodeDescription */
    @AttributeDefinition(name = "Host name", description = "Start of the NodeDescription (\"<host> mlx4_N\").")
    String hostname() default "localhost";

    /** @return the fabric service filter */
    @AttributeDefinition(name = "Fabric", description = "Target filter on the Fabric service, e.g. (fabric.name=fabric0).")
    String fabric_target() default "(fabric.name=fabric0)";

    /** @return number of ports */
    @AttributeDefinition(name = "Ports", description = "Number of ports (1 or 2).", min = "1", max = "2")
    int ports() default 1;

    /** @return link layer per port */
    @AttributeDefinition(name = "Link layers", description = "Per port: InfiniBand (ib) or Ethernet (eth).")
    String[] link_layer() default {"ib"};

    /** @return the topology CA slot */
    @AttributeDefinition(name = "CA slot", required = false,
            description = "Name or GUID of the topology CA slot to attach to; empty to create a new CA.")
    String ca_slot() default "";

    /** @return the name of a new CA */
    @AttributeDefinition(name = "CA name", required = false, description = "Name of the CA created when no slot is given.")
    String ca_name() default "";

    /** @return the switch new IB ports are cabled to */
    @AttributeDefinition(name = "Switch", required = false, description = "Switch (name or GUID) new IB ports are cabled to.")
    String switch_name() default "";

    /** @return switch port per HCA port */
    @AttributeDefinition(name = "Switch ports", required = false, description = "Per port: the switch port to cable it to.")
    int[] switch_ports() default {};

    /** @return the Ethernet segment */
    @AttributeDefinition(name = "Ethernet segment", description = "The Ethernet segment RoCE ports are cabled to.")
    String ethernet_segment() default "eth";

    /** @return node GUID */
    @AttributeDefinition(name = "Node GUID", required = false,
            description = "NodeInfo:NodeGUID in hexadecimal; empty: the slot's, or derived from the base GUID.")
    String node_guid() default "";

    /** @return base GUID */
    @AttributeDefinition(name = "Base GUID", description = "Base GUID new CAs derive their GUIDs from (hexadecimal).")
    String base_guid() default "0002c90300000000";

    /** @return IP addresses, "port:address" */
    @AttributeDefinition(name = "IP addresses", required = false,
            description = "Addresses of RoCE ports as port:address, e.g. 1:192.168.10.1 or 2:fd00::2.")
    String[] ip_addresses() default {};

    /** @return netdev names per port */
    @AttributeDefinition(name = "Netdevs", required = false, description = "Per port: the netdev name of an Ethernet port.")
    String[] netdev() default {};

    /** @return VLAN per port */
    @AttributeDefinition(name = "VLANs", required = false, description = "Per port: 802.1Q VLAN id, -1 for untagged.")
    int[] vlan() default {};
}
