/**
 * The simulated fabric: an InfiniBand subnet (ibsim's nodes, switches and links) and Ethernet
 * segments for RoCE, on which simulated HCA drivers put real IBTA-encoded packets.
 *
 * <ul>
 *   <li>{@link org.rdma.fabric.Fabric} — the subnet, one OSGi service per configuration of the
 *       factory PID {@code org.rdma.fabric}; {@link org.rdma.fabric.Fabrics} builds one without
 *       OSGi; {@link org.rdma.fabric.Topology} reads and writes the ibnetdiscover/ibsim topology
 *       format.</li>
 *   <li>{@link org.rdma.fabric.FabricNode}, {@link org.rdma.fabric.FabricSwitch},
 *       {@link org.rdma.fabric.FabricPort}, {@link org.rdma.fabric.FabricLink} — NodeInfo,
 *       SwitchInfo/LFT/MFT, PortInfo/PortCounters and cables with faults and capture.</li>
 *   <li>{@link org.rdma.fabric.Packet}, {@link org.rdma.fabric.PacketSink} — the pooled packet a
 *       driver transmits and receives, with the NIC-style CRC engines.</li>
 *   <li>{@link org.rdma.fabric.EthernetSegment}, {@link org.rdma.fabric.EthernetPort} — a learning
 *       bridge and RoCE ports with ARP and IPv6 neighbour discovery.</li>
 * </ul>
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rdma.fabric;
