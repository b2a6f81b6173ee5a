package org.rdma.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortState;
import org.rdma.verbs.time.VirtualClock;

/** Test fabrics, and what a subnet manager would do to them (activate ports, min-hop LFTs). */
final class Nets {
    static final String S1 = "S-0002c90300f0e0d0";
    static final String S2 = "S-0002c90300f0e1e0";
    static final String S3 = "S-0002c90300f0e2f0";
    static final String H1 = "H-0002c90300a1b2c0";
    static final String H2 = "H-0002c90300a1b4c0";
    static final String H3 = "H-0002c90300a1b3c0";
    static final String H4 = "H-0002c90300a1b5c0";

    private Nets() {
    }

    static String resource(String name) {
        try (InputStream in = Nets.class.getResourceAsStream("/topologies/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * H1 - S1 - S2 - S3 - H2, with H3 on S1 and H4 on S3 (resource three-switches.topo), all CA slots
     * attached, every port Active and the LFTs programmed; LIDs: S1 1, S2 2, S3 3, H1 10, H2 11, H3 12, H4 13.
     */
    static Fabric threeSwitches(VirtualClock clock, long seed) {
        Fabric f = Fabrics.create("test", Topology.parse(resource("three-switches.topo")), clock, seed);
        for (FabricNode n : f.nodes()) {
            if (n.nodeType() == NodeType.CA) {
                f.attach(n.name());
            }
        }
        activateAll(f);
        programLfts(f);
        return f;
    }

    /** Init -> Armed -> Active on every port whose link is up, and on switch ports 0. */
    static void activateAll(Fabric f) {
        for (FabricNode n : f.nodes()) {
            for (FabricPort p : n.ports()) {
                if (p.portState() == PortState.INIT) {
                    p.setPortState(PortState.ARMED);
                    p.setPortState(PortState.ACTIVE);
                }
            }
        }
    }

    /** Min-hop routes to every LID (switch port 0 LIDs and CA LIDs), by breadth-first search. */
    static void programLfts(Fabric f) {
        Map<Integer, FabricNode> owner = new HashMap<>();
        for (FabricNode n : f.nodes()) {
            if (n.nodeType() == NodeType.SWITCH) {
                owner.put(n.port(0).lid(), n);
            } else if (n.nodeType() == NodeType.CA) {
                for (FabricPort p : n.ports()) {
                    if (p.lid() != 0) {
                        owner.put(p.lid(), n);
                    }
                }
            }
        }
        for (FabricSwitch sw : f.switches()) {
            for (Map.Entry<Integer, FabricNode> e : owner.entrySet()) {
                int lid = e.getKey();
                if (e.getValue() == sw) {
                    sw.setLft(lid, 0);
                    continue;
                }
                int port = firstHop(sw, e.getValue(), lid);
                if (port > 0) {
                    sw.setLft(lid, port);
                }
            }
        }
    }

    private static int firstHop(FabricSwitch from, FabricNode to, int lid) {
        ArrayDeque<Object[]> queue = new ArrayDeque<>();
        Map<FabricNode, Boolean> seen = new HashMap<>();
        seen.put(from, true);
        for (FabricPort p : from.ports()) {
            if (p.peer() != null && p.link().isUp()) {
                queue.add(new Object[] {p.peer(), p.portNum()});
            }
        }
        while (!queue.isEmpty()) {
            Object[] item = queue.poll();
            FabricPort at = (FabricPort) item[0];
            int first = (Integer) item[1];
            FabricNode n = at.node();
            if (n == to && (n.nodeType() == NodeType.SWITCH || at.lid() == lid)) {
                return first;
            }
            if (seen.put(n, true) != null || n.nodeType() != NodeType.SWITCH) {
                continue;
            }
            for (FabricPort p : n.ports()) {
                if (p.peer() != null && p.link().isUp()) {
                    queue.add(new Object[] {p.peer(), first});
                }
            }
        }
        return -1;
    }

    static FabricPort port(Fabric f, String node, int port) {
        return f.findNode(node).orElseThrow().port(port);
    }

    static FabricSwitch sw(Fabric f, String node) {
        return (FabricSwitch) f.findNode(node).orElseThrow();
    }
}
