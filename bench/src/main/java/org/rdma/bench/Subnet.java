package org.rdma.bench;

import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FabricSwitch;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.hca.mlx4sim.internal.Mlx4Device;
import org.rdma.hca.mlx4sim.internal.Mlx4Params;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortState;
import org.rdma.verbs.time.SystemClock;

/**
 * The benchmarks' subnet: two single-port mlx4sim HCAs (InfiniBand) cabled to an 8-port switch,
 * each wrapped in the core's {@link CoreDevice} (the verbs a kernel consumer calls), on a real
 * clock. {@link #bringUp()} is a minimal subnet manager: it does what OpenSM's sweep leaves behind
 * (LIDs, the switch's linear forwarding table, Init &rarr; Armed &rarr; Active on every port)
 * through the fabric's management interface, the same state the embedded SMAs set when they get
 * {@code SubnSet(PortInfo)} and {@code SubnSet(LinearForwardingTable)}.
 */
final class Subnet implements HcaPair {
    static final long SW_GUID = 0x0002c90300f0e0d0L;
    static final long A_GUID = 0x0002c90300a1b2c0L;
    static final long B_GUID = 0x0002c90300a1b4c0L;
    static final int LID_SW = 1;
    static final int LID_A = 10;
    static final int LID_B = 11;

    final SystemClock clock = new SystemClock("bench-clock");
    final Fabric fabric;
    final Mlx4Device hcaA;
    final Mlx4Device hcaB;
    final CoreDevice devA;
    final CoreDevice devB;

    Subnet() {
        Topology t = Topology.builder().addSwitch("S", 8, SW_GUID).addCa("HA", 1, A_GUID).addCa("HB", 1, B_GUID)
                .link("HA", 1, "S", 1).link("HB", 1, "S", 2).build();
        fabric = Fabrics.create("bench", t, clock, 1);
        hcaA = hca("HA", "hosta");
        hcaB = hca("HB", "hostb");
        bringUp();
        devA = Bench.register(hcaA.provider(), "mlx4_0", 0);
        devB = Bench.register(hcaB.provider(), "mlx4_1", 1);
    }

    private Mlx4Device hca(String slot, String host) {
        Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.INFINIBAND);
        p.caSlot = slot;
        p.hostname = host;
        return new Mlx4Device(p);
    }

    /** The subnet manager's sweep, as its result: LIDs, LFT, then Armed and Active everywhere. */
    private void bringUp() {
        FabricSwitch sw = fabric.switches().get(0);
        FabricPort pa = hcaA.fabricPort(1);
        FabricPort pb = hcaB.fabricPort(1);
        sw.port(0).setLid(LID_SW, 0);
        pa.setLid(LID_A, 0);
        pb.setLid(LID_B, 0);
        sw.setLft(LID_SW, 0);
        sw.setLft(LID_A, pa.peer().portNum());
        sw.setLft(LID_B, pb.peer().portNum());
        sw.setLinearFdbTop(LID_B);
        FabricPort[] ports = {pa, pa.peer(), pb.peer(), pb};
        for (PortState s : new PortState[] {PortState.ARMED, PortState.ACTIVE}) {
            for (FabricPort p : ports) {
                p.setPortState(s);
            }
        }
        for (FabricPort p : ports) {
            if (p.portState() != PortState.ACTIVE) {
                throw new IllegalStateException(p + " is " + p.portState());
            }
        }
    }

    @Override
    public CoreDevice devA() {
        return devA;
    }

    @Override
    public CoreDevice devB() {
        return devB;
    }

    @Override
    public void close() {
        devA.provider().detach();
        devB.provider().detach();
        hcaA.close();
        hcaB.close();
        fabric.close();
        clock.close();
    }
}
