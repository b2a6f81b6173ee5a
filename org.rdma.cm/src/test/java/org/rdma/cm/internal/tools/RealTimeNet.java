package org.rdma.cm.internal.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.rdma.cm.internal.ib.IbCmComponent;
import org.rdma.cm.internal.rdma.RdmaCmComponent;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.hca.mlx4sim.internal.Mlx4Device;
import org.rdma.hca.mlx4sim.internal.Mlx4Params;
import org.rdma.mad.internal.MadLayer;
import org.rdma.mad.internal.sa.SaLayer;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.time.SystemClock;

/**
 * Two RoCE hosts (192.168.7.1 and .2 on one segment) in real time, as the runtime runs them: the
 * system clock, the MAD layer's, the IB CM's and the RDMA CM's own threads, and completions on a
 * work queue of their own, so handlers, completions and commands meet on different threads.
 */
final class RealTimeNet implements AutoCloseable {
    final SystemClock clock = new SystemClock("rt-clock");
    final ExecutorService comp = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "rt-comp");
        t.setDaemon(true);
        return t;
    });
    final Fabric fabric = Fabrics.create("rt-roce", Topology.builder().build(), clock, 1);
    final MadLayer mad = new MadLayer(clock, null, PollContext.UNBOUND_WORKQUEUE);
    final SaLayer sa = new SaLayer(mad);
    final IbCmComponent ibcm = new IbCmComponent(clock, null, mad, sa);
    final RdmaCmComponent cm = new RdmaCmComponent(clock, null, ibcm, sa);
    final List<CoreDevice> devs = new ArrayList<>();
    private final List<Mlx4Device> hcas = new ArrayList<>();
    private final DeviceServices services = DeviceServices.standalone(comp);

    RealTimeNet() {
        for (int i = 0; i < 2; i++) {
            Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.ETHERNET);
            p.caName = "rt" + i;
            p.nodeGuid = 0x0002c90300d0ff00L + 0x10L * i;
            p.ethernetSegment = "br0";
            p.hostname = "rt" + i;
            p.ports.get(0).netdev = "eth0";
            p.ports.get(0).ipAddresses.add("192.168.7." + (i + 1));
            Mlx4Device d = new Mlx4Device(p);
            CoreDevice cd = CoreDevice.register(d.provider(), "mlx4_" + i, i, services);
            hcas.add(d);
            devs.add(cd);
            assertEquals(0, mad.add(cd));
            assertEquals(0, sa.add(cd));
            assertEquals(0, ibcm.add(cd));
            assertEquals(0, cm.add(cd));
        }
    }

    @Override
    public void close() {
        for (CoreDevice d : devs) {
            cm.remove(d, null);
            ibcm.remove(d, null);
            sa.remove(d, null);
            mad.remove(d, null);
            d.setState(CoreDevice.State.UNREGISTERED);
            d.destroyLeftovers();
            d.provider().detach();
        }
        for (Mlx4Device h : hcas) {
            h.close();
        }
        cm.deactivate();
        ibcm.deactivate();
        mad.deactivate();
        fabric.close();
        comp.shutdown();
        try {
            comp.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clock.close();
    }
}
