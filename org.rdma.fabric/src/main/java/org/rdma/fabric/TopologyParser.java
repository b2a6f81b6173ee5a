package org.rdma.fabric;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rdma.verbs.Errno;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;

/**
 * Reader and writer of the ibnetdiscover/ibsim topology format: ibsim's {@code parse_netconf()},
 * {@code parse_switch()}, {@code parse_endnode()}, {@code parse_port()} (sim_net.c) and
 * ibnetdiscover's {@code out_switch()}, {@code out_ca()}, {@code out_switch_port()},
 * {@code out_ca_port()}.
 */
final class TopologyParser {

    private static final Pattern HEADER = Pattern.compile("^(Switch|Hca|Ca|Rt|Ethernet)\\s+(\\d+)\\s+\"([^\"]*)\"(.*)$");
    private static final Pattern PORT = Pattern.compile(
            "^\\[(\\d+)\\](?:\\[ext \\d+\\])?(?:\\(([0-9a-fA-F]+)\\))?\\s*\"([^\"]*)\"(?:\\[(\\d+)\\])?(?:\\[ext \\d+\\])?"
                    + "\\s*(?:\\(([0-9a-fA-F]+)\\))?(.*)$");
    private static final Pattern RATE = Pattern.compile("\\b(\\d+)x(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)\\b");
    private static final Pattern LID_LMC = Pattern.compile("^\\s*lid\\s+(\\d+)\\s+lmc\\s+(\\d+)");
    private static final Pattern SW_LID = Pattern.compile("port 0 lid (\\d+) lmc (\\d+)");
    private static final Pattern NAME_GUID = Pattern.compile("^[SHR]-([0-9a-fA-F]{16})$");
    private static final Pattern OPTION = Pattern.compile("\\b([wse])=(\\d+)");

    private final Path baseDir;
    private final List<NodeDraft> nodes = new ArrayList<>();
    private final Map<String, LinkDraft> links = new LinkedHashMap<>();
    private final Map<String, long[]> remoteHints = new LinkedHashMap<>();
    private final Topology.GuidCounters guids = new Topology.GuidCounters();
    private int vendid;
    private int devid;
    private long sysimgguid;
    private boolean explicitGuid;
    private int depth;

    private static final class NodeDraft {
        NodeType type;
        String name;
        int numPorts;
        long guid;
        long sysGuid;
        int vendid;
        int devid;
        String desc;
        int lid;
        int lmc;
        boolean esp0;
        final Map<Integer, Topology.Port> ports = new LinkedHashMap<>();
    }

    private static final class LinkDraft {
        String a;
        int pa;
        String b;
        int pb;
        PortWidth width;
        PortSpeed speed;
    }

    TopologyParser(Path baseDir) {
        this.baseDir = baseDir;
    }

    Topology parse(String text) {
        feed(text, "<topology>");
        return build();
    }

    private void feed(String text, String source) {
        String[] lines = text.split("\r?\n", -1);
        NodeDraft current = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String where = source + ":" + (i + 1);
            try {
                checkPrintable(line);
                if (current != null) {
                    if (line.startsWith("#")) {
                        continue;
                    }
                    if (line.startsWith("[")) {
                        parsePort(current, line);
                        continue;
                    }
                    current = null;
                }
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                if (HEADER.matcher(line).matches()) {
                    current = parseHeader(line);
                } else if (t.startsWith("switchguid")) {
                    guids.set(NodeType.SWITCH, assignment(t));
                    explicitGuid = true;
                } else if (t.startsWith("caguid") || t.startsWith("hcaguids") || t.startsWith("rtguid")) {
                    guids.set(NodeType.CA, assignment(t));
                    explicitGuid = true;
                } else if (t.startsWith("vendid")) {
                    vendid = (int) assignment(t);
                } else if (t.startsWith("devid")) {
                    devid = (int) assignment(t);
                } else if (t.startsWith("sysimgguid")) {
                    sysimgguid = assignment(t);
                } else if (t.startsWith("include")) {
                    include(t);
                }
                // ibsim ignores every other line (module, do, width=, speed=, Chassis, ...); so do we.
            } catch (RdmaException e) {
                throw new RdmaException(e.errno(), where + ": " + stripErrno(e.getMessage()), e);
            } catch (RuntimeException e) {
                throw new RdmaException(Errno.EINVAL, where + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Names and descriptions are text: a control character (a lone CR, say) would be written back
     * by format() into a line that no longer parses as one.
     */
    private static void checkPrintable(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7F) {
                throw new RdmaException(Errno.EINVAL, String.format("control character 0x%02x in column %d", (int) c, i + 1));
            }
        }
    }

    private static String stripErrno(String msg) {
        int c = msg.indexOf(": ");
        return c > 0 ? msg.substring(c + 2) : msg;
    }

    private void include(String line) {
        Matcher m = Pattern.compile("\"([^\"]+)\"").matcher(line);
        if (!m.find()) {
            throw new RdmaException(Errno.EINVAL, "bad include file name");
        }
        if (baseDir == null) {
            throw new RdmaException(Errno.EINVAL, "include is only supported when parsing a file");
        }
        if (++depth > 8) {
            throw new RdmaException(Errno.EINVAL, "includes nested too deeply");
        }
        Path f = baseDir.resolve(m.group(1));
        try {
            feed(Files.readString(f, StandardCharsets.UTF_8), f.toString());
        } catch (IOException e) {
            throw new RdmaException(Errno.ENOENT, "cannot read " + f + ": " + e.getMessage(), e);
        } finally {
            depth--;
        }
    }

    /** ibsim's {@code strtoull(s + 1, NULL, 0)} after '=' (or '+' relative to the counter base). */
    private static long assignment(String line) {
        int eq = line.indexOf('=');
        if (eq < 0) {
            throw new RdmaException(Errno.EINVAL, "bad assignment: missing '=' sign");
        }
        String v = line.substring(eq + 1).strip();
        int end = 0;
        boolean hex = v.startsWith("0x") || v.startsWith("0X");
        int start = hex ? 2 : 0;
        end = start;
        while (end < v.length() && Character.digit(v.charAt(end), hex ? 16 : 10) >= 0) {
            end++;
        }
        if (end == start) {
            throw new RdmaException(Errno.EINVAL, "bad number in \"" + line + "\"");
        }
        return Long.parseUnsignedLong(v.substring(start, end), hex ? 16 : 10);
    }

    private NodeDraft parseHeader(String line) {
        Matcher m = HEADER.matcher(line);
        if (!m.matches()) {
            throw new IllegalStateException(line);
        }
        NodeDraft n = new NodeDraft();
        switch (m.group(1)) {
            case "Switch":
                n.type = NodeType.SWITCH;
                break;
            case "Rt":
                n.type = NodeType.ROUTER;
                break;
            case "Ethernet":
                n.type = NodeType.UNSPECIFIED;
                break;
            default:
                n.type = NodeType.CA;
                break;
        }
        n.numPorts = Integer.parseInt(m.group(2));
        n.name = m.group(3);
        if (n.name.isEmpty()) {
            throw new RdmaException(Errno.EINVAL, "empty node id");
        }
        if (n.numPorts < 1 || n.numPorts > 254) {
            throw new RdmaException(Errno.EINVAL, "bad port count " + n.numPorts + " for \"" + n.name + "\"");
        }
        String rest = m.group(4);
        n.desc = description(rest);
        if (n.type == NodeType.SWITCH) {
            String tail = afterDescription(rest);
            n.esp0 = tail.contains("enhanced port 0");
            Matcher lm = SW_LID.matcher(tail);
            if (lm.find()) {
                n.lid = Integer.parseInt(lm.group(1));
                n.lmc = Integer.parseInt(lm.group(2));
            }
        }
        if (n.type != NodeType.UNSPECIFIED) {
            Matcher g = NAME_GUID.matcher(n.name);
            if (!explicitGuid && g.matches()) {
                n.guid = Long.parseUnsignedLong(g.group(1), 16);
            } else {
                n.guid = guids.next(n.type == NodeType.SWITCH ? NodeType.SWITCH : NodeType.CA, n.numPorts);
            }
            n.sysGuid = sysimgguid != 0 ? sysimgguid : n.guid;
            n.vendid = vendid;
            n.devid = devid;
        }
        explicitGuid = false;
        sysimgguid = 0;
        vendid = 0;
        devid = 0;
        for (NodeDraft d : nodes) {
            if (d.name.equals(n.name)) {
                throw new RdmaException(Errno.EEXIST, "node id \"" + n.name + "\" already exists");
            }
        }
        nodes.add(n);
        return n;
    }

    /**
     * ibsim's {@code parse_node_desc()}: the quoted string after '#', or the text up to " lid "/" base
     * port ". An unquoted one may not hold a quote: the file has no way to write it back.
     */
    private static String description(String rest) {
        int hash = rest.indexOf('#');
        if (hash < 0) {
            return null;
        }
        String s = rest.substring(hash + 1).stripLeading();
        if (s.startsWith("\"")) {
            int e = s.indexOf('"', 1);
            return e > 0 ? s.substring(1, e) : s.substring(1);
        }
        for (String stop : List.of(" enhanced port ", " base port ", " lid ", " lmc ")) {
            int e = s.indexOf(stop);
            if (e >= 0) {
                s = s.substring(0, e);
            }
        }
        if (s.indexOf('"') >= 0) {
            throw new RdmaException(Errno.EINVAL, "a node description with a quote must be quoted itself: " + s.strip());
        }
        return s.strip();
    }

    /**
     * The text after the node description, where a switch's "enhanced port 0" and "lid N lmc M"
     * stand: a description may hold those words too.
     */
    private static String afterDescription(String rest) {
        int hash = rest.indexOf('#');
        if (hash < 0) {
            return rest;
        }
        String s = rest.substring(hash + 1).stripLeading();
        if (s.startsWith("\"")) {
            int e = s.indexOf('"', 1);
            return e > 0 ? s.substring(e + 1) : "";
        }
        return s; // an unquoted description ends where the first of these words starts
    }

    private void parsePort(NodeDraft node, String line) {
        Matcher m = PORT.matcher(line);
        if (!m.matches()) {
            throw new RdmaException(Errno.EINVAL, "bad port line: " + line.strip());
        }
        int port = Integer.parseInt(m.group(1));
        if (port < 1 || port > node.numPorts) {
            throw new RdmaException(Errno.EINVAL, "bad port num " + port + " for \"" + node.name + "\"");
        }
        long localGuid = m.group(2) == null ? 0 : Long.parseUnsignedLong(m.group(2), 16);
        String remote = m.group(3);
        int rport = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
        long remoteGuid = m.group(5) == null ? 0 : Long.parseUnsignedLong(m.group(5), 16);
        String rest = m.group(6);
        int hash = rest.indexOf('#');
        String opts = hash >= 0 ? rest.substring(0, hash) : rest;
        String comment = hash >= 0 ? rest.substring(hash + 1) : "";

        int lid = 0;
        int lmc = 0;
        if (node.type != NodeType.SWITCH) {
            Matcher lm = LID_LMC.matcher(comment);
            if (lm.find()) {
                lid = Integer.parseInt(lm.group(1));
                lmc = Integer.parseInt(lm.group(2));
            }
        } else {
            // "[1] "H-..."[1](guid)  # "desc" lid 3 4xDDR": the LID is the remote port's.
            Matcher rl = Pattern.compile("\"\\s+lid\\s+(\\d+)").matcher(comment);
            if (rl.find() && !remote.isEmpty()) {
                long[] hint = remoteHints.computeIfAbsent(remote + "[" + rport + "]", k -> new long[2]);
                hint[1] = Integer.parseInt(rl.group(1));
            }
        }
        if (remoteGuid != 0) {
            remoteHints.computeIfAbsent(remote + "[" + rport + "]", k -> new long[2])[0] = remoteGuid;
        }
        if (localGuid != 0 || lid != 0 || lmc != 0) {
            node.ports.put(port, new Topology.Port(port, localGuid, lid, lmc));
        }

        PortWidth width = null;
        PortSpeed speed = null;
        Matcher rate = RATE.matcher(comment);
        while (rate.find()) {
            width = width(Integer.parseInt(rate.group(1)));
            speed = PortSpeed.valueOf(rate.group(2));
        }
        Matcher opt = OPTION.matcher(opts);
        while (opt.find()) {
            int v = Integer.parseInt(opt.group(2));
            switch (opt.group(1)) {
                case "w":
                    width = widthFromMask(v);
                    break;
                case "s":
                    if (speed == null || speed.value < PortSpeed.FDR10.value) {
                        speed = speedFromMask(v == 0 ? 4 : v);
                    }
                    break;
                default:
                    PortSpeed ext = extSpeedFromMask(v);
                    if (ext != null) {
                        speed = ext;
                    }
                    break;
            }
        }
        addLink(node.name, port, remote, rport, width, speed);
    }

    private void addLink(String a, int pa, String b, int pb, PortWidth width, PortSpeed speed) {
        String ka = a + "[" + pa + "]";
        String kb = b + "[" + pb + "]";
        String key = ka.compareTo(kb) <= 0 ? ka + "|" + kb : kb + "|" + ka;
        LinkDraft l = links.get(key);
        if (l == null) {
            for (LinkDraft o : links.values()) {
                if (uses(o, a, pa) || uses(o, b, pb)) {
                    throw new RdmaException(Errno.EBUSY, "port cabled twice: \"" + a + "\"[" + pa + "] - \"" + b + "\"["
                            + pb + "] conflicts with \"" + o.a + "\"[" + o.pa + "] - \"" + o.b + "\"[" + o.pb + "]");
                }
            }
            l = new LinkDraft();
            l.a = a;
            l.pa = pa;
            l.b = b;
            l.pb = pb;
            links.put(key, l);
        }
        if (l.width == null) {
            l.width = width;
        }
        if (l.speed == null) {
            l.speed = speed;
        }
    }

    private static boolean uses(LinkDraft l, String n, int p) {
        return l.a.equals(n) && l.pa == p || l.b.equals(n) && l.pb == p;
    }

    private Topology build() {
        List<Topology.Node> out = new ArrayList<>();
        for (NodeDraft d : nodes) {
            for (int p = 1; p <= d.numPorts; p++) {
                long[] hint = remoteHints.get(d.name + "[" + p + "]");
                if (hint == null) {
                    continue;
                }
                Topology.Port own = d.ports.get(p);
                long guid = own != null && own.portGuid() != 0 ? own.portGuid() : hint[0];
                int lid = own != null && own.lid() != 0 ? own.lid() : (int) hint[1];
                int lmc = own != null ? own.lmc() : 0;
                if (d.type == NodeType.SWITCH) {
                    guid = own != null ? own.portGuid() : 0;
                    lid = own != null ? own.lid() : 0;
                }
                d.ports.put(p, new Topology.Port(p, guid, lid, lmc));
            }
            out.add(new Topology.Node(d.type, d.name, d.numPorts, d.guid, d.sysGuid, d.vendid, d.devid, d.desc, d.lid,
                    d.lmc, d.esp0, canonicalPorts(d)));
        }
        List<Topology.Link> ls = new ArrayList<>();
        for (LinkDraft l : links.values()) {
            ls.add(new Topology.Link(l.a, l.pa, l.b, l.pb, l.width, l.speed));
        }
        return new Topology(out, ls);
    }

    /**
     * Keeps only what differs from the defaults, so that a formatted and re-parsed topology is
     * equal. A switch's ports have its node GUID and port 0's LID, an Ethernet segment's neither:
     * a GUID or LID a port line gives them is not theirs (and format() has no place for it).
     */
    private static List<Topology.Port> canonicalPorts(NodeDraft d) {
        List<Topology.Port> ps = new ArrayList<>();
        if (d.type == NodeType.SWITCH || d.type == NodeType.UNSPECIFIED) {
            return ps;
        }
        for (int p = 1; p <= d.numPorts; p++) {
            Topology.Port port = d.ports.get(p);
            if (port == null) {
                continue;
            }
            long guid = port.portGuid() == d.guid + p ? 0 : port.portGuid();
            if (guid != 0 || port.lid() != 0 || port.lmc() != 0) {
                ps.add(new Topology.Port(p, guid, port.lid(), port.lmc()));
            }
        }
        return ps;
    }

    static PortWidth width(int lanes) {
        for (PortWidth w : PortWidth.values()) {
            if (w.lanes == lanes) {
                return w;
            }
        }
        throw new RdmaException(Errno.EINVAL, "invalid link width " + lanes + "x");
    }

    /** PortInfo:LinkWidthEnabled/Active mask (1=1x 2=4x 4=8x 8=12x 16=2x): the widest. */
    private static PortWidth widthFromMask(int mask) {
        for (PortWidth w : List.of(PortWidth.WIDTH_12X, PortWidth.WIDTH_8X, PortWidth.WIDTH_4X, PortWidth.WIDTH_2X,
                PortWidth.WIDTH_1X)) {
            if ((mask & w.value) != 0) {
                return w;
            }
        }
        throw new RdmaException(Errno.EINVAL, "invalid link width mask " + mask);
    }

    /** PortInfo:LinkSpeedEnabled/Active mask (1=SDR 2=DDR 4=QDR): the fastest. */
    private static PortSpeed speedFromMask(int mask) {
        if ((mask & 4) != 0) {
            return PortSpeed.QDR;
        }
        if ((mask & 2) != 0) {
            return PortSpeed.DDR;
        }
        if ((mask & 1) != 0) {
            return PortSpeed.SDR;
        }
        throw new RdmaException(Errno.EINVAL, "invalid link speed mask " + mask);
    }

    /** PortInfo:LinkSpeedExtEnabled mask (1=FDR 2=EDR 4=HDR 8=NDR), or null for 0. */
    private static PortSpeed extSpeedFromMask(int mask) {
        if ((mask & 8) != 0) {
            return PortSpeed.NDR;
        }
        if ((mask & 4) != 0) {
            return PortSpeed.HDR;
        }
        if ((mask & 2) != 0) {
            return PortSpeed.EDR;
        }
        if ((mask & 1) != 0) {
            return PortSpeed.FDR;
        }
        return null;
    }

    // ------------------------------------------------------------------ writing

    static String format(Topology t) {
        StringBuilder sb = new StringBuilder();
        sb.append("#\n# Topology file: generated by org.rdma.fabric\n#\n");
        for (NodeType type : List.of(NodeType.SWITCH, NodeType.CA, NodeType.ROUTER, NodeType.UNSPECIFIED)) {
            for (Topology.Node n : t.nodes()) {
                if (n.type() == type) {
                    formatNode(t, n, sb);
                }
            }
        }
        return sb.toString();
    }

    private static void formatNode(Topology t, Topology.Node n, StringBuilder sb) {
        sb.append('\n');
        if (n.isEthernet()) {
            sb.append("Ethernet\t").append(n.numPorts()).append(" \"").append(n.name()).append('"');
            if (!n.description().equals(n.name())) {
                sb.append("\t\t# \"").append(n.description()).append('"');
            }
            sb.append('\n');
        } else {
            sb.append(String.format("vendid=0x%x%ndevid=0x%x%nsysimgguid=0x%x%n", n.vendorId(), n.deviceId(),
                    n.systemImageGuid()));
            if (n.type() == NodeType.SWITCH) {
                sb.append(String.format("switchguid=0x%x(%x)%n", n.nodeGuid(), n.nodeGuid()));
                sb.append(String.format("Switch\t%d \"%s\"\t\t# \"%s\" %s port 0 lid %d lmc %d%n", n.numPorts(), n.name(),
                        n.description(), n.enhancedPort0() ? "enhanced" : "base", n.lid(), n.lmc()));
            } else {
                sb.append(String.format("%sguid=0x%x%n", n.type() == NodeType.ROUTER ? "rt" : "ca", n.nodeGuid()));
                sb.append(String.format("%s\t%d \"%s\"\t\t# \"%s\"%n", n.type() == NodeType.ROUTER ? "Rt" : "Ca",
                        n.numPorts(), n.name(), n.description()));
            }
        }
        for (int p = 1; p <= n.numPorts(); p++) {
            for (Topology.Link l : t.links()) {
                String remote;
                int rport;
                if (l.nodeA().equals(n.name()) && l.portA() == p) {
                    remote = l.nodeB();
                    rport = l.portB();
                } else if (l.nodeB().equals(n.name()) && l.portB() == p) {
                    remote = l.nodeA();
                    rport = l.portA();
                } else {
                    continue;
                }
                Topology.Node r = t.node(remote).orElseThrow();
                String rate = l.width().lanes + "x" + l.speed().name();
                int rlid = r.type() == NodeType.SWITCH ? r.lid() : r.port(rport).map(Topology.Port::lid).orElse(0);
                String rguid = r.type() == NodeType.SWITCH || r.isEthernet() ? "" : String.format("(%x) ", r.portGuid(rport));
                if (n.isEthernet()) {
                    sb.append(String.format("[%d]\t\"%s\"[%d]%n", p, remote, rport));
                } else if (n.type() == NodeType.SWITCH) {
                    sb.append(String.format("[%d]\t\"%s\"[%d]%s\t\t# \"%s\" lid %d %s%n", p, remote, rport, rguid,
                            r.description(), rlid, rate));
                } else {
                    Topology.Port own = n.port(p).orElse(new Topology.Port(p, 0, 0, 0));
                    String sep = r.type() == NodeType.SWITCH || r.isEthernet() ? "" : " ";
                    if (r.isEthernet()) {
                        sb.append(String.format("[%d](%x) \t\"%s\"[%d]%n", p, n.portGuid(p), remote, rport));
                    } else {
                        sb.append(String.format("[%d](%x) \t\"%s\"[%d]%s%s\t\t# lid %d lmc %d \"%s\" lid %d %s%n", p,
                                n.portGuid(p), remote, rport, sep, rguid, own.lid(), own.lmc(), r.description(), rlid,
                                rate));
                    }
                }
            }
        }
    }
}
