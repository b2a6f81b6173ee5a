package org.rdma.diags.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Topology;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.NodeType;

/**
 * ibnetdiscover on three switches and six hosts: the topology file it prints, read back with
 * org.rdma.fabric's parser, is the fabric it discovered; its layout is the real tool's, line by
 * line, on the same topology under ibsim (only LIDs, speeds, IDs and host names differ).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IbnetdiscoverTest {
    DiagNet d;

    @BeforeAll
    void up() {
        d = new DiagNet(SmNet.ring(3, 2));
    }

    @AfterAll
    void down() {
        d.close();
    }

    /** What differs between this fabric and ibsim's: LIDs, rates, vendor and device IDs, CA descriptions. */
    static List<String> normalized(List<String> lines) {
        return lines.stream()
                .map(l -> l.replaceAll("lid \\d+", "lid N").replaceAll("(vendid|devid)=0x\\p{XDigit}+", "$1=0xN")
                        .replaceAll("(vendid|devid) 0x\\p{XDigit}+", "$1 0xN")
                        .replaceAll("\\b4x ?(SDR|QDR)", "4xR").replaceAll("\"(h\\d) mlx4_\\d\"", "\"$1\"")
                        .replaceAll("'(h\\d) mlx4_\\d'", "'$1'").replaceAll("(CA|SW) +\\d+ ", "$1 N ")
                        .replaceAll(" s=\\d ", " s=N "))
                .toList();
    }

    @Test
    void theTopologyFileHasTheRealToolsLayoutLineByLine() {
        // the sample ran from h1 (mlx4_1 here) on the same ring under ibsim
        List<String> ours = DiagNet.lines(d.ibnetdiscover, "-C", "mlx4_1");
        assertEquals(normalized(Replay.text("ibnetdiscover.txt")), normalized(ours));
        assertEquals("# Topology file: generated on Sun Nov 22 07:51:30 2026", ours.get(1));
        assertEquals(normalized(Replay.text("ibnetdiscover-l.txt")),
                normalized(DiagNet.lines(d.ibnetdiscover, "-C", "mlx4_1", "-l")));
        assertEquals(normalized(Replay.text("ibnetdiscover-p.txt")),
                normalized(DiagNet.lines(d.ibnetdiscover, "-C", "mlx4_1", "-p")));
        List<String> full = DiagNet.lines(d.ibnetdiscover, "-C", "mlx4_1", "-f");
        assertEquals(normalized(Replay.text("ibnetdiscover-f.txt")).subList(3, full.size()),
                normalized(full).subList(3, full.size()));
    }

    @Test
    void readBackWithTheFabricsParserItIsTheFabricItCameFrom() {
        Topology t = Topology.parse(DiagNet.text(d.ibnetdiscover));
        List<FabricNode> nodes = d.net.fabric.nodes();
        assertEquals(nodes.size(), t.nodes().size());
        Map<Long, Topology.Node> byGuid = new HashMap<>();
        for (Topology.Node n : t.nodes()) {
            byGuid.put(n.nodeGuid(), n);
        }
        for (FabricNode fn : nodes) {
            Topology.Node n = byGuid.get(fn.nodeGuid());
            assertTrue(n != null, "discovered " + fn.name());
            assertEquals(fn.nodeType(), n.type(), fn.name());
            assertEquals(fn.numPorts(), n.numPorts(), fn.name());
            assertEquals(fn.nodeDescription(), n.description(), fn.name());
            // a switch's identity is the fabric's; a CA's is its HCA's (the mlx4sim SMA answers)
            boolean sw = fn.nodeType() == NodeType.SWITCH;
            assertEquals(sw ? fn.vendorId() : d.net.dev(fn.name()).attrs().vendorId, n.vendorId(), fn.name());
            assertEquals(sw ? fn.deviceId() : d.net.dev(fn.name()).attrs().vendorPartId, n.deviceId(), fn.name());
            assertEquals(fn.systemImageGuid(), n.systemImageGuid(), fn.name());
            if (fn.nodeType() == NodeType.SWITCH) {
                assertEquals(fn.port(0).lid(), n.lid(), "switch LID of " + fn.name());
            } else {
                for (FabricPort p : fn.ports()) {
                    assertEquals(p.portGuid(), n.portGuid(p.portNum()), fn.name() + " port GUID");
                    assertEquals(p.lid(), n.port(p.portNum()).orElseThrow().lid(), fn.name() + " port LID");
                }
            }
        }
        Set<String> want = new HashSet<>();
        for (FabricLink l : d.net.fabric.links()) {
            want.add(link(l.endA().node().nodeGuid(), l.endA().portNum(), l.endB().node().nodeGuid(), l.endB().portNum())
                    + " " + l.endA().linkWidthActive() + " " + l.endA().linkSpeedActive());
        }
        Set<String> got = new HashSet<>();
        for (Topology.Link l : t.links()) {
            got.add(link(t.node(l.nodeA()).orElseThrow().nodeGuid(), l.portA(), t.node(l.nodeB()).orElseThrow().nodeGuid(),
                    l.portB()) + " " + l.width() + " " + l.speed());
        }
        assertEquals(want, got);
        assertEquals(9, got.size(), "three ring links and six host cables");
    }

    private static String link(long a, int pa, long b, int pb) {
        String x = Long.toHexString(a) + "[" + pa + "]";
        String y = Long.toHexString(b) + "[" + pb + "]";
        return x.compareTo(y) < 0 ? x + "-" + y : y + "-" + x;
    }

    @Test
    void everyHostSeesTheSameFabric() {
        Set<String> topologies = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            List<String> lines = DiagNet.lines(d.ibnetdiscover, "-C", "mlx4_" + i);
            // the nodes come in the order each host finds them; the set of lines is the same
            topologies.add(String.join("\n", new java.util.TreeSet<>(lines.subList(4, lines.size()))));
        }
        assertEquals(1, topologies.size());
    }

    @Test
    void listsAndAFileOperand(@TempDir Path dir) throws Exception {
        assertEquals(6, DiagNet.lines(d.ibnetdiscover, "-H").size());
        assertEquals(3, DiagNet.lines(d.ibnetdiscover, "-S").size());
        assertEquals(List.of(), DiagNet.lines(d.ibnetdiscover, "-R"));
        assertEquals(9, DiagNet.lines(d.ibnetdiscover, "-l").size());
        assertTrue(DiagNet.lines(d.ibnetdiscover, "-S").stream().allMatch(l -> l.startsWith("Switch\t : 0x00000000002")));
        Path f = dir.resolve("topo.txt");
        assertEquals(List.of(), DiagNet.lines(d.ibnetdiscover, f.toString()));
        assertEquals(DiagNet.text(d.ibnetdiscover), Files.readString(f));
    }

    @Test
    void errorsNameTheErrno() {
        assertEquals(Errno.ENODEV, DiagNet.errno(d.ibnetdiscover, "-C", "mlx4_9"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.ibnetdiscover, "-P", "7"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.ibnetdiscover, "-z"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.ibnetdiscover, "a", "b"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.ibnetdiscover, "-t", "0"));
        assertEquals(Errno.EIO, DiagNet.errno(d.ibnetdiscover, "/nonexistent/dir/topo"));
    }
}
