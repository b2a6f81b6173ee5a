package org.rdma.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FabricSwitch;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Packet;
import org.rdma.fabric.Topology;
import org.rdma.verbs.PortState;
import org.rdma.verbs.time.SystemClock;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;

/**
 * Where one packet's time goes: the layers of {@link DatapathBench}'s path measured one at a
 * time, in operations per second.
 * <ul>
 * <li>{@link #fabric8}: the fabric alone: one packet with an 8-byte payload from a CA port through
 * a switch to another CA port, as the {@link Subnet} cables them, with no HCA model at either
 * end (the driver's side is a header template copy and an empty sink);</li>
 * <li>{@link #transport8list} and {@link #transport64k}: the transport (rvt) and the core's verbs
 * alone: {@link DatapathBench#write8list} and {@link DatapathBench#write64k} between two rvt devices
 * on a {@link Wire}, with no fabric and no HCA model.</li>
 * </ul>
 * {@link Summary} prints each per packet next to the whole path's figure and the time the targets
 * leave a packet, which it derives from {@link DatapathBench#copy64k}, the baseline measured in
 * the same run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
public class LayerBench {
    /** One full packet's payload at path MTU 4096. */
    public static final int MTU = 4096;

    /** CA A -> switch -> CA B on a real clock, ports ACTIVE, LIDs and forwarding set; B's sink counts. */
    @State(Scope.Thread)
    public static class Wires {
        SystemClock clock;
        Fabric fabric;
        FabricPort from;
        ByteBuffer payload;
        final byte[] template = new byte[Lrh.IB_LRH_BYTES + Bth.IB_BTH_BYTES];
        long received;

        @Setup(Level.Trial)
        public void setUp() {
            clock = new SystemClock("fabric-bench-clock");
            Topology t = Topology.builder().addSwitch("S", 8, Subnet.SW_GUID).addCa("HA", 1, Subnet.A_GUID)
                    .addCa("HB", 1, Subnet.B_GUID).link("HA", 1, "S", 1).link("HB", 1, "S", 2).build();
            fabric = Fabrics.create("layer-bench", t, clock, 1);
            FabricSwitch sw = fabric.switches().get(0);
            from = fabric.attach("HA").port(1);
            FabricPort to = fabric.attach("HB").port(1);
            sw.port(0).setLid(Subnet.LID_SW, 0);
            from.setLid(Subnet.LID_A, 0);
            to.setLid(Subnet.LID_B, 0);
            sw.setLft(Subnet.LID_A, from.peer().portNum());
            sw.setLft(Subnet.LID_B, to.peer().portNum());
            sw.setLinearFdbTop(Subnet.LID_B);
            FabricPort[] ports = {from, from.peer(), to.peer(), to};
            for (PortState s : new PortState[] {PortState.ARMED, PortState.ACTIVE}) {
                for (FabricPort p : ports) {
                    p.setPortState(s);
                }
            }
            to.setSink(p -> received += p.payloadLength);
            payload = ByteBuffer.allocateDirect(8);
            Lrh lrh = new Lrh();
            lrh.lnh = Lrh.LNH_IBA_LOCAL;
            lrh.dlid = Subnet.LID_B;
            lrh.slid = Subnet.LID_A;
            lrh.packetLength = (template.length + payload.capacity() + Icrc.ICRC_BYTES) / 4;
            lrh.pack(template, 0);
            Bth bth = new Bth();
            bth.opcode = Bth.OPCODE_RC | 0x0a; // RDMA WRITE Only
            bth.pkey = 0xffff;
            bth.destQpn = 0x12;
            bth.psn = 1;
            bth.pack(template, Lrh.IB_LRH_BYTES);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (received == 0) {
                throw new IllegalStateException("no packet reached the far port");
            }
            fabric.close();
            clock.close();
        }
    }

    /** 8-byte WRITEs in lists of {@link DatapathBench#POST_LIST} between two rvt devices on a {@link Wire}. */
    @State(Scope.Thread)
    public static class SmallList {
        Writer writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = Workload.writer("transport8list");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            DatapathBench.finish(writer);
        }
    }

    /** 64 KiB WRITEs between two rvt devices on a {@link Wire}. */
    @State(Scope.Thread)
    public static class Big {
        Writer writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = Workload.writer("transport64k");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            DatapathBench.finish(writer);
        }
    }

    @Benchmark
    public void fabric8(Wires w) {
        Packet p = w.from.allocPacket();
        System.arraycopy(w.template, 0, p.header, 0, w.template.length);
        p.headerLength = w.template.length;
        p.payload = w.payload;
        p.payloadOffset = 0;
        p.payloadLength = w.payload.capacity();
        w.from.transmit(p);
    }

    @Benchmark
    @OperationsPerInvocation(DatapathBench.POST_LIST)
    public void transport8list(SmallList s) {
        s.writer.next();
    }

    @Benchmark
    public void transport64k(Big s) {
        s.writer.next();
    }
}
