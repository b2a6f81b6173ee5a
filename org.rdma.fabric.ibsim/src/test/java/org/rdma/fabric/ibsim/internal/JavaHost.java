package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.hca.mlx4sim.internal.Mlx4Device;
import org.rdma.hca.mlx4sim.internal.Mlx4Params;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.internal.MadLayer;
import org.rdma.mad.internal.sa.SaLayer;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.time.SystemClock;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;

/**
 * One host in real time: a Java fabric holding a single uncabled CA slot, a simulated ConnectX-3
 * attached to it inside a real core device, and the MAD layer and SA client on top, as the SM
 * tests build them. Work and completions run on one single-threaded workqueue.
 */
final class JavaHost implements AutoCloseable {
    static final long WAIT_SECONDS = 20;

    final SystemClock clock = new SystemClock("ibsim-test-clock");
    final ExecutorService wq = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ibsim-test-wq");
        t.setDaemon(true);
        return t;
    });
    final Fabric fabric;
    final Mlx4Device hca;
    final CoreDevice dev;
    final MadLayer mad;
    final SaLayer sa;
    final SaClient saClient = new SaClient();
    private final CountDownLatch active = new CountDownLatch(1);
    private MadAgent smi;

    /** A host whose HCA has node GUID {@code nodeGuid} (port GUID {@code nodeGuid + 1}). */
    JavaHost(String name, long nodeGuid) {
        fabric = Fabrics.create("java", Topology.builder().addCa(name, 1, nodeGuid).build(), clock, 1);
        Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.INFINIBAND);
        p.caSlot = name;
        p.hostname = name;
        hca = new Mlx4Device(p);
        DeviceServices services = DeviceServices.standalone(wq, event -> {
            if (event.type() == IbEventType.PORT_ACTIVE) {
                active.countDown();
            }
        });
        dev = CoreDevice.register(hca.provider(), "mlx4_0", 0, services);
        mad = new MadLayer(clock, wq, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, wq);
        assertEquals(0, mad.add(dev));
        assertEquals(0, sa.add(dev));
        sa.registerClient(saClient);
    }

    /** @return the HCA's port 1 on the fabric */
    FabricPort port() {
        return fabric.nodes().get(0).port(1);
    }

    /** Waits (bounded) for IB_EVENT_PORT_ACTIVE, then returns the port's attributes. */
    PortAttr awaitActive(Supplier<String> why) throws InterruptedException {
        assertTrue(active.await(WAIT_SECONDS, TimeUnit.SECONDS), () -> "port 1 did not become ACTIVE within "
                + WAIT_SECONDS + " s (it is " + port().portState() + "): " + why.get());
        PortAttr pa = dev.queryPort(1);
        assertEquals(PortState.ACTIVE, pa.state);
        return pa;
    }

    /** {@code ib_sa_path_rec_get()} from port 1 to {@code dgid}; waits for the callback. */
    CompletableFuture<PathRecord> pathRecGet(Gid dgid, int timeoutMs) {
        CompletableFuture<PathRecord> f = new CompletableFuture<>();
        PathRecord q = new PathRecord();
        q.sgid = dev.queryGid(1, 0);
        q.dgid = dgid;
        q.numbPath = 1;
        int id = sa.pathRecGet(saClient, dev, 1, q, PathRecord.DGID | PathRecord.SGID | PathRecord.NUMB_PATH,
                timeoutMs, (status, rec) -> {
                    if (status == 0) {
                        f.complete(rec);
                    } else {
                        f.completeExceptionally(new AssertionError("ib_sa_path_rec_get status " + status));
                    }
                });
        assertTrue(id >= 0, "ib_sa_path_rec_get returned " + id);
        return f;
    }

    /** A directed-route SMP from port 1's QP0; the future completes with the response. */
    CompletableFuture<Smp> smp(Smp req) {
        CompletableFuture<Smp> f = new CompletableFuture<>();
        synchronized (this) {
            if (smi == null) {
                smi = mad.registerMadAgent(dev, 1, QpType.SMI, null, 0, (a, wc) -> {
                    Object pending = wc.sendBuf().context(0);
                    if (wc.status() != WcStatus.SUCCESS && pending instanceof CompletableFuture<?> p) {
                        p.completeExceptionally(new AssertionError("SMP send status " + wc.status()));
                    }
                    mad.freeSendMad(wc.sendBuf());
                }, (a, sb, wc) -> complete(sb, wc), null, 0);
            }
        }
        req.tid = smi.tid(1);
        MadSendBuf buf = mad.createSendMad(smi, 0, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                MadHdr.IB_MGMT_BASE_VERSION);
        req.pack(buf.mad(), 0);
        buf.setTimeoutMs(2000);
        buf.setRetries(2);
        buf.setContext(0, f);
        assertEquals(0, mad.postSendMad(buf), "ib_post_send_mad");
        return f;
    }

    @SuppressWarnings("unchecked")
    private static void complete(MadSendBuf sb, MadRecvWc wc) {
        if (sb != null && sb.context(0) instanceof CompletableFuture<?> f) {
            ((CompletableFuture<Smp>) f).complete(new Smp().unpack(wc.mad(), 0));
        }
    }

    @Override
    public void close() {
        if (smi != null) {
            mad.unregisterMadAgent(smi);
        }
        sa.unregisterClient(saClient);
        sa.remove(dev, null);
        mad.remove(dev, null);
        dev.setState(CoreDevice.State.UNREGISTERED);
        dev.destroyLeftovers();
        hca.provider().detach();
        hca.close();
        fabric.close();
        wq.shutdownNow();
        clock.close();
    }
}
