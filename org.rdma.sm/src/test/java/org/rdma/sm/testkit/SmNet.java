package org.rdma.sm.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.rdma.sm.internal.SubnetManager;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.time.VirtualClock;

/**
 * A test network in virtual time: one mlx4sim HCA in a real core device per host, the MAD and SA
 * client layers as the first clients, further clients a test adds ({@link #addClient}), and on
 * an InfiniBand subnet the subnet manager on the first CA's port 1. Completions, MAD, SM and
 * client work run on a {@link Pump} the test drains with {@link #settle()}; timers fire when the
 * test calls {@link #advance}.
 */
public final class SmNet implements AutoCloseable {
    /** The virtual clock of every timer. */
    public final VirtualClock clock = new VirtualClock();
    /** Where completions and MAD/SM work queue. */
    public final Pump pump = new Pump();
    /** The simulated fabric. */
    public final Fabric fabric;
    /** The HCAs, in host order. */
    public final List<Mlx4Device> hcas = new ArrayList<>();
    /** The core devices by host name, in host order. */
    public final Map<String, CoreDevice> devs = new LinkedHashMap<>();
    /** The MAD layer, the first client of every device. */
    public final MadLayer mad;
    /** The SA client layer, the second client. */
    public final SaLayer sa;
    /** The subnet manager (InfiniBand subnets only; {@code null} on RoCE). */
    public final SubnetManager sm;
    /** The registry services of the core devices: every executor is the pump. */
    public final DeviceServices services = DeviceServices.standalone(pump);
    private final List<IbClient> clients = new ArrayList<>();
    private final Map<String, String> ips = new LinkedHashMap<>();
    private int index;

    /**
     * The topology text of a ring of {@code switches} switches {@code S0, S1, ...} (port 1 to the
     * next one's port 2; 1 or at least 3 switches) with {@code hostsPerSwitch} single-port CAs
     * {@code h0, h1, ...} on ports 3, 4, ...; CA {@code h0} runs the SM.
     */
    public static String ring(int switches, int hostsPerSwitch) {
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

    /** The InfiniBand subnet of {@code topology}; the SM is created, not started ({@link #up()}). */
    public SmNet(String topology, long sweepPeriodMs) {
        Topology t = Topology.parse(topology);
        fabric = Fabrics.create("ib", t, clock, 1);
        mad = new MadLayer(clock, pump, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, pump);
        for (Topology.Node n : t.nodes()) {
            if (n.type() != NodeType.CA) {
                continue;
            }
            Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.INFINIBAND);
            p.caSlot = n.name();
            p.hostname = n.name();
            addDevice(n.name(), new Mlx4Device(p));
        }
        settle();
        sm = new SubnetManager(mad, devs.values().iterator().next(), 1, clock, pump, 5, sweepPeriodMs);
    }

    private SmNet(String[] hosts) {
        fabric = Fabrics.create("roce", Topology.builder().build(), clock, 1);
        mad = new MadLayer(clock, pump, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, pump);
        for (int i = 0; i < hosts.length; i++) {
            Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.ETHERNET);
            p.caName = hosts[i];
            p.nodeGuid = 0x0002c90300c0ff00L + 0x10L * i;
            p.ethernetSegment = "br0";
            p.hostname = hosts[i];
            p.ports.get(0).netdev = "eth0";
            String ip = "192.168.7." + (i + 1);
            p.ports.get(0).ipAddresses.add(ip);
            ips.put(hosts[i], ip);
            addDevice(hosts[i], new Mlx4Device(p));
        }
        settle();
        sm = null;
    }

    /** A RoCE segment ({@code br0}) with one single-port HCA per host, IPv4 192.168.7.1, .2, ... on {@code eth0}. */
    public static SmNet roce(String... hosts) {
        return new SmNet(hosts);
    }

    private void addDevice(String host, Mlx4Device d) {
        hcas.add(d);
        CoreDevice cd = CoreDevice.register(d.provider(), "mlx4_" + index, index, services);
        index++;
        devs.put(host, cd);
        assertEquals(0, mad.add(cd), "MAD layer on " + host);
        assertEquals(0, sa.add(cd), "SA client on " + host);
    }

    /** The core device of {@code host}. */
    public CoreDevice dev(String host) {
        return devs.get(host);
    }

    /** The IPv4 address of a RoCE host. */
    public String ip(String host) {
        return ips.get(host);
    }

    /** Starts the SM and runs its first sweep to the end. */
    public SmNet up() {
        sm.start();
        settle();
        return this;
    }

    /** Registers a further client: {@code add} for every device now, {@code remove} (newest first) at teardown. */
    public void addClient(IbClient client) {
        clients.add(client);
        for (Map.Entry<String, CoreDevice> e : devs.entrySet()) {
            assertEquals(0, client.add(e.getValue()), client.name() + " on " + e.getKey());
        }
        settle();
    }

    /**
     * Unregisters {@code host}'s device as the core does: the clients' {@code remove} newest first
     * (the test's clients, then SA, then MAD), leftovers destroyed, the provider detached and the
     * HCA closed.
     *
     * @return how many tracked objects the clients left behind (the core destroyed them)
     */
    public int removeDevice(String host) {
        CoreDevice d = devs.remove(host);
        d.setState(CoreDevice.State.UNREGISTERING);
        for (int i = clients.size() - 1; i >= 0; i--) {
            clients.get(i).remove(d, d.getClientData(clients.get(i)));
        }
        sa.remove(d, null);
        mad.remove(d, null);
        d.setState(CoreDevice.State.UNREGISTERED);
        int left = d.restrack().total();
        d.destroyLeftovers();
        d.provider().detach();
        for (Mlx4Device h : hcas) {
            if (h.provider() == d.provider()) {
                h.close();
                hcas.remove(h);
                break;
            }
        }
        settle();
        return left;
    }

    /** Runs queued completions, MAD, SM and client work until nothing is left. */
    public void settle() {
        pump.drain();
    }

    /** Advances virtual time by {@code ms}, firing timers in order and running what they queue. */
    public void advance(long ms) {
        long target = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (true) {
            settle();
            long next = clock.nextDeadline();
            if (next < 0 || next > target) {
                break;
            }
            clock.advanceTo(next);
        }
        clock.advanceTo(target);
        settle();
    }

    /** The cable between two nodes. */
    public FabricLink link(String a, String b) {
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
        if (sm != null) {
            sm.close();
        }
        for (CoreDevice d : devs.values()) {
            for (int i = clients.size() - 1; i >= 0; i--) {
                clients.get(i).remove(d, d.getClientData(clients.get(i)));
            }
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
