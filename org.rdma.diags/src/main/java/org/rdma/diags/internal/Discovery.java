package org.rdma.diags.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * Fabric discovery with directed-route SMPs from the local port: libibnetdisc's
 * {@code ibnd_discover_fabric()} (libibnetdisc/ibnetdisc.c). NodeInfo of the local node, then
 * for every new node its NodeDescription, a switch's SwitchInfo and PortInfo of port 0 and of
 * every port, a CA's PortInfo of the port reached; every LinkUp switch port other than the one
 * the SMP came in on (and the local CA's own port) is followed one hop further. The requests run
 * one at a time in the order they were issued (a FIFO, libibnetdisc's SMP engine with in-order
 * replies), so the nodes are found in the order libibnetdisc finds them; a request without an
 * answer is counted and its branch left unexplored, as libibnetdisc does.
 */
final class Discovery {
    /** A node found ({@code ibnd_node_t}). */
    static final class Node {
        final long guid;
        final int type;
        final int numPorts;
        final NodeInfo info;
        final PortId path;
        final Port[] ports;
        String desc = "";
        int smaLid;
        int smaLmc;
        boolean enhancedPort0;

        Node(NodeInfo info, PortId path) {
            this.guid = info.nodeGuid;
            this.type = info.nodeType;
            this.numPorts = info.numPorts;
            this.info = info;
            this.path = path;
            this.ports = new Port[info.numPorts + 1];
        }

        boolean isSwitch() {
            return type == NodeInfo.NODE_TYPE_SWITCH;
        }

        @Override
        public String toString() {
            return String.format("node 0x%016x \"%s\"", guid, desc);
        }
    }

    /** A port found ({@code ibnd_port_t}). */
    static final class Port {
        final Node node;
        final int portNum;
        long guid;
        int baseLid;
        int lmc;
        PortInfo info;
        Port remote;

        Port(Node node, int portNum, long guid) {
            this.node = node;
            this.portNum = portNum;
            this.guid = guid;
        }
    }

    /**
     * What was found ({@code ibnd_fabric_t}).
     *
     * @param from     the local node
     * @param fromPort the local port
     * @param nodes    every node in the order found
     * @param smps     SMPs sent
     * @param failed   SMPs that got no (good) answer
     */
    record Fabric(Node from, int fromPort, List<Node> nodes, int smps, int failed) {
        /** The nodes of one type as {@code ibnd_iter_nodes_type()} walks them: newest first. */
        List<Node> ofType(int type) {
            List<Node> out = new ArrayList<>();
            for (int i = nodes.size() - 1; i >= 0; i--) {
                if (nodes.get(i).type == type) {
                    out.add(nodes.get(i));
                }
            }
            return out;
        }

        /** Every node as {@code ibnd_iter_nodes()} walks them: newest first. */
        List<Node> newestFirst() {
            List<Node> out = new ArrayList<>(nodes);
            Collections.reverse(out);
            return out;
        }
    }

    /** An SMP waiting its turn. */
    private record Request(PortId path, int attrId, int attrMod, Consumer<byte[]> onReply) {
    }

    private final MadRpc rpc;
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private final Map<Long, Node> byGuid = new LinkedHashMap<>();
    private final List<Node> nodes = new ArrayList<>();
    private Node from;
    private int fromPort;
    private int smps;
    private int failed;

    Discovery(MadRpc rpc) {
        this.rpc = rpc;
    }

    /**
     * Discovers the subnet from the local port.
     *
     * @throws RdmaException the local NodeInfo's failure (ETIMEDOUT ...): nothing can be found then
     */
    Fabric discover() {
        PortId self = PortId.directed();
        byte[] ni;
        try {
            ni = rpc.smpGet(self, NodeInfo.ATTR_ID, 0);
        } catch (RdmaException e) {
            throw DiagText.fail("discovery failed: NodeInfo of the local node", e);
        }
        smps++;
        nodeInfo(self, null, 0, ni);
        while (!queue.isEmpty()) {
            Request r = queue.poll();
            byte[] data;
            smps++;
            try {
                data = rpc.smpGet(r.path, r.attrId, r.attrMod);
            } catch (RdmaException e) {
                failed++;
                continue;
            }
            r.onReply.accept(data);
        }
        RdmaException.check(from != null, Errno.EIO, "discovery found no local node");
        return new Fabric(from, fromPort, List.copyOf(nodes), smps, failed);
    }

    private void issue(PortId path, int attrId, int attrMod, Consumer<byte[]> onReply) {
        queue.add(new Request(path, attrId, attrMod, onReply));
    }

    /** {@code recv_node_info()}: a node, new or known, reached from {@code remote}'s {@code remotePort}. */
    private void nodeInfo(PortId path, Node remote, int remotePort, byte[] data) {
        NodeInfo ni = new NodeInfo().unpack(data, 0);
        Node node = byGuid.get(ni.nodeGuid);
        boolean isNew = node == null;
        if (isNew) {
            node = new Node(ni, path);
            byGuid.put(node.guid, node);
            nodes.add(node);
        }
        int portNum = ni.localPortNum;
        if (portNum > node.numPorts) {
            failed++;
            return;
        }
        Port port = node.ports[portNum];
        if (port == null) {
            port = new Port(node, portNum, ni.portGuid);
            node.ports[portNum] = port;
        }
        port.guid = ni.portGuid;
        if (remote == null) {
            from = node;
            fromPort = portNum;
        } else {
            link(port, remote.ports[remotePort]);
        }
        Node n = node;
        if (isNew) {
            issue(path, Smp.IB_SMP_ATTR_NODE_DESC, 0, d -> n.desc = DiagText.nodeDesc(d, 0));
            if (node.isSwitch()) {
                issue(path, SwitchInfo.ATTR_ID, 0,
                        d -> n.enhancedPort0 = new SwitchInfo().unpack(d, 0).enhancedPort0);
                issue(path, PortInfo.ATTR_ID, 0, d -> port0Info(path, n, d));
            }
        }
        if (!node.isSwitch()) {
            issue(path, PortInfo.ATTR_ID, portNum, d -> portInfo(path, n, portNum, d));
        }
    }

    /** {@code link_ports()}: each end points at the other; a former partner is unlinked. */
    private static void link(Port a, Port b) {
        if (a.remote != null) {
            a.remote.remote = null;
        }
        if (b.remote != null) {
            b.remote.remote = null;
        }
        a.remote = b;
        b.remote = a;
    }

    /** {@code recv_port0_info()}: the switch's port 0, then PortInfo of every external port. */
    private void port0Info(PortId path, Node node, byte[] data) {
        portInfo(path, node, 0, data);
        for (int p = 1; p <= node.numPorts; p++) {
            int pn = p;
            issue(path, PortInfo.ATTR_ID, p, d -> portInfo(path, node, pn, d));
        }
    }

    /** {@code recv_port_info()}: records the port; a LinkUp port leading away is followed. */
    private void portInfo(PortId path, Node node, int portNum, byte[] data) {
        PortInfo pi = new PortInfo().unpack(data, 0);
        Port port = node.ports[portNum];
        if (port == null) {
            port = new Port(node, portNum, node.info.portGuid);
            node.ports[portNum] = port;
        }
        port.info = pi;
        port.baseLid = pi.lid;
        port.lmc = pi.lmc;
        if (portNum == 0) {
            node.smaLid = port.baseLid;
            node.smaLmc = port.lmc;
        } else if (node.isSwitch()) {
            port.baseLid = node.smaLid;
            port.lmc = node.smaLmc;
        }
        boolean linkUp = pi.portPhysState == PortInfo.PHYS_STATE_LINK_UP;
        boolean onward = node.isSwitch() && portNum != pi.localPortNum || node == from && portNum == fromPort;
        boolean room = path.path().length < Smp.IB_SMP_MAX_PATH_HOPS - 1;
        if (portNum != 0 && linkUp && onward && room && (path.lid() == 0 || node.isSwitch())) {
            PortId next = path.extend(portNum);
            issue(next, NodeInfo.ATTR_ID, 0, d -> nodeInfo(next, node, portNum, d));
        }
    }
}
