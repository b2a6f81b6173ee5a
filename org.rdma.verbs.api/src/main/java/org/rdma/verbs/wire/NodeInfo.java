package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The NodeInfo SMP attribute (IBTA vol. 1, 14.2.5.3), attribute ID
 * {@link Smp#IB_SMP_ATTR_NODE_INFO}, 40 bytes.
 *
 * <p>Mirrors {@code struct ib_node_info} (include/rdma/ib_smi.h).
 *
 * <pre>
 *  word 0:     BaseVersion(8) | ClassVersion(8) | NodeType(8) | NumPorts(8)
 *  words 1-2:  SystemImageGUID(64)
 *  words 3-4:  NodeGUID(64)
 *  words 5-6:  PortGUID(64)
 *  word 7:     PartitionCap(16) | DeviceID(16)
 *  word 8:     Revision(32)
 *  word 9:     LocalPortNum(8) | VendorID(24)
 * </pre>
 */
public final class NodeInfo implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_NODE_INFO;
    /** Size on the wire. */
    public static final int BYTES = 40;

    /** NodeType of a channel adapter. */
    public static final int NODE_TYPE_CA = 1;
    /** NodeType of a switch. */
    public static final int NODE_TYPE_SWITCH = 2;
    /** NodeType of a router. */
    public static final int NODE_TYPE_ROUTER = 3;

    /** Supported MAD base version, 8 bits. */
    public int baseVersion;
    /** Supported SM class version, 8 bits. */
    public int classVersion;
    /** Node type, 8 bits ({@code NODE_TYPE_*}). */
    public int nodeType;
    /** Number of physical ports, 8 bits. */
    public int numPorts;
    /** System image GUID, 64 bits. */
    public long sysImageGuid;
    /** Node GUID, 64 bits. */
    public long nodeGuid;
    /** GUID of the port the SMP was received on (port 0 for a switch), 64 bits. */
    public long portGuid;
    /** Number of P_Key table entries per port, 16 bits. */
    public int partitionCap;
    /** Device ID, 16 bits. */
    public int deviceId;
    /** Device revision, 32 bits (held as a signed {@code int} with the same bit pattern). */
    public int revision;
    /** The port the SMP was received on, 8 bits. */
    public int localPortNum;
    /** IEEE OUI of the vendor, 24 bits. */
    public int vendorId;

    /** The field table. */
    public static final List<IbField<NodeInfo>> TABLE = List.of(
            IbField.of("node_info:base_version", 0, 0, 8, a -> a.baseVersion, (a, v) -> a.baseVersion = (int) v),
            IbField.of("node_info:class_version", 0, 8, 8, a -> a.classVersion, (a, v) -> a.classVersion = (int) v),
            IbField.of("node_info:node_type", 0, 16, 8, a -> a.nodeType, (a, v) -> a.nodeType = (int) v),
            IbField.of("node_info:num_ports", 0, 24, 8, a -> a.numPorts, (a, v) -> a.numPorts = (int) v),
            IbField.of("node_info:sys_guid", 1, 0, 64, a -> a.sysImageGuid, (a, v) -> a.sysImageGuid = v),
            IbField.of("node_info:node_guid", 3, 0, 64, a -> a.nodeGuid, (a, v) -> a.nodeGuid = v),
            IbField.of("node_info:port_guid", 5, 0, 64, a -> a.portGuid, (a, v) -> a.portGuid = v),
            IbField.of("node_info:partition_cap", 7, 0, 16, a -> a.partitionCap, (a, v) -> a.partitionCap = (int) v),
            IbField.of("node_info:device_id", 7, 16, 16, a -> a.deviceId, (a, v) -> a.deviceId = (int) v),
            IbField.of("node_info:revision", 8, 0, 32, a -> a.revision & 0xFFFF_FFFFL, (a, v) -> a.revision = (int) v),
            IbField.of("node_info:local_port_num", 9, 0, 8, a -> a.localPortNum, (a, v) -> a.localPortNum = (int) v),
            IbField.of("node_info:vendor_id", 9, 8, 24, a -> a.vendorId, (a, v) -> a.vendorId = (int) v));

    /** Creates an all-zero attribute. */
    public NodeInfo() {
    }

    @Override
    public int attrId() {
        return ATTR_ID;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return BYTES;
    }

    /**
     * Unpacks this attribute with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this attribute
     */
    public NodeInfo unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this attribute */
    public NodeInfo copy() {
        NodeInfo c = new NodeInfo();
        c.baseVersion = baseVersion;
        c.classVersion = classVersion;
        c.nodeType = nodeType;
        c.numPorts = numPorts;
        c.sysImageGuid = sysImageGuid;
        c.nodeGuid = nodeGuid;
        c.portGuid = portGuid;
        c.partitionCap = partitionCap;
        c.deviceId = deviceId;
        c.revision = revision;
        c.localPortNum = localPortNum;
        c.vendorId = vendorId;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof NodeInfo)) {
            return false;
        }
        NodeInfo a = (NodeInfo) o;
        return baseVersion == a.baseVersion && classVersion == a.classVersion && nodeType == a.nodeType
                && numPorts == a.numPorts && sysImageGuid == a.sysImageGuid && nodeGuid == a.nodeGuid
                && portGuid == a.portGuid && partitionCap == a.partitionCap && deviceId == a.deviceId
                && revision == a.revision && localPortNum == a.localPortNum && vendorId == a.vendorId;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseVersion, classVersion, nodeType, numPorts, sysImageGuid, nodeGuid, portGuid,
                partitionCap, deviceId, revision, localPortNum, vendorId);
    }

    @Override
    public String toString() {
        return String.format("NodeInfo{baseVersion=%d, classVersion=%d, nodeType=%d, numPorts=%d, "
                        + "sysImageGuid=0x%016x, nodeGuid=0x%016x, portGuid=0x%016x, partitionCap=%d, "
                        + "deviceId=0x%04x, revision=0x%08x, localPortNum=%d, vendorId=0x%06x}",
                baseVersion, classVersion, nodeType, numPorts, sysImageGuid, nodeGuid, portGuid, partitionCap,
                deviceId, revision, localPortNum, vendorId);
    }
}
