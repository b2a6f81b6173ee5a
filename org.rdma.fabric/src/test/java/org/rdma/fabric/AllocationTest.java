package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.rvt.testkit.Peers;

/**
 * The fast path does not allocate: packets come from the port pool, headers are written into the
 * packet, the payload travels by reference, the switch reads its LFT without locks, and the
 * packet returns to its pool when the sink returns. Measured with
 * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}.
 */
class AllocationTest {
    private static final int PACKETS = 10_000;

    /** A sink that only counts (a driver that consumes inline). */
    private static final class Counting implements PacketSink {
        long packets;
        long bytes;

        @Override
        public void receive(Packet p) {
            packets++;
            bytes += p.payloadLength + p.psn(p.bthOffset()) * 0;
        }
    }

    private static long measure(FabricPort from, byte[] template, int headerLength, ByteBuffer mr, int len, int n) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = bean.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            Packet p = from.allocPacket();
            System.arraycopy(template, 0, p.header, 0, headerLength);
            p.headerLength = headerLength;
            p.payload = mr;
            p.payloadOffset = 0;
            p.payloadLength = len;
            p.padCount = 0;
            from.transmit(p);
        }
        return bean.getCurrentThreadAllocatedBytes() - before;
    }

    private static void assumeAllocationCounting() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Peers.require(bean instanceof com.sun.management.ThreadMXBean
                && ((com.sun.management.ThreadMXBean) bean).isThreadAllocatedMemorySupported()
                && ((com.sun.management.ThreadMXBean) bean).isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
    }

    private static long run(String from, String to, int dlid, int slid) {
        Fabric f = Nets.threeSwitches(new VirtualClock(), 1);
        try {
            FabricPort src = Nets.port(f, from, 1);
            Counting sink = new Counting();
            Nets.port(f, to, 1).setSink(sink);
            ByteBuffer mr = ByteBuffer.allocateDirect(4096);
            Packet t = Pkts.ud(src, 0, 0, dlid, slid, 0x33, 1, mr, 0, 1024);
            byte[] template = java.util.Arrays.copyOf(t.header, t.headerLength);
            int hl = t.headerLength;
            t.release();
            // Warm up: fill the pools, let the JIT compile and inline the path.
            for (int round = 0; round < 5; round++) {
                measure(src, template, hl, mr, 1024, PACKETS);
            }
            long bytes = measure(src, template, hl, mr, 1024, PACKETS);
            assertEquals(6L * PACKETS, sink.packets, "every packet arrived");
            System.out.printf("allocation: %d bytes for %d packets %s -> %s (%.4f bytes/packet)%n", bytes, PACKETS,
                    from, to, bytes / (double) PACKETS);
            return bytes;
        } finally {
            f.close();
        }
    }

    @Test
    void forwardingThroughOneSwitchAllocatesNothing() {
        assumeAllocationCounting();
        long bytes = run(Nets.H1, Nets.H3, 12, 10);
        assertTrue(bytes <= 1024, "allocated " + bytes + " bytes for " + PACKETS + " packets through S1");
    }

    @Test
    void roceThroughALearningBridgeAllocatesNothing() throws Exception {
        assumeAllocationCounting();
        Topology t = Topology.builder().addCa("a", 1).addCa("b", 1).addCa("c", 1).addEthernet("seg", 3)
                .link("a", 1, "seg", 1).link("b", 1, "seg", 2).link("c", 1, "seg", 3).build();
        Fabric f = Fabrics.create("eth", t, new VirtualClock(), 1);
        try {
            EthernetPort a = (EthernetPort) f.attach("a").port(1);
            EthernetPort b = (EthernetPort) f.attach("b").port(1);
            f.attach("c");
            Counting sink = new Counting();
            b.setSink(sink);
            java.net.InetAddress ipA = java.net.InetAddress.getByName("10.1.0.1");
            java.net.InetAddress ipB = java.net.InetAddress.getByName("10.1.0.2");
            a.addIpAddress(ipA);
            b.addIpAddress(ipB);
            MacAddress macB = a.resolve(ipB).toCompletableFuture().get();
            ByteBuffer mr = ByteBuffer.allocateDirect(4096);
            Packet tp = Pkts.roce(a, macB, ipA, ipB, 0x33, 1, mr, 0, 1024);
            byte[] template = java.util.Arrays.copyOf(tp.header, tp.headerLength);
            int hl = tp.headerLength;
            tp.release();
            for (int round = 0; round < 5; round++) {
                measure(a, template, hl, mr, 1024, PACKETS);
            }
            long bytes = measure(a, template, hl, mr, 1024, PACKETS);
            assertEquals(6L * PACKETS, sink.packets);
            System.out.printf("allocation: %d bytes for %d RoCEv2 packets through the bridge (%.4f bytes/packet)%n",
                    bytes, PACKETS, bytes / (double) PACKETS);
            assertTrue(bytes <= 1024, "allocated " + bytes + " bytes");
        } finally {
            f.close();
        }
    }

    @Test
    void forwardingThroughThreeSwitchesAllocatesNothing() {
        assumeAllocationCounting();
        long bytes = run(Nets.H1, Nets.H2, 11, 10);
        assertTrue(bytes <= 1024, "allocated " + bytes + " bytes for " + PACKETS + " packets through S1, S2, S3");
    }
}
