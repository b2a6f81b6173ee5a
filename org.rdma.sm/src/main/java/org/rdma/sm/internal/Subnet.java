package org.rdma.sm.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * What one discovery sweep found: OpenSM's {@code osm_subn_t} with its node table
 * ({@code osm_node_t}), physical ports ({@code osm_physp_t}, here {@link Node#ports} and
 * {@link Node#peers}) and end ports ({@code osm_port_t}: every CA port and every switch's port 0,
 * the ports that carry a LID). Built by one sweep and then only read: the SA answers from the
 * last complete one while the next is being built. Confined to the SM's serial executor.
 */
final class Subnet {
    /** The far end of a cable: {@code osm_physp_t.p_remote_physp}. */
    record Peer(Node node, int port) {
    }

    /** A node: {@code osm_node_t}. */
    static final class Node {
        final NodeInfo info;
        /** The directed route the SM reached it by (output ports, the SM's own port first). */
        final int[] path;
        NodeDescription desc = new NodeDescription();
        SwitchInfo switchInfo;
        /** PortInfo by port number (index 0: a switch's management port). */
        final PortInfo[] ports;
        /** What each port is cabled to, as discovered. */
        final Peer[] peers;

        Node(NodeInfo info, int[] path) {
            this.info = info;
            this.path = path;
            this.ports = new PortInfo[info.numPorts + 1];
            this.peers = new Peer[info.numPorts + 1];
        }

        long guid() {
            return info.nodeGuid;
        }

        boolean isSwitch() {
            return info.nodeType == NodeInfo.NODE_TYPE_SWITCH;
        }

        @Override
        public String toString() {
            return (isSwitch() ? "switch " : "ca ") + Long.toHexString(guid()) + " \"" + desc.text() + "\"";
        }
    }

    /** A port with a LID: {@code osm_port_t}. A switch's is port 0. */
    static final class EndPort {
        final long guid;
        final Node node;
        final int portNum;
        final int[] path;
        int lid;

        EndPort(long guid, Node node, int portNum, int[] path) {
            this.guid = guid;
            this.node = node;
            this.portNum = portNum;
            this.path = path;
        }

        PortInfo portInfo() {
            return node.ports[portNum];
        }

        Gid gid(long prefix) {
            return Gid.of(prefix, guid);
        }

        /**
         * The switch port this end port's traffic enters the fabric by: the switch itself (port
         * 0) for a switch, the cabled switch port for a CA, {@code null} for a CA not cabled to a
         * switch.
         */
        Peer attachment() {
            if (node.isSwitch()) {
                return new Peer(node, 0);
            }
            Peer p = node.peers[portNum];
            return p != null && p.node.isSwitch() ? p : null;
        }

        @Override
        public String toString() {
            return node + " port " + portNum + " lid " + lid;
        }
    }

    /** Nodes by node GUID, in discovery (breadth-first) order. */
    final Map<Long, Node> nodes = new LinkedHashMap<>();
    /** End ports by port GUID, in discovery order. */
    final Map<Long, EndPort> ports = new LinkedHashMap<>();
    /** End ports by LID, once LIDs are assigned. */
    final Map<Integer, EndPort> byLid = new HashMap<>();
    /** The linear forwarding table computed for each switch, indexed by LID. */
    final Map<Node, int[]> lfts = new HashMap<>();
    /** Highest LID in use: SwitchInfo:LinearFDBTop. */
    int maxLid;

    List<Node> switches() {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes.values()) {
            if (n.isSwitch()) {
                out.add(n);
            }
        }
        return out;
    }

    /** Records a cable between two discovered ports ({@code osm_physp_link()}). */
    static void link(Node a, int pa, Node b, int pb) {
        if (pa > 0 && pa < a.peers.length && pb > 0 && pb < b.peers.length) {
            a.peers[pa] = new Peer(b, pb);
            b.peers[pb] = new Peer(a, pa);
        }
    }

    static boolean linkUp(PortInfo pi) {
        return pi != null && pi.portState >= PortInfo.PORT_STATE_INIT;
    }

    static int[] append(int[] path, int port) {
        int[] p = java.util.Arrays.copyOf(path, path.length + 1);
        p[path.length] = port;
        return p;
    }
}
