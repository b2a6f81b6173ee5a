package org.rdma.fabric.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Packet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.RdmaException;

/**
 * What every node has: NodeInfo's identity fields, the NodeDescription and the ports (ibsim's
 * {@code struct Node}). Subclasses decide what a node does with a packet a port received.
 */
abstract class NodeImpl implements FabricNode {
    final FabricImpl fabric;
    final String name;
    final NodeType type;
    final long nodeGuid;
    final long systemImageGuid;
    final int vendorId;
    final int deviceId;
    volatile String description;
    /** Ports indexed by port number; index 0 is null except on switches. */
    volatile PortImpl[] ports;

    NodeImpl(FabricImpl fabric, String name, NodeType type, long nodeGuid, long systemImageGuid, int vendorId,
             int deviceId, String description) {
        this.fabric = fabric;
        this.name = name;
        this.type = type;
        this.nodeGuid = nodeGuid;
        this.systemImageGuid = systemImageGuid;
        this.vendorId = vendorId;
        this.deviceId = deviceId;
        this.description = description == null ? name : description;
    }

    /**
     * What the node does with a packet one of its ports received (after the port's checks).
     * Consumes the reference. {@code bytes} and {@code mc} are its data bytes and multicast kind
     * as {@code in} counted them, for a node that sends the packet on without changing either
     * ({@link PortImpl#send(Packet, int, boolean)}).
     */
    abstract void receive(PortImpl in, Packet p, int bytes, boolean mc);

    /** Called under the fabric lock when a port's PortState changed. */
    void portStateChanged(PortImpl port) {
    }

    /** Called under the fabric lock after a port's LID or LMC changed. */
    void lidChanged(PortImpl port) {
    }

    /** @return port 0 (switches only) */
    PortImpl port0() {
        return ports[0];
    }

    PortImpl portImpl(int portNum) {
        PortImpl[] ps = ports;
        if (portNum < 0 || portNum >= ps.length || ps[portNum] == null) {
            throw new RdmaException(Errno.EINVAL, "node \"" + name + "\" has no port " + portNum);
        }
        return ps[portNum];
    }

    @Override
    public Fabric fabric() {
        return fabric;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public NodeType nodeType() {
        return type;
    }

    @Override
    public long nodeGuid() {
        return nodeGuid;
    }

    @Override
    public long systemImageGuid() {
        return systemImageGuid;
    }

    @Override
    public int vendorId() {
        return vendorId;
    }

    @Override
    public int deviceId() {
        return deviceId;
    }

    @Override
    public String nodeDescription() {
        return description;
    }

    @Override
    public void setNodeDescription(String description) {
        if (description.getBytes(StandardCharsets.UTF_8).length > 64) {
            throw new RdmaException(Errno.EINVAL, "a NodeDescription has at most 64 bytes: \"" + description + "\"");
        }
        this.description = description;
    }

    @Override
    public int numPorts() {
        return ports.length - 1;
    }

    @Override
    public FabricPort port(int portNum) {
        return portImpl(portNum);
    }

    @Override
    public List<FabricPort> ports() {
        List<FabricPort> out = new ArrayList<>();
        for (PortImpl p : ports) {
            if (p != null) {
                out.add(p);
            }
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public boolean isAttached() {
        return true;
    }

    @Override
    public void detach() {
        throw new RdmaException(Errno.EINVAL, "\"" + name + "\" is not a CA slot");
    }

    @Override
    public String toString() {
        return type + " \"" + name + "\" " + String.format("0x%016x", nodeGuid);
    }
}
