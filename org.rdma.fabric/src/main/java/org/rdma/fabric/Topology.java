package org.rdma.fabric;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.rdma.verbs.Errno;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;

/**
 * A fabric description in the topology file format of {@code ibnetdiscover} and {@code ibsim}
 * (infiniband-diags {@code ibnetdiscover.c} {@code dump_topology()}, ibsim {@code sim_net.c}
 * {@code parse_netconf()}): node records of a header line and one line per connected port,
 * preceded by optional {@code vendid=}, {@code devid=}, {@code sysimgguid=},
 * {@code switchguid=}/{@code caguid=} lines. Immutable; {@link #parse(String)} reads it,
 * {@link #format()} writes it, {@link #builder()} builds one in code.
 *
 * <pre>
 * switchguid=0x2c90200400fc0(2c90200400fc0)
 * Switch  24 "S-0002c90200400fc0"   # "MT47396 Infiniscale-III" base port 0 lid 2 lmc 0
 * [1]     "H-0002c903000c0b9c"[1](2c903000c0b9d)   # "host1 HCA-1" lid 3 4xDDR
 *
 * caguid=0x2c903000c0b9c
 * Ca      2 "H-0002c903000c0b9c"    # "host1 HCA-1"
 * [1](2c903000c0b9d)  "S-0002c90200400fc0"[1]     # lid 3 lmc 0 "MT47396 Infiniscale-III" lid 2 4xDDR
 * </pre>
 *
 * <p>Accepted beyond ibnetdiscover's output: ibsim's {@code Hca} keyword, port lines without a
 * remote port (port 1 assumed) and its {@code w=}/{@code s=}/{@code e=} port options, and
 * {@code include "file"} (when parsing a file). Node GUIDs come from a preceding
 * {@code switchguid=}/{@code caguid=} line, else from an {@code S-}/{@code H-} name with 16
 * hexadecimal digits, else from ibsim's counters (switches from 0x200000, CAs from 0x100000
 * advancing by the port count + 1). A CA's port GUIDs default to node GUID + port number, a
 * switch's ports share the node GUID.
 *
 * <p>Extension for RoCE: a record {@code Ethernet N "name"} declares an Ethernet segment whose
 * port lines name the CA ports cabled to it; such CA ports have the Ethernet link layer.
 */
public final class Topology {

    /** Default link width when a record names none (ibsim's {@code DEFAULT_LINKWIDTH}: 4x). */
    public static final PortWidth DEFAULT_WIDTH = PortWidth.WIDTH_4X;
    /** Default link speed when a record names none. */
    public static final PortSpeed DEFAULT_SPEED = PortSpeed.QDR;

    /**
     * What a topology says about one port.
     *
     * @param portNum  the port number
     * @param portGuid the port GUID (0: default)
     * @param lid      the base LID the file reports (0: none)
     * @param lmc      the LMC the file reports
     */
    public record Port(int portNum, long portGuid, int lid, int lmc) {
    }

    /**
     * A node record.
     *
     * @param type            CA, SWITCH or ROUTER; UNSPECIFIED for an Ethernet segment
     * @param name            the node id (quoted string of the header line), unique
     * @param numPorts        number of ports
     * @param nodeGuid        NodeInfo:NodeGUID (0 for an Ethernet segment)
     * @param systemImageGuid NodeInfo:SystemImageGUID
     * @param vendorId        NodeInfo:VendorID
     * @param deviceId        NodeInfo:DeviceID
     * @param description     NodeDescription
     * @param lid             a switch's port 0 LID from the header line (0: none)
     * @param lmc             a switch's port 0 LMC
     * @param enhancedPort0   a switch's "enhanced port 0"
     * @param ports           ports with known GUIDs or LIDs
     */
    public record Node(NodeType type, String name, int numPorts, long nodeGuid, long systemImageGuid, int vendorId,
                       int deviceId, String description, int lid, int lmc, boolean enhancedPort0, List<Port> ports) {

        /**
         * Validates and freezes the record.
         *
         * @param type            CA, SWITCH or ROUTER; UNSPECIFIED for an Ethernet segment
         * @param name            the node id
         * @param numPorts        number of ports
         * @param nodeGuid        NodeInfo:NodeGUID
         * @param systemImageGuid NodeInfo:SystemImageGUID
         * @param vendorId        NodeInfo:VendorID
         * @param deviceId        NodeInfo:DeviceID
         * @param description     NodeDescription ({@code null}: the name)
         * @param lid             a switch's port 0 LID
         * @param lmc             a switch's port 0 LMC
         * @param enhancedPort0   a switch's "enhanced port 0"
         * @param ports           ports with known GUIDs or LIDs
         */
        public Node {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(name, "name");
            description = description == null ? name : description;
            ports = List.copyOf(ports);
        }

        /** @return whether this is an Ethernet segment record */
        public boolean isEthernet() {
            return type == NodeType.UNSPECIFIED;
        }

        /**
         * @param portNum a port number
         * @return its GUID: the explicit one, else the default of the node type
         */
        public long portGuid(int portNum) {
            for (Port p : ports) {
                if (p.portNum() == portNum && p.portGuid() != 0) {
                    return p.portGuid();
                }
            }
            return type == NodeType.SWITCH || isEthernet() ? nodeGuid : nodeGuid + portNum;
        }

        /**
         * @param portNum a port number
         * @return what the file said about the port
         */
        public Optional<Port> port(int portNum) {
            return ports.stream().filter(p -> p.portNum() == portNum).findFirst();
        }
    }

    /**
     * A cable.
     *
     * @param nodeA first node's name
     * @param portA its port
     * @param nodeB second node's name
     * @param portB its port
     * @param width the link width
     * @param speed the link speed
     */
    public record Link(String nodeA, int portA, String nodeB, int portB, PortWidth width, PortSpeed speed) {
        /**
         * Validates the record; a {@code null} width or speed means the default.
         *
         * @param nodeA first node's name
         * @param portA its port
         * @param nodeB second node's name
         * @param portB its port
         * @param width the link width
         * @param speed the link speed
         */
        public Link {
            Objects.requireNonNull(nodeA);
            Objects.requireNonNull(nodeB);
            width = width == null ? DEFAULT_WIDTH : width;
            speed = speed == null ? DEFAULT_SPEED : speed;
        }
    }

    private final List<Node> nodes;
    private final List<Link> links;
    private final Map<String, Node> byName;

    /**
     * A topology from records, validated as a parsed one is.
     *
     * @param nodes the node records
     * @param links the cables
     * @return the topology
     * @throws RdmaException {@code EEXIST} for duplicate names or GUIDs, {@code ENODEV} for a link
     *                       to an unknown node, {@code EBUSY} for a port cabled twice
     */
    public static Topology of(List<Node> nodes, List<Link> links) {
        return new Topology(nodes, links);
    }

    Topology(List<Node> nodes, List<Link> links) {
        this.nodes = List.copyOf(nodes);
        this.links = List.copyOf(links);
        Map<String, Node> m = new LinkedHashMap<>();
        for (Node n : nodes) {
            if (m.put(n.name(), n) != null) {
                throw new RdmaException(Errno.EEXIST, "node \"" + n.name() + "\" declared twice");
            }
        }
        this.byName = Collections.unmodifiableMap(m);
        validate();
    }

    private void validate() {
        Map<String, String> used = new LinkedHashMap<>();
        Map<Long, String> guids = new LinkedHashMap<>();
        for (Node n : nodes) {
            if (n.numPorts() < 1 || n.numPorts() > 254) {
                throw new RdmaException(Errno.EINVAL, "node \"" + n.name() + "\" has " + n.numPorts() + " ports (1..254)");
            }
            if (!n.isEthernet()) {
                String other = guids.put(n.nodeGuid(), n.name());
                if (other != null) {
                    throw new RdmaException(Errno.EEXIST, String.format("nodes \"%s\" and \"%s\" have the same GUID 0x%x",
                            other, n.name(), n.nodeGuid()));
                }
            }
        }
        for (Link l : links) {
            Node a = endpoint(l.nodeA(), l.portA());
            Node b = endpoint(l.nodeB(), l.portB());
            if (a.isEthernet() && b.isEthernet() || a.isEthernet() && b.type() == NodeType.SWITCH
                    || b.isEthernet() && a.type() == NodeType.SWITCH) {
                throw new RdmaException(Errno.EINVAL, "an Ethernet segment connects only CA ports: " + describe(l));
            }
            for (String end : List.of(l.nodeA() + "[" + l.portA() + "]", l.nodeB() + "[" + l.portB() + "]")) {
                String prev = used.put(end, describe(l));
                if (prev != null) {
                    throw new RdmaException(Errno.EBUSY, "port " + end + " is cabled twice: " + prev + " and " + describe(l));
                }
            }
        }
    }

    private Node endpoint(String name, int port) {
        Node n = byName.get(name);
        if (n == null) {
            throw new RdmaException(Errno.ENODEV, "link to unknown node \"" + name + "\"");
        }
        if (port < 1 || port > n.numPorts()) {
            throw new RdmaException(Errno.EINVAL, "node \"" + name + "\" has no port " + port);
        }
        return n;
    }

    private static String describe(Link l) {
        return "\"" + l.nodeA() + "\"[" + l.portA() + "] - \"" + l.nodeB() + "\"[" + l.portB() + "]";
    }

    /** @return the node records, in file order */
    public List<Node> nodes() {
        return nodes;
    }

    /** @return the cables, each once */
    public List<Link> links() {
        return links;
    }

    /**
     * @param name a node name
     * @return the node record
     */
    public Optional<Node> node(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * Parses topology text.
     *
     * @param text the file contents
     * @return the topology
     * @throws RdmaException {@code EINVAL} (with the line number) for a malformed file,
     *                       {@code ENODEV} for a link to an undeclared node
     */
    public static Topology parse(String text) {
        return new TopologyParser(null).parse(text);
    }

    /**
     * Parses a topology file; {@code include "file"} lines are resolved against its directory.
     *
     * @param file the file
     * @return the topology
     * @throws IOException if the file cannot be read
     */
    public static Topology parse(Path file) throws IOException {
        return new TopologyParser(file.toAbsolutePath().getParent())
                .parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * Writes the topology in ibnetdiscover's format ({@code dump_topology()}): switches, then CAs
     * (then Ethernet segments), each record preceded by its vendid/devid/sysimgguid/guid lines.
     * {@link #parse(String)} reads it back to an equal topology.
     *
     * @return the text
     */
    public String format() {
        return TopologyParser.format(this);
    }

    /** @return a builder for a topology in code */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Equal topologies have the same nodes and the same cables, in any order and a cable from
     * either end: a file may declare them so, and {@link #format()} writes switches first and each
     * cable from the first node that has it.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof Topology && ((Topology) o).byName.equals(byName) && ((Topology) o).cables().equals(cables());
    }

    @Override
    public int hashCode() {
        return Objects.hash(byName, cables());
    }

    /** The links with their ends in one order (by name, then port), as a set. */
    private Set<Link> cables() {
        Set<Link> s = new HashSet<>();
        for (Link l : links) {
            int c = l.nodeA().compareTo(l.nodeB());
            boolean swap = c > 0 || c == 0 && l.portA() > l.portB();
            s.add(swap ? new Link(l.nodeB(), l.portB(), l.nodeA(), l.portA(), l.width(), l.speed()) : l);
        }
        return s;
    }

    @Override
    public String toString() {
        return "Topology{" + nodes.size() + " nodes, " + links.size() + " links}";
    }

    /**
     * Builds a topology in code. GUIDs default as in a parsed file without guid lines.
     */
    public static final class Builder {
        private final List<Node> nodes = new ArrayList<>();
        private final List<Link> links = new ArrayList<>();
        private final GuidCounters guids = new GuidCounters();

        Builder() {
        }

        /**
         * @param name     unique node name
         * @param numPorts external ports
         * @return this builder
         */
        public Builder addSwitch(String name, int numPorts) {
            return addSwitch(name, numPorts, guids.next(NodeType.SWITCH, numPorts));
        }

        /**
         * @param name     unique node name
         * @param numPorts external ports
         * @param nodeGuid NodeGUID
         * @return this builder
         */
        public Builder addSwitch(String name, int numPorts, long nodeGuid) {
            nodes.add(new Node(NodeType.SWITCH, name, numPorts, nodeGuid, nodeGuid, 0, 0, name, 0, 0, false, List.of()));
            return this;
        }

        /**
         * @param name     unique node name
         * @param numPorts ports
         * @return this builder
         */
        public Builder addCa(String name, int numPorts) {
            return addCa(name, numPorts, guids.next(NodeType.CA, numPorts));
        }

        /**
         * @param name     unique node name
         * @param numPorts ports
         * @param nodeGuid NodeGUID (port GUIDs are nodeGuid + port)
         * @return this builder
         */
        public Builder addCa(String name, int numPorts, long nodeGuid) {
            nodes.add(new Node(NodeType.CA, name, numPorts, nodeGuid, nodeGuid, 0, 0, name, 0, 0, false, List.of()));
            return this;
        }

        /**
         * @param name     unique segment name
         * @param numPorts bridge ports
         * @return this builder
         */
        public Builder addEthernet(String name, int numPorts) {
            nodes.add(new Node(NodeType.UNSPECIFIED, name, numPorts, 0, 0, 0, 0, name, 0, 0, false, List.of()));
            return this;
        }

        /**
         * @param name        a node added before
         * @param description its NodeDescription
         * @return this builder
         */
        public Builder describe(String name, String description) {
            Node n = find(name);
            replace(n, new Node(n.type(), n.name(), n.numPorts(), n.nodeGuid(), n.systemImageGuid(), n.vendorId(),
                    n.deviceId(), description, n.lid(), n.lmc(), n.enhancedPort0(), n.ports()));
            return this;
        }

        /**
         * Cables two ports with the default width and speed.
         *
         * @param a  first node
         * @param pa its port
         * @param b  second node
         * @param pb its port
         * @return this builder
         */
        public Builder link(String a, int pa, String b, int pb) {
            return link(a, pa, b, pb, DEFAULT_WIDTH, DEFAULT_SPEED);
        }

        /**
         * @param a     first node
         * @param pa    its port
         * @param b     second node
         * @param pb    its port
         * @param width link width
         * @param speed link speed
         * @return this builder
         */
        public Builder link(String a, int pa, String b, int pb, PortWidth width, PortSpeed speed) {
            links.add(new Link(a, pa, b, pb, width, speed));
            return this;
        }

        /**
         * Records a LID (a switch's port 0 LID when {@code port} is 0).
         *
         * @param name node name
         * @param port port number
         * @param lid  base LID
         * @param lmc  LMC
         * @return this builder
         */
        public Builder lid(String name, int port, int lid, int lmc) {
            Node n = find(name);
            if (port == 0) {
                replace(n, new Node(n.type(), n.name(), n.numPorts(), n.nodeGuid(), n.systemImageGuid(), n.vendorId(),
                        n.deviceId(), n.description(), lid, lmc, n.enhancedPort0(), n.ports()));
            } else {
                List<Port> ps = new ArrayList<>(n.ports());
                ps.removeIf(p -> p.portNum() == port);
                ps.add(new Port(port, 0, lid, lmc));
                replace(n, new Node(n.type(), n.name(), n.numPorts(), n.nodeGuid(), n.systemImageGuid(), n.vendorId(),
                        n.deviceId(), n.description(), n.lid(), n.lmc(), n.enhancedPort0(), ps));
            }
            return this;
        }

        /** @return the topology */
        public Topology build() {
            return new Topology(nodes, links);
        }

        private Node find(String name) {
            return nodes.stream().filter(n -> n.name().equals(name)).findFirst()
                    .orElseThrow(() -> new RdmaException(Errno.ENODEV, "no node \"" + name + "\""));
        }

        private void replace(Node old, Node now) {
            nodes.set(nodes.indexOf(old), now);
        }
    }

    /** ibsim's default GUID counters ({@code guids[NODE_TYPES]} in sim_net.c). */
    static final class GuidCounters {
        private long caGuid = 0x100000;
        private long switchGuid = 0x200000;

        long next(NodeType type, int numPorts) {
            if (type == NodeType.SWITCH) {
                return switchGuid++;
            }
            long g = caGuid;
            caGuid += numPorts + 1;
            return g;
        }

        void set(NodeType type, long guid) {
            if (type == NodeType.SWITCH) {
                switchGuid = guid;
            } else {
                caGuid = guid;
            }
        }
    }
}
