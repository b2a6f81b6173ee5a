package org.rdma.fabric;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.NodeType;

/**
 * A node of the fabric: a channel adapter or a switch (IBTA vol. 1, 14.2.5.3 NodeInfo and
 * 14.2.5.2 NodeDescription; ibsim's {@code Node}), or the L2 switch of an
 * {@link EthernetSegment}.
 *
 * <p>A CA declared in a topology is a slot: an HCA driver {@linkplain Fabric#attach attaches} to
 * it to get its ports linked; the links of a slot stay down (the switch side Polling) until then.
 */
@ProviderType
public interface FabricNode {

    /** @return the subnet this node belongs to */
    Fabric fabric();

    /** @return the node's name in the topology (ibnetdiscover/ibsim node id, e.g. {@code "S-0002c90200400fc0"}) */
    String name();

    /** @return NodeInfo:NodeType (CA or SWITCH; UNSPECIFIED for an Ethernet L2 switch) */
    NodeType nodeType();

    /** @return NodeInfo:NodeGUID */
    long nodeGuid();

    /** @return NodeInfo:SystemImageGUID */
    long systemImageGuid();

    /** @return NodeInfo:VendorID (24 bits) */
    int vendorId();

    /** @return NodeInfo:DeviceID (16 bits) */
    int deviceId();

    /** @return NodeDescription (at most 64 bytes of UTF-8) */
    String nodeDescription();

    /**
     * Sets the NodeDescription ({@code ib_modify_device(IB_DEVICE_MODIFY_NODE_DESC)} on a CA,
     * SubnSet(NodeDescription) nowhere: it is read-only over the wire).
     *
     * @param description at most 64 bytes of UTF-8
     */
    void setNodeDescription(String description);

    /** @return NodeInfo:NumPorts (physical ports; a switch's port 0 is not counted) */
    int numPorts();

    /**
     * @param portNum 1..numPorts, or 0 on a switch
     * @return the port
     * @throws org.rdma.verbs.RdmaException {@code EINVAL} for a port the node does not have
     */
    FabricPort port(int portNum);

    /** @return the ports in port-number order (a switch's port 0 first) */
    List<FabricPort> ports();

    /** @return for a CA slot, whether an HCA driver is attached (an ibsim client connected to the node); always true for switches */
    boolean isAttached();

    /**
     * Releases a CA slot (the HCA driver goes away): its links go down and its sinks and
     * listeners are removed. The slot can be attached again.
     */
    void detach();
}
