package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** The ibnetdiscover / ibsim topology format, the builder, and fabrics built from them. */
class TopologyTest {

    @Test
    void parsesIbnetdiscoverOutput() {
        Topology t = Topology.parse(Nets.resource("three-switches.topo"));
        assertEquals(7, t.nodes().size());
        assertEquals(6, t.links().size(), "each cable once, though both ends list it");
        Topology.Node s1 = t.node(Nets.S1).orElseThrow();
        assertEquals(NodeType.SWITCH, s1.type());
        assertEquals(36, s1.numPorts());
        assertEquals(0x2c90300f0e0d0L, s1.nodeGuid());
        assertEquals(0x2c90300f0e0d3L, s1.systemImageGuid());
        assertEquals(0x2c9, s1.vendorId());
        assertEquals(0xc738, s1.deviceId());
        assertEquals("SwitchX -  Mellanox Technologies", s1.description());
        assertEquals(1, s1.lid());
        assertFalse(s1.enhancedPort0());
        assertEquals(0x2c90300f0e0d0L, s1.portGuid(7), "switch ports share the node GUID");
        Topology.Node h1 = t.node(Nets.H1).orElseThrow();
        assertEquals(NodeType.CA, h1.type());
        assertEquals(2, h1.numPorts());
        assertEquals(0x2c90300a1b2c0L, h1.nodeGuid());
        assertEquals(0x2c90300a1b2c1L, h1.portGuid(1));
        assertEquals(0x2c90300a1b2c2L, h1.portGuid(2));
        assertEquals(10, h1.port(1).orElseThrow().lid());
        assertEquals("node01 mlx4_0", h1.description());
        assertEquals(0x1003, h1.deviceId());
        Topology.Link l = t.links().get(0);
        assertEquals(Nets.S1, l.nodeA());
        assertEquals(1, l.portA());
        assertEquals(Nets.H1, l.nodeB());
        assertEquals(PortWidth.WIDTH_4X, l.width());
        assertEquals(PortSpeed.FDR, l.speed());
    }

    @Test
    void parsesIbsimNetFiles() {
        Topology t = Topology.parse(Nets.resource("ibsim-style.net"));
        assertEquals(5, t.nodes().size());
        assertEquals(5, t.links().size());
        // ibsim's GUID counters: switches from 0x200000, CAs from 0x100000 by ports + 1.
        assertEquals(0x200000L, t.node("sw-core").orElseThrow().nodeGuid());
        assertEquals(0x200001L, t.node("sw-edge").orElseThrow().nodeGuid());
        assertEquals(0x100000L, t.node("hostA").orElseThrow().nodeGuid());
        assertEquals(0x100003L, t.node("hostB").orElseThrow().nodeGuid());
        assertEquals(0x100006L, t.node("hostC").orElseThrow().nodeGuid());
        Topology.Link b = t.links().stream().filter(x -> x.nodeB().equals("hostB")).findFirst().orElseThrow();
        assertEquals(PortWidth.WIDTH_1X, b.width(), "w=1");
        assertEquals(PortSpeed.DDR, b.speed(), "s=2");
        Topology.Link c = t.links().stream().filter(x -> x.nodeB().equals("hostC")).findFirst().orElseThrow();
        assertEquals(1, c.portB(), "no remote port: port 1");
        // Two parallel cables between the switches.
        assertEquals(2, t.links().stream().filter(x -> x.nodeA().equals("sw-core") && x.nodeB().equals("sw-edge")).count());
    }

    @Test
    void formatAndParseRoundTrip() {
        for (String res : List.of("three-switches.topo", "ibsim-style.net")) {
            Topology t = Topology.parse(Nets.resource(res));
            String text = t.format();
            assertEquals(t, Topology.parse(text), res + ":\n" + text);
        }
        String text = Topology.parse(Nets.resource("three-switches.topo")).format();
        assertTrue(text.contains("switchguid=0x2c90300f0e0d0(2c90300f0e0d0)\nSwitch\t36 \"S-0002c90300f0e0d0\"\t\t# "
                + "\"SwitchX -  Mellanox Technologies\" base port 0 lid 1 lmc 0\n"
                + "[1]\t\"H-0002c90300a1b2c0\"[1](2c90300a1b2c1) \t\t# \"node01 mlx4_0\" lid 10 4xFDR\n"), text);
        assertTrue(text.contains("[1](2c90300a1b2c1) \t\"S-0002c90300f0e0d0\"[1]\t\t# lid 10 lmc 0 "
                + "\"SwitchX -  Mellanox Technologies\" lid 1 4xFDR\n"), text);
    }

    @Test
    void aFabricReportsTheTopologyItWasBuiltFrom() {
        Topology t = Topology.parse(Nets.resource("three-switches.topo"));
        Fabric f = Fabrics.create("t", t, new VirtualClock(), 1);
        assertEquals(t, f.topology());
        FabricNode s2 = f.findNode("0x2c90300f0e1e0").orElseThrow();
        assertEquals(Nets.S2, s2.name());
        assertEquals(2, s2.port(0).lid());
        // The switch-to-switch cables trained at once; the CA slots wait for their drivers.
        assertEquals(PortState.INIT, s2.port(1).portState());
        assertEquals(PhysPortState.POLLING, Nets.port(f, Nets.S1, 1).physState());
        assertEquals(10, Nets.port(f, Nets.H1, 1).lid(), "the LID the file reports");
        f.close();
    }

    @Test
    void builderAndEthernetExtension() {
        Topology t = Topology.builder().addSwitch("sw", 4).addCa("ca", 2).addEthernet("lan", 2)
                .link("sw", 1, "ca", 1, PortWidth.WIDTH_4X, PortSpeed.EDR).link("ca", 2, "lan", 1)
                .describe("ca", "host ca").lid("ca", 1, 7, 1).build();
        String text = t.format();
        assertTrue(text.contains("Ethernet\t2 \"lan\"\n[1]\t\"ca\"[2]\n"), text);
        assertEquals(t, Topology.parse(text));
        Fabric f = Fabrics.create("b", t, new VirtualClock(), 1);
        FabricNode ca = f.findNode("ca").orElseThrow();
        assertEquals(LinkLayer.INFINIBAND, ca.port(1).linkLayer());
        assertEquals(LinkLayer.ETHERNET, ca.port(2).linkLayer());
        assertTrue(ca.port(2) instanceof EthernetPort);
        assertEquals(7, ca.port(1).lid());
        assertEquals(1, ca.port(1).lmc());
        f.attach("ca");
        assertEquals(PortSpeed.EDR, ca.port(1).linkSpeedActive());
        assertEquals(PortState.ACTIVE, ca.port(2).portState());
        f.close();
    }

    /** Found by fuzzing: a cable declared from its far end came back from format() the other way round. */
    @Test
    void equalTopologiesMayListNodesAndCablesInAnyOrder() {
        Topology a = Topology.builder().addSwitch("s", 4, 0x10).addCa("h", 2, 0x20).addEthernet("e", 2)
                .link("s", 1, "h", 1).link("e", 1, "h", 2).build();
        Topology b = Topology.builder().addEthernet("e", 2).addCa("h", 2, 0x20).addSwitch("s", 4, 0x10)
                .link("h", 2, "e", 1).link("h", 1, "s", 1).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a, Topology.parse(b.format()));
        Topology c = Topology.builder().addSwitch("s", 4, 0x10).addCa("h", 2, 0x20).addEthernet("e", 2)
                .link("s", 2, "h", 1).link("e", 1, "h", 2).build();
        assertNotEquals(a, c);
    }

    /** Found by fuzzing: a switch named or described with "enhanced port 0" or "lid 5" took them as its own. */
    @Test
    void aDescriptionIsNotReadForTheSwitchsPort0() {
        Topology t = Topology.parse("Switch 8 \"s\" # \"enhanced port 0 lid 5 lmc 2\" base port 0 lid 7 lmc 1\n");
        Topology.Node s = t.node("s").orElseThrow();
        assertEquals("enhanced port 0 lid 5 lmc 2", s.description());
        assertFalse(s.enhancedPort0());
        assertEquals(7, s.lid());
        assertEquals(1, s.lmc());
        assertEquals(t, Topology.parse(t.format()));
    }

    /** Found by fuzzing: a lone CR in a name was written back into a header line that no longer matched. */
    @Test
    void controlCharactersAreRefused() {
        RdmaException e = assertThrows(RdmaException.class, () -> Topology.parse("\nSwitch 8 \"a\rb\"\n"));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().contains(":2: control character 0x0d"), e.getMessage());
        assertEquals(1, Topology.parse("Switch\t8 \"a\"\r\n").nodes().size(), "CR LF ends a line");
    }

    /** Found by fuzzing: a GUID on a switch's own side of a port line stuck to the switch's port. */
    @Test
    void aSwitchPortTakesNoGuidOfItsOwn() {
        Topology t = Topology.parse("Switch 4 \"s\"\n[1](2c90300a1b5c1) \"h\"[1]\n\nCa 1 \"h\"\n[1] \"s\"[1]\n");
        Topology.Node s = t.node("s").orElseThrow();
        assertEquals(s.nodeGuid(), s.portGuid(1));
        assertEquals(t, Topology.parse(t.format()));
    }

    /** Found by fuzzing: the description of an Ethernet segment was not written back. */
    @Test
    void anEthernetSegmentKeepsItsDescription() {
        Topology t = Topology.parse("Ethernet 2 \"lan\" # \"the lab's switch\"\n");
        assertEquals("the lab's switch", t.node("lan").orElseThrow().description());
        assertEquals(t, Topology.parse(t.format()));
    }

    @Test
    void errorsNameTheLine() {
        RdmaException twice = assertThrows(RdmaException.class, () -> Topology.parse(
                "Switch 4 \"a\"\n[1] \"b\"[1]\n[1] \"c\"[1]\n\nHca 1 \"b\"\n[1] \"a\"[1]\n\nHca 1 \"c\"\n[1] \"a\"[1]\n"));
        assertEquals(Errno.EBUSY, twice.errno());
        assertTrue(twice.getMessage().contains(":3:"), twice.getMessage());
        RdmaException unknown = assertThrows(RdmaException.class, () -> Topology.parse("Switch 4 \"a\"\n[1] \"zz\"[1]\n"));
        assertEquals(Errno.ENODEV, unknown.errno());
        RdmaException badPort = assertThrows(RdmaException.class, () -> Topology.parse("\n\nSwitch 4 \"a\"\n[9] \"b\"[1]\n"));
        assertEquals(Errno.EINVAL, badPort.errno());
        assertTrue(badPort.getMessage().startsWith("EINVAL: <topology>:4: bad port num 9"), badPort.getMessage());
        assertEquals(Errno.EEXIST, assertThrows(RdmaException.class,
                () -> Topology.parse("Hca 1 \"x\"\n\nHca 1 \"x\"\n")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> Topology.parse("Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n[1] \"a\"[1]\n\nEthernet 2 \"e\"\n"
                        + "[1] \"a\"[2]\n")).errno());
        // found by fuzzing: an unquoted description with a quote, which format() could not write back
        RdmaException quote = assertThrows(RdmaException.class, () -> Topology.parse("Ca 1 \"h\" # lid 1 x \"y\" lid 0\n"));
        assertEquals(Errno.EINVAL, quote.errno());
        assertTrue(quote.getMessage().contains(":1:"), quote.getMessage());
    }

    @Test
    void includesResolveAgainstTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("hosts.net"), "Hca 1 \"h\"\n[1] \"s\"[1]\n");
        Files.writeString(dir.resolve("main.net"), "Switch 2 \"s\"\n[1] \"h\"[1]\n\ninclude \"hosts.net\"\n");
        Topology t = Topology.parse(dir.resolve("main.net"));
        assertEquals(2, t.nodes().size());
        assertEquals(1, t.links().size());
        assertThrows(RdmaException.class, () -> Topology.parse("include \"x\"\n"));
    }
}
