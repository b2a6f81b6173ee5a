package org.rdma.sm.internal;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdma.sm.internal.Subnet.EndPort;
import org.rdma.sm.internal.Subnet.Node;
import org.rdma.sm.internal.Subnet.Peer;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.PortInfo;

/**
 * Route computation: OpenSM's min-hop unicast routing engine ({@code osm_ucast_mgr.c},
 * {@code osm_ucast_mgr_process()} with its per-port load balancing), the path walk behind
 * PathRecord answers ({@code osm_pr_rcv.c}), and multicast spanning trees
 * ({@code osm_mcast_mgr.c}). Pure functions of a {@link Subnet}.
 */
final class Routing {
    /** Subnet-wide packet lifetime before the switches' share ({@code OSM_DEFAULT_..._PKT_LIFE}). */
    static final int PACKET_LIFE_BASE = 0x0E;

    private Routing() {
    }

    /** Hop counts from {@code root} over switch-to-switch cables (breadth-first). */
    static Map<Node, Integer> hops(Node root, Map<Node, Peer> parent) {
        Map<Node, Integer> hops = new HashMap<>();
        ArrayDeque<Node> q = new ArrayDeque<>();
        hops.put(root, 0);
        q.add(root);
        while (!q.isEmpty()) {
            Node n = q.poll();
            for (int p = 1; p < n.peers.length; p++) {
                Peer peer = n.peers[p];
                if (peer != null && peer.node().isSwitch() && !hops.containsKey(peer.node())) {
                    hops.put(peer.node(), hops.get(n) + 1);
                    if (parent != null) {
                        parent.put(peer.node(), new Peer(n, p));
                    }
                    q.add(peer.node());
                }
            }
        }
        return hops;
    }

    /**
     * Fills {@link Subnet#lfts}: for every LID, every switch forwards on a port that gets one hop
     * closer to the LID's switch; among equal ports the least loaded one (min-hop with port
     * balancing), ties to the lowest port number.
     */
    static void computeLfts(Subnet s) {
        List<Node> switches = s.switches();
        Map<Node, int[]> load = new HashMap<>();
        for (Node sw : switches) {
            int[] lft = new int[s.maxLid + 1];
            Arrays.fill(lft, LinearForwardingTable.IB_LFT_NO_PATH);
            s.lfts.put(sw, lft);
            load.put(sw, new int[sw.peers.length]);
        }
        for (EndPort ep : s.ports.values()) {
            Peer at = ep.attachment();
            if (at == null || ep.lid == 0) {
                continue;
            }
            Map<Node, Integer> hops = hops(at.node(), null);
            for (Node sw : switches) {
                Integer h = hops.get(sw);
                if (h == null) {
                    continue;
                }
                int out;
                if (sw == at.node()) {
                    out = at.port();
                } else {
                    out = -1;
                    int[] l = load.get(sw);
                    for (int p = 1; p < sw.peers.length; p++) {
                        Peer peer = sw.peers[p];
                        if (peer != null && peer.node().isSwitch() && hops.get(peer.node()) != null
                                && hops.get(peer.node()) == h - 1 && (out < 0 || l[p] < l[out])) {
                            out = p;
                        }
                    }
                    if (out < 0) {
                        continue;
                    }
                    l[out]++;
                }
                s.lfts.get(sw)[ep.lid] = out;
            }
        }
    }

    /** A traced route: switches crossed, path MTU and rate (IBTA encodings). */
    record Route(int hops, int mtu, int rate) {
        int packetLifeTime() {
            int bits = 32 - Integer.numberOfLeadingZeros(hops);
            return Math.min(0x3F, PACKET_LIFE_BASE + bits);
        }
    }

    /**
     * Walks the programmed forwarding tables from {@code src} to {@code dst}, as a packet would:
     * the smallest MTU capability and link rate of every port crossed. {@code null} when the route
     * is broken (no table entry, no cable, a loop).
     */
    static Route trace(Subnet s, EndPort src, EndPort dst) {
        int mtu = PortInfo.MTU_4096;
        int rate = Integer.MAX_VALUE;
        int hops = 0;
        Node n = src.node;
        int port = src.portNum;
        mtu = Math.min(mtu, mtuOf(n.ports[port]));
        for (int guard = 0; guard < 64; guard++) {
            if (n == dst.node && (n.isSwitch() || port == dst.portNum)) {
                return new Route(hops, mtu, rate == Integer.MAX_VALUE ? rateOf(src.portInfo()) : rate);
            }
            if (n.isSwitch()) {
                int[] lft = s.lfts.get(n);
                int out = lft == null || dst.lid >= lft.length ? LinearForwardingTable.IB_LFT_NO_PATH : lft[dst.lid];
                if (out == 0 || out >= n.peers.length) {
                    return null;
                }
                port = out;
                hops++;
            } else if (n != src.node) {
                return null;
            }
            PortInfo out = n.ports[port];
            Peer peer = n.peers[port];
            if (out == null || peer == null) {
                return null;
            }
            mtu = Math.min(mtu, mtuOf(out));
            rate = Math.min(rate, rateOf(out));
            n = peer.node();
            port = peer.port();
            mtu = Math.min(mtu, mtuOf(n.ports[port]));
        }
        return null;
    }

    private static int mtuOf(PortInfo pi) {
        return pi == null || pi.mtuCap == 0 ? PortInfo.MTU_4096 : pi.mtuCap;
    }

    /** IB_RATE_2_5_GBPS .. IB_RATE_120_GBPS by link rate in tenths of Gb/s, fastest first. */
    private static final int[][] RATE_CODES =
            {{1200, 10}, {800, 9}, {600, 8}, {400, 7}, {300, 4}, {200, 6}, {100, 3}, {50, 5}, {25, 2}};

    /** The IBTA rate code ({@code enum ib_rate}) of a port's active width and speed: the largest not above the link's rate. */
    static int rateOf(PortInfo pi) {
        if (pi == null) {
            return 3;
        }
        int lanes = switch (pi.linkWidthActive) {
            case PortInfo.LINK_WIDTH_1X -> 1;
            case PortInfo.LINK_WIDTH_2X -> 2;
            case PortInfo.LINK_WIDTH_8X -> 8;
            case PortInfo.LINK_WIDTH_12X -> 12;
            default -> 4;
        };
        int laneTenths = switch (pi.linkSpeedActive) {
            case PortInfo.LINK_SPEED_SDR -> 25;
            case PortInfo.LINK_SPEED_DDR -> 50;
            default -> 100;
        };
        int gbpsTenths = lanes * laneTenths;
        for (int[] c : RATE_CODES) {
            if (gbpsTenths >= c[0]) {
                return c[1];
            }
        }
        return 2;
    }

    /** Orders IBTA rate codes by bandwidth (they are not monotonic). */
    static int rateRank(int code) {
        return switch (code) {
            case 2 -> 1; case 5 -> 2; case 3 -> 3; case 6 -> 4; case 4 -> 5; case 7 -> 6; case 8 -> 7;
            case 9 -> 8; case 10 -> 9; default -> code;
        };
    }

    /**
     * Multicast forwarding for one group ({@code osm_mcast_mgr_process_mgroup()}): a
     * breadth-first spanning tree from the first member's switch, pruned to the branches that
     * lead to members; returns each switch's port mask (bit {@code p} for port {@code p}).
     */
    static Map<Node, Long> mcastMasks(Collection<EndPort> members) {
        Map<Node, Long> masks = new HashMap<>();
        Node root = null;
        Set<Node> memberSwitches = new HashSet<>();
        for (EndPort ep : members) {
            Peer at = ep.attachment();
            if (at == null) {
                continue;
            }
            if (root == null) {
                root = at.node();
            }
            masks.merge(at.node(), 1L << at.port(), (a, b) -> a | b);
            memberSwitches.add(at.node());
        }
        if (root == null) {
            return masks;
        }
        Map<Node, Peer> parent = new HashMap<>();
        hops(root, parent);
        for (Node sw : memberSwitches) {
            Node n = sw;
            while (n != root) {
                Peer up = parent.get(n);
                if (up == null) {
                    break;
                }
                Peer down = up.node().peers[up.port()];
                masks.merge(up.node(), 1L << up.port(), (a, b) -> a | b);
                masks.merge(n, 1L << down.port(), (a, b) -> a | b);
                n = up.node();
            }
        }
        return masks;
    }
}
