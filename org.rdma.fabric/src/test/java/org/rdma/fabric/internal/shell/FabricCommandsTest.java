package org.rdma.fabric.internal.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.FaultProfile;
import org.rdma.fabric.Topology;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** {@code rdma:capture} and {@code rdma:fault} against a real in-memory fabric. */
class FabricCommandsTest {
    @TempDir
    Path dir;
    private Fabric fabric;
    private FabricTools tools;

    @BeforeEach
    void setUp() {
        Topology t = Topology.builder().addSwitch("sw0", 4).addCa("host1", 1).addCa("host2", 1)
                .link("sw0", 3, "host1", 1).link("sw0", 4, "host2", 1).build();
        fabric = Fabrics.create("lab", t, new VirtualClock(), 1);
        fabric.attach("host1");
        tools = new FabricTools();
        tools.addFabric(fabric);
    }

    @AfterEach
    void tearDown() {
        tools.deactivate();
        fabric.close();
    }

    private static List<String> lines(Consumer<PrintStream> c) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8)) {
            c.accept(out);
        }
        return b.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private FabricLink link() {
        return fabric.findNode("sw0").orElseThrow().port(3).link();
    }

    @Test
    void faultSetsBothDirectionsAndShowsThem() {
        List<String> out = lines(o -> new FaultCommand(tools).run(o, "sw0/3", "drop", "5%", "corrupt", "0.001",
                "delay", "1.5"));
        assertEquals(List.of("sw0/3 <-> host1/1 state up cable present",
                "  sw0/3 -> host1/1: delay 1.500ms loss 5% duplicate 0% reorder 0% corrupt 0.1% (packets 0 dropped 0"
                        + " duplicated 0 reordered 0 corrupted 0 delayed 0 lost_link_down 0)",
                "  host1/1 -> sw0/3: delay 1.500ms loss 5% duplicate 0% reorder 0% corrupt 0.1% (packets 0 dropped 0"
                        + " duplicated 0 reordered 0 corrupted 0 delayed 0 lost_link_down 0)"), out);
        FaultProfile p = link().faults(link().endA());
        assertEquals(0.05, p.dropRate(), 1e-12);
        assertEquals(0.001, p.corruptRate(), 1e-12);
        assertEquals(1_500_000, p.delayNanos());
        assertEquals(p, link().faults(link().endB()));
        // named by the other end, with -f; only duplicate changes
        lines(o -> new FaultCommand(tools).run(o, "-f", "lab", "host1/1", "duplicate", "0.5"));
        assertEquals(0.05, link().faults(link().endA()).dropRate(), 1e-12);
        assertEquals(0.5, link().faults(link().endA()).duplicateRate(), 1e-12);
        lines(o -> new FaultCommand(tools).run(o, "sw0/3", "clear"));
        assertTrue(link().faults(link().endA()).isNone());
        assertTrue(link().faults(link().endB()).isNone());
    }

    @Test
    void pullAndRestoreTheCable() {
        List<String> out = lines(o -> new FaultCommand(tools).run(o, "sw0/3", "pull"));
        assertEquals("sw0/3 <-> host1/1 state down cable pulled", out.get(0));
        assertFalse(link().isUp());
        out = lines(o -> new FaultCommand(tools).run(o, "sw0/3", "restore"));
        assertEquals("sw0/3 <-> host1/1 state up cable present", out.get(0));
        assertTrue(link().isUp());
    }

    @Test
    void faultErrors() {
        assertError(Errno.ENODEV, "ENODEV: no node 'sw9' in fabric lab", "sw9/1", "drop", "0.1");
        assertError(Errno.ENODEV, "ENODEV: no cable on sw0/1", "sw0/1", "drop", "0.1");
        assertError(Errno.ENODEV, "ENODEV: no fabric named 'other'", "-f", "other", "sw0/3");
        assertError(Errno.EINVAL, "EINVAL: drop probability must be within [0, 1] (or 0%..100%), got '1.5'; usage: "
                + FaultCommand.USAGE, "sw0/3", "drop", "1.5");
        assertError(Errno.EINVAL, "EINVAL: bad delay 'soon' (milliseconds); usage: " + FaultCommand.USAGE,
                "sw0/3", "delay", "soon");
        assertError(Errno.EINVAL, "EINVAL: unknown fault 'jitter'; usage: " + FaultCommand.USAGE, "sw0/3",
                "jitter", "3");
        assertError(Errno.EINVAL, "EINVAL: 'reorder' needs a value; usage: " + FaultCommand.USAGE, "sw0/3",
                "reorder");
        assertError(Errno.EINVAL, "EINVAL: a link is NODE/PORT, got 'sw0'", "sw0");
    }

    private void assertError(Errno errno, String message, String... args) {
        RdmaException e = assertThrows(RdmaException.class, () -> new FaultCommand(tools).run(System.out, args));
        assertEquals(errno, e.errno());
        assertEquals(message, e.getMessage());
    }

    @Test
    void captureStartListStopWritesAnErfPcap() throws Exception {
        Path file = dir.resolve("sw0-3.pcap");
        assertEquals(List.of("capturing sw0/3 <-> host1/1 to " + file),
                lines(o -> new CaptureCommand(tools).run(o, "start", "sw0/3", file.toString())));
        assertEquals(List.of("lab sw0/3 <-> host1/1 file " + file + " packets 0 running"),
                lines(o -> new CaptureCommand(tools).run(o, "list")));
        RdmaException busy = assertThrows(RdmaException.class,
                () -> new CaptureCommand(tools).run(System.out, "start", "host1/1", file.toString()));
        assertEquals(Errno.EBUSY, busy.errno());
        assertEquals(List.of("lab sw0/3 <-> host1/1 file " + file + " packets 0 stopped"),
                lines(o -> new CaptureCommand(tools).run(o, "-f", "lab", "stop", "host1/1")));
        assertEquals(List.of("no captures"), lines(o -> new CaptureCommand(tools).run(o, "list")));
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xA1B2C3D4, b.getInt(0));
        assertEquals(197, b.getInt(20), "LINKTYPE_ERF");
        RdmaException none = assertThrows(RdmaException.class,
                () -> new CaptureCommand(tools).run(System.out, "stop", "sw0/3"));
        assertEquals("ENOENT: no capture on sw0/3 <-> host1/1", none.getMessage());
    }

    @Test
    void captureErrorsAndFabricChoice() {
        RdmaException e = assertThrows(RdmaException.class, () -> new CaptureCommand(tools).run(System.out, "begin"));
        assertEquals("EINVAL: unknown action 'begin'; usage: " + CaptureCommand.USAGE, e.getMessage());
        e = assertThrows(RdmaException.class, () -> new CaptureCommand(tools).run(System.out, "start", "sw0/3"));
        assertEquals(Errno.EINVAL, e.errno());
        e = assertThrows(RdmaException.class,
                () -> new CaptureCommand(tools).run(System.out, "start", "sw0/2", dir.resolve("x").toString()));
        assertEquals(Errno.ENODEV, e.errno());
        Fabric second = Fabrics.create("lab2", Topology.builder().addSwitch("sw0", 2).build(), new VirtualClock(), 1);
        try {
            tools.addFabric(second);
            e = assertThrows(RdmaException.class, () -> new FaultCommand(tools).run(System.out, "sw0/3"));
            assertEquals("EINVAL: several fabrics (lab, lab2): give -f FABRIC", e.getMessage());
            tools.removeFabric(second);
            tools.removeFabric(fabric);
            e = assertThrows(RdmaException.class, () -> new FaultCommand(tools).run(System.out, "sw0/3"));
            assertEquals("ENODEV: no fabric", e.getMessage());
        } finally {
            second.close();
        }
    }
}
