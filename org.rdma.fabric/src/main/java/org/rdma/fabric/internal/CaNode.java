package org.rdma.fabric.internal;

import org.rdma.fabric.Packet;
import org.rdma.verbs.NodeType;

/**
 * A channel adapter slot (ibsim's {@code HCA_NODE}): ports whose packets go to the sinks an HCA
 * driver plugs in. The slot's cables train only while a driver is attached.
 */
final class CaNode extends NodeImpl {
    volatile boolean attached;

    CaNode(FabricImpl fabric, String name, NodeType type, long nodeGuid, long systemImageGuid, int vendorId,
           int deviceId, String description) {
        super(fabric, name, type, nodeGuid, systemImageGuid, vendorId, deviceId, description);
    }

    @Override
    void receive(PortImpl in, Packet p, int bytes, boolean mc) {
        in.deliverToSink(p);
    }

    @Override
    public boolean isAttached() {
        return attached;
    }

    @Override
    public void detach() {
        fabric.detach(this);
    }
}
