package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** Cable pull and restore, CA slots attaching and detaching, and the notifications they cause. */
class LinkStateTest {
    private final VirtualClock clock = new VirtualClock();
    private Fabric f;
    private final List<PortEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        f = Nets.threeSwitches(clock, 5);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private String log() {
        StringBuilder sb = new StringBuilder();
        for (PortEvent e : events) {
            sb.append(e.port().node().name().substring(0, 4)).append(e.port()).append(' ').append(e.type()).append(' ')
                    .append(e.physState()).append(' ').append(e.newState()).append('\n');
        }
        events.clear();
        return sb.toString();
    }

    @Test
    void cablePullTakesBothEndsDownAndNotifies() {
        FabricPort s2 = Nets.port(f, Nets.S2, 2);
        FabricPort s3 = Nets.port(f, Nets.S3, 1);
        s2.addListener(events::add);
        s3.addListener(events::add);
        FabricLink cable = s2.link();
        assertTrue(cable.isUp());
        cable.cablePull();
        assertFalse(cable.isUp());
        assertFalse(cable.isCablePresent());
        for (FabricPort p : List.of(s2, s3)) {
            assertEquals(PhysPortState.POLLING, p.physState());
            assertEquals(PortState.DOWN, p.portState());
            assertNull(p.linkWidthActive());
            assertEquals(1, p.counters().linkDownedCounter());
        }
        assertEquals(2, events.size());
        for (PortEvent e : events) {
            assertEquals(PortEvent.Type.LINK_DOWN, e.type());
            assertEquals(PortState.ACTIVE, e.oldState());
            assertEquals(PortState.DOWN, e.newState());
            assertEquals(PhysPortState.POLLING, e.physState());
        }
        events.clear();
        // No path any more: the packet dies at S2's output.
        FabricPort h1 = Nets.port(f, Nets.H1, 1);
        Pkts.Collector at2 = new Pkts.Collector();
        Nets.port(f, Nets.H2, 1).setSink(at2);
        h1.transmit(Pkts.ud(h1, 11, 10, 1, 8));
        assertEquals(0, at2.size());
        assertEquals(1, s2.counters().portXmitDiscards());
        // A selective clear (PerfMgt Set with some CounterSelect bits) leaves the other counters.
        s2.clearCounters(1L << 6);
        long[] c = s2.counters().toArray();
        assertEquals(0, c[6], "PortXmitDiscards, component 6");
        assertEquals(1, c[2], "LinkDownedCounter stays");
        assertEquals(PortCounterSnapshot.COMPONENTS, c.length);
        // Restore: the link trains to Init; data waits for the SM to activate the ports again.
        cable.cableRestore();
        assertTrue(cable.isUp());
        assertEquals(2, events.size());
        assertTrue(events.stream().allMatch(e -> e.type() == PortEvent.Type.LINK_UP && e.newState() == PortState.INIT
                && e.physState() == PhysPortState.LINK_UP));
        h1.transmit(Pkts.ud(h1, 11, 10, 2, 8));
        assertEquals(0, at2.size());
        Nets.activateAll(f);
        h1.transmit(Pkts.ud(h1, 11, 10, 3, 8));
        assertEquals(List.of(3), at2.psns());
        assertTrue(Nets.sw(f, Nets.S2).mft(0xC000).isEmpty());
    }

    @Test
    void caDriverHearsItsCablePulledFromTheSwitchSide() {
        FabricPort h2 = Nets.port(f, Nets.H2, 1);
        h2.addListener(events::add);
        FabricPort s3 = Nets.port(f, Nets.S3, 2);
        s3.setPhysState(PhysPortState.DISABLED);
        assertEquals(PhysPortState.DISABLED, s3.physState());
        assertEquals(PhysPortState.POLLING, h2.physState());
        assertEquals("H-00\"H-0002c90300a1b4c0\"[1] LINK_DOWN POLLING DOWN\n", log());
        s3.setPhysState(PhysPortState.POLLING);
        assertEquals("H-00\"H-0002c90300a1b4c0\"[1] LINK_UP LINK_UP INIT\n", log());
    }

    @Test
    void packetsInFlightAreLostWhenTheCableIsPulled() {
        FabricPort h1 = Nets.port(f, Nets.H1, 1);
        Pkts.Collector at2 = new Pkts.Collector();
        Nets.port(f, Nets.H2, 1).setSink(at2);
        FabricPort s2 = Nets.port(f, Nets.S2, 2);
        s2.link().setFaults(s2, FaultProfile.NONE.withDelay(1, TimeUnit.MICROSECONDS));
        h1.transmit(Pkts.ud(h1, 11, 10, 1, 8));
        h1.transmit(Pkts.ud(h1, 11, 10, 2, 8));
        s2.link().cablePull();
        s2.link().cableRestore();
        clock.runAll();
        assertEquals(0, at2.size());
        assertEquals(2, s2.link().faultCounters(s2).lostLinkDown());
    }

    @Test
    void caSlotsAttachAndDetach() {
        FabricNode h4 = f.findNode(Nets.H4).orElseThrow();
        FabricPort s3 = Nets.port(f, Nets.S3, 3);
        s3.addListener(events::add);
        assertThrows(RdmaException.class, () -> f.attach(Nets.H4));
        h4.port(1).setSink(p -> { });
        h4.port(1).addListener(e -> {
            throw new AssertionError("a detached driver is not called back");
        });
        h4.detach();
        assertFalse(h4.isAttached());
        assertEquals(PortState.DOWN, s3.portState());
        assertEquals(PhysPortState.POLLING, s3.physState());
        assertEquals("S-00\"S-0002c90300f0e2f0\"[3] LINK_DOWN POLLING DOWN\n", log());
        assertEquals(0, h4.port(1).lid(), "a new driver starts from scratch");
        // Attach by GUID, in any of the usual spellings.
        assertEquals(h4, f.attach("0002:c903:00a1:b5c0"));
        assertEquals("S-00\"S-0002c90300f0e2f0\"[3] LINK_UP LINK_UP INIT\n", log());
        RdmaException busy = assertThrows(RdmaException.class, () -> f.attach("0x2c90300a1b5c0"));
        assertEquals(Errno.EBUSY, busy.errno());
        assertEquals(Errno.ENODEV, assertThrows(RdmaException.class, () -> f.attach("H-nope")).errno());
        assertEquals(Errno.ENODEV, assertThrows(RdmaException.class, () -> f.attach(Nets.S1)).errno());
    }

    @Test
    void dynamicNodesAndCables() {
        FabricNode ca = f.addCa("late", 0x7000, LinkLayer.INFINIBAND, LinkLayer.INFINIBAND);
        FabricPort s1p5 = Nets.port(f, Nets.S1, 5);
        FabricLink l = f.connect(ca.port(2), s1p5, org.rdma.verbs.PortWidth.WIDTH_4X, org.rdma.verbs.PortSpeed.EDR);
        assertFalse(l.isUp(), "the slot is not attached yet");
        assertEquals(PhysPortState.POLLING, s1p5.physState());
        f.attach("late");
        assertTrue(l.isUp());
        assertEquals(0x7002, ca.port(2).portGuid());
        assertEquals(org.rdma.verbs.PortSpeed.EDR, s1p5.linkSpeedActive());
        assertEquals(Errno.EBUSY, assertThrows(RdmaException.class,
                () -> f.connect(ca.port(1), s1p5, null, null)).errno());
        assertEquals(Errno.EEXIST, assertThrows(RdmaException.class, () -> f.addCa("late", 0x8000,
                LinkLayer.INFINIBAND)).errno());
        f.disconnect(l);
        assertNull(s1p5.link());
        assertEquals(PortState.DOWN, s1p5.portState());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> s1p5.setLid(5, 0)).errno());
    }

    @Test
    void lidChangesAreReported() {
        FabricPort h1 = Nets.port(f, Nets.H1, 1);
        h1.addListener(events::add);
        h1.setLid(0x99, 2);
        assertEquals(0x99, h1.lid());
        assertEquals(2, h1.lmc());
        assertEquals(PortEvent.Type.LID_CHANGE, events.get(0).type());
        assertThrows(RdmaException.class, () -> h1.setLid(0xC000, 0));
        assertThrows(RdmaException.class, () -> h1.setLid(1, 8));
    }

    @Test
    void closingTheFabricTakesEverythingDown() {
        FabricPort h1 = Nets.port(f, Nets.H1, 1);
        h1.addListener(events::add);
        f.close();
        assertEquals(PortEvent.Type.LINK_DOWN, events.get(0).type());
        assertEquals(Errno.ENODEV, assertThrows(RdmaException.class, () -> f.addSwitch("x", 1, 2)).errno());
    }
}
