package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.hca.mlx4sim.internal.Mlx4Device;
import org.rdma.hca.mlx4sim.internal.Mlx4Params;
import org.rdma.mad.internal.MadLayer;
import org.rdma.mad.internal.sa.SaLayer;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.time.VirtualClock;

/**
 * A test subnet from a topology text: one mlx4sim HCA in a real core device per CA, the MAD and
 * SA client layers, and the subnet manager on the first CA's port 1, all in virtual time.
 * Completions, MAD and SM work run on a queue the test drains with {@link #settle()}.
 */
final class SmNet implements AutoCloseable {
    /** A queue executor: {@link #settle()} runs it; in {@link #inline} mode it runs at once (teardown). */
    static final class Pump implements Executor {
        private final ArrayDeque<Runnable> q = new ArrayDeque<>();
        private boolean running;
        volatile boolean inline;

        @Override
        public void execute(Runnable r) {
            synchronized (this) {
                q.add(r);
                if (!inline || running) {
                    return;
                }
            }
            drain();
        }

        void drain() {
            synchronized (this) {
                if (running) {
                    return;
                }
                running = true;
            }
            try {
                while (true) {
                    Runnable n;
                    synchronized (this) {
                        n = q.poll();
                        if (n == null) {
                            return;
                        }
                    }
                    n.run();
                }
            } finally {
                synchronized (this) {
                    running = false;
                }
            }
        }
    }

    final VirtualClock clock = new VirtualClock();
    final Pump pump = new Pump();
    final Fabric fabric;
    final List<Mlx4Device> hcas = new ArrayList<>();
    final Map<String, CoreDevice> devs = new LinkedHashMap<>();
    final MadLayer mad;
    final SaLayer sa;
    final SubnetManager sm;

    final DeviceServices services = new DeviceServices() {
        @Override
        public Executor compWorkqueue() {
            return pump;
        }

        @Override
        public Executor compUnboundWorkqueue() {
            return pump;
        }

        @Override
        public void postEvent(IbEvent event) {
        }
    };

    /**
     * The topology text of a ring of {@code switches} switches {@code S0, S1, ...} (port 1 to the
     * next one's port 2; 1 or at least 3 switches) with {@code hostsPerSwitch} single-port CAs
     * {@code h0, h1, ...} on ports 3, 4, ...; CA {@code h0} runs the SM.
     */
    static String ring(int switches, int hostsPerSwitch) {
        StringBuilder b = new StringBuilder();
        int ports = 2 + hostsPerSwitch;
        for (int s = 0; s < switches; s++) {
            b.append("Switch ").append(ports).append(" \"S").append(s).append("\"\n");
            if (switches > 1) {
                b.append("[1] \"S").append((s + 1) % switches).append("\"[2]\n");
            }
            if (switches > 2) {
                b.append("[2] \"S").append((s + switches - 1) % switches).append("\"[1]\n");
            }
            for (int h = 0; h < hostsPerSwitch; h++) {
                b.append('[').append(3 + h).append("] \"h").append(s * hostsPerSwitch + h).append("\"[1]\n");
            }
            b.append('\n');
        }
        for (int s = 0; s < switches; s++) {
            for (int h = 0; h < hostsPerSwitch; h++) {
                b.append("Hca 1 \"h").append(s * hostsPerSwitch + h).append("\"\n[1] \"S").append(s).append("\"[")
                        .append(3 + h).append("]\n\n");
            }
        }
        return b.toString();
    }

    /** The subnet of {@code topology}; the SM is created, not started. */
    SmNet(String topology, long sweepPeriodMs) {
        Topology t = Topology.parse(topology);
        fabric = Fabrics.create("ib", t, clock, 1);
        mad = new MadLayer(clock, pump, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, pump);
        int index = 0;
        for (Topology.Node n : t.nodes()) {
            if (n.type() != NodeType.CA) {
                continue;
            }
            Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.INFINIBAND);
            p.caSlot = n.name();
            p.hostname = n.name();
            Mlx4Device d = new Mlx4Device(p);
            hcas.add(d);
            CoreDevice cd = new CoreDevice(d.provider(), d.provider().info(), "mlx4_" + index, index, services);
            index++;
            d.provider().attach(cd);
            cd.setState(CoreDevice.State.REGISTERED);
            devs.put(n.name(), cd);
            assertEquals(0, mad.add(cd));
            assertEquals(0, sa.add(cd));
        }
        settle();
        sm = new SubnetManager(mad, devs.values().iterator().next(), 1, clock, pump, 5, sweepPeriodMs);
    }

    CoreDevice dev(String host) {
        return devs.get(host);
    }

    /** Starts the SM and runs its first sweep to the end. */
    SmNet up() {
        sm.start();
        settle();
        return this;
    }

    /** Runs queued completions, MAD and SM work until nothing is left. */
    void settle() {
        pump.drain();
    }

    /** Advances virtual time, running timers and what they queue. */
    void advance(long ms) {
        long target = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (true) {
            long next = clock.nextDeadline();
            if (next < 0 || next > target) {
                break;
            }
            clock.advanceTo(next);
            settle();
        }
        clock.advanceTo(target);
        settle();
    }

    /** The cable between two nodes. */
    FabricLink link(String a, String b) {
        for (FabricLink l : fabric.links()) {
            String x = l.endA().node().name();
            String y = l.endB().node().name();
            if (x.equals(a) && y.equals(b) || x.equals(b) && y.equals(a)) {
                return l;
            }
        }
        throw new AssertionError("no link " + a + " - " + b);
    }

    @Override
    public void close() {
        pump.inline = true;
        settle();
        sm.close();
        for (CoreDevice d : devs.values()) {
            sa.remove(d, null);
            mad.remove(d, null);
            d.setState(CoreDevice.State.UNREGISTERED);
            d.destroyLeftovers();
            d.provider().detach();
        }
        for (Mlx4Device h : hcas) {
            h.close();
        }
        fabric.close();
    }
}
