package org.rdma.diags.internal;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.diags.internal.Discovery.Fabric;
import org.rdma.diags.internal.Discovery.Node;
import org.rdma.diags.internal.Discovery.Port;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.wire.NodeInfo;

/**
 * ibnetdiscover's output (infiniband-diags/ibnetdiscover.c): the topology file of
 * {@code dump_topology()} (switches, then CAs, then routers, each newest-found first, with their
 * {@code vendid=}/{@code devid=}/{@code sysimgguid=}/{@code switchguid=}/{@code caguid=} lines and
 * one line per connected port), the node lists of {@code -l}/{@code -H}/{@code -S}/{@code -R},
 * and the ports report of {@code -p}. The same file format org.rdma.fabric's topology parser and
 * ibsim read.
 */
final class TopologyFormat {
    private TopologyFormat() {
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** {@code node_name()}: {@code "S-0002c90300a1b2c0"}, H for a CA, R for a router. */
    static String nodeName(Node n) {
        String kind = switch (n.type) {
            case NodeInfo.NODE_TYPE_SWITCH -> "S";
            case NodeInfo.NODE_TYPE_CA -> "H";
            case NodeInfo.NODE_TYPE_ROUTER -> "R";
            default -> "?";
        };
        return f("\"%s-%016x\"", kind, n.guid);
    }

    /**
     * {@code dump_topology()} without chassis grouping; {@code now} is the header's time,
     * {@code full} ({@code -f}) adds each link's raw speed, width and VLCap.
     */
    static List<String> topology(Fabric fabric, ZonedDateTime now, boolean full) {
        List<String> out = new ArrayList<>();
        out.add("#");
        out.add("# Topology file: generated on " + DiagText.ctime(now));
        out.add("#");
        out.add(f("# Initiated from node %016x port %016x", fabric.from().guid, fabric.from().info.portGuid));
        for (Node n : fabric.ofType(NodeInfo.NODE_TYPE_SWITCH)) {
            ids(out, n);
            out.add(f("switchguid=0x%x(%x)", n.guid, n.info.portGuid));
            out.add(f("Switch\t%d %s\t\t# \"%s\" %s port 0 lid %d lmc %d", n.numPorts, nodeName(n), n.desc,
                    n.enhancedPort0 ? "enhanced" : "base", n.smaLid, n.smaLmc));
            for (int p = 1; p <= n.numPorts; p++) {
                Port port = n.ports[p];
                if (port != null && port.remote != null) {
                    out.add(switchPort(port) + full(port, full));
                }
            }
        }
        for (int type : new int[] {NodeInfo.NODE_TYPE_CA, NodeInfo.NODE_TYPE_ROUTER}) {
            for (Node n : fabric.ofType(type)) {
                boolean ca = type == NodeInfo.NODE_TYPE_CA;
                ids(out, n);
                out.add(f("%sguid=0x%x", ca ? "ca" : "rt", n.guid));
                out.add(f("%s\t%d %s\t\t# \"%s\"", ca ? "Ca" : "Rt", n.numPorts, nodeName(n), n.desc));
                for (int p = 1; p <= n.numPorts; p++) {
                    Port port = n.ports[p];
                    if (port != null && port.remote != null) {
                        out.add(caPort(port) + full(port, full));
                    }
                }
            }
        }
        return out;
    }

    /** {@code out_ids()}: a blank line, {@code vendid=}, {@code devid=}, {@code sysimgguid=} when set. */
    private static void ids(List<String> out, Node n) {
        out.add("");
        out.add(f("vendid=0x%x", n.info.vendorId));
        out.add(f("devid=0x%x", n.info.deviceId));
        if (n.info.sysImageGuid != 0) {
            out.add(f("sysimgguid=0x%x", n.info.sysImageGuid));
        }
    }

    /** {@code out_switch_port()}. */
    private static String switchPort(Port port) {
        Port r = port.remote;
        Port port0 = port.node.ports[0];
        int speed = port.info.linkSpeedActive;
        int espeed = 0;
        if (port0 == null || port0.info == null) {
            speed = 0;
        } else if ((port0.info.capabilityMask & PortCapFlags.EXTENDED_SPEEDS_SUP) != 0) {
            espeed = port.info.linkSpeedExtActive;
        }
        StringBuilder b = new StringBuilder(f("[%d]\t%s[%d]", port.portNum, nodeName(r.node), r.portNum));
        if (!r.node.isSwitch()) {
            b.append(f("(%x) ", r.guid));
        }
        b.append(f("\t\t# \"%s\" lid %d %s%s", r.node.desc, r.node.isSwitch() ? r.node.smaLid : r.baseLid,
                width(port.info.linkWidthActive), speed(speed, espeed)));
        return b.toString();
    }

    /** {@code out_ca_port()}. */
    private static String caPort(Port port) {
        Port r = port.remote;
        int espeed = (port.info.capabilityMask & PortCapFlags.EXTENDED_SPEEDS_SUP) != 0 ? port.info.linkSpeedExtActive
                : 0;
        StringBuilder b = new StringBuilder(f("[%d]", port.portNum));
        if (!port.node.isSwitch()) {
            b.append(f("(%x) ", port.guid));
        }
        b.append(f("\t%s[%d]", nodeName(r.node), r.portNum));
        if (!r.node.isSwitch()) {
            b.append(f(" (%x) ", r.guid));
        }
        b.append(f("\t\t# lid %d lmc %d \"%s\" lid %d %s%s", port.baseLid, port.lmc, r.node.desc,
                r.node.isSwitch() ? r.node.smaLid : r.baseLid, width(port.info.linkWidthActive),
                speed(port.info.linkSpeedActive, espeed)));
        return b.toString();
    }

    /** {@code -f}'s {@code  s=4 w=2 v=4} (a switch port without port 0 info reports speed 0). */
    private static String full(Port port, boolean full) {
        if (!full) {
            return "";
        }
        Port port0 = port.node.ports[0];
        int speed = port.node.isSwitch() && (port0 == null || port0.info == null) ? 0 : port.info.linkSpeedActive;
        return f(" s=%d w=%d v=%d", speed, port.info.linkWidthActive, port.info.vlCap);
    }

    /** {@code dump_linkwidth_compat()}. */
    static String width(int w) {
        return switch (w) {
            case 1 -> "1x";
            case 2 -> "4x";
            case 4 -> "8x";
            case 8 -> "12x";
            case 16 -> "2x";
            default -> "??";
        };
    }

    /** ibnetdiscover's speed: {@code dump_linkspeed_compat()} unless QDR or extended, then the extended name. */
    static String speed(int speed, int espeed) {
        if (speed != 4 && espeed == 0) {
            return switch (speed) {
                case 1 -> "SDR";
                case 2 -> "DDR";
                case 4 -> "QDR";
                default -> "???";
            };
        }
        return switch (espeed) {
            case 0 -> speed == 4 ? "QDR" : speed == 2 ? "DDR" : speed == 1 ? "SDR" : "???";
            case 1 -> "FDR";
            case 2 -> "EDR";
            case 4 -> "HDR";
            case 8 -> "NDR";
            default -> "???";
        };
    }

    /** {@code list_node()} of every node of {@code type}: {@code Ca : 0x... ports 1 devid 0x.. vendid 0x.. "desc"}. */
    static List<String> list(Fabric fabric, int type) {
        String name = switch (type) {
            case NodeInfo.NODE_TYPE_SWITCH -> "Switch";
            case NodeInfo.NODE_TYPE_CA -> "Ca";
            default -> "Router";
        };
        List<String> out = new ArrayList<>();
        for (Node n : fabric.ofType(type)) {
            out.add(f("%s\t : 0x%016x ports %d devid 0x%x vendid 0x%x \"%s\"", name, n.guid, n.numPorts,
                    n.info.deviceId, n.info.vendorId, n.desc));
        }
        return out;
    }

    /** {@code dump_ports_report()} of every node: one line per port, highest port first. */
    static List<String> portsReport(Fabric fabric) {
        List<String> out = new ArrayList<>();
        for (Node n : fabric.newestFirst()) {
            for (int p = n.numPorts; p > 0; p--) {
                Port port = n.ports[p];
                if (port == null) {
                    continue;
                }
                int width = 0;
                int speed = 0;
                int espeed = 0;
                Port capPort = n.isSwitch() ? n.ports[0] : port;
                if (capPort != null && capPort.info != null && port.info != null) {
                    width = port.info.linkWidthActive;
                    speed = port.info.linkSpeedActive;
                    if ((capPort.info.capabilityMask & PortCapFlags.EXTENDED_SPEEDS_SUP) != 0) {
                        espeed = port.info.linkSpeedExtActive;
                    }
                }
                String line = f("%2s %5d %2d 0x%016x %s %s", typeShort(n), n.isSwitch() ? n.smaLid : port.baseLid,
                        port.portNum, port.guid, width(width), speed(speed, espeed));
                Port r = port.remote;
                if (r != null) {
                    line += f(" - %2s %5d %2d 0x%016x ( '%s' - '%s' )", typeShort(r.node),
                            r.node.isSwitch() ? r.node.smaLid : r.baseLid, r.portNum, r.guid, n.desc, r.node.desc);
                } else {
                    line += f("%36s'%s'", "", n.desc);
                }
                out.add(line);
            }
        }
        return out;
    }

    private static String typeShort(Node n) {
        return switch (n.type) {
            case NodeInfo.NODE_TYPE_SWITCH -> "SW";
            case NodeInfo.NODE_TYPE_CA -> "CA";
            case NodeInfo.NODE_TYPE_ROUTER -> "RT";
            default -> "??";
        };
    }
}
