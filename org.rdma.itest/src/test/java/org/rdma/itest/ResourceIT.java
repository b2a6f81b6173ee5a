package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.support.CallbackLog;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.Poll;
import org.rdma.itest.support.Runtimes;
import org.rdma.itest.support.Threads;
import org.rdma.itest.support.Verbs;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.ResourceDTO;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * Resource tracking ({@code restrack}, {@code rdma res}): every PD, CQ, QP, SRQ, MR, MW and AH is
 * listed with its owner while it lives and vanishes when destroyed; when a device goes away with
 * objects still open, the core destroys them in dependency order before the driver is detached,
 * and no {@code rdma-*} thread it started for the device survives.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class ResourceIT {
    private static final String OWNER = "itest-owner";

    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private Fixture f;

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "res");
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    /** One of each object type, all on one PD. */
    private static final class Objects {
        IbPd pd;
        IbCq cq;
        IbSrq srq;
        IbQp qp;
        IbMr userMr;
        IbMr dmaMr;
        IbMr fastMr;
        IbMw mw;
        IbAh ah;
        long dma;
    }

    private Objects createAll(IbDevice d, PollContext ctx) {
        Objects o = new Objects();
        o.pd = d.allocPd(0, OWNER);
        o.cq = d.allocCq(null, 64, 0, ctx, OWNER);
        SrqInitAttr sa = new SrqInitAttr();
        sa.attr.maxWr = 8;
        sa.attr.maxSge = 1;
        o.srq = o.pd.createSrq(sa);
        o.qp = Verbs.rcQp(o.pd, o.cq, o.cq, 8);
        o.userMr = o.pd.regMr(ByteBuffer.allocateDirect(8192), 0x10_0000L, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
        o.dmaMr = o.pd.getDmaMr(AccessFlags.LOCAL_WRITE);
        o.fastMr = o.pd.allocMr(MrType.MEM_REG, 4);
        o.mw = o.pd.allocMw(MwType.TYPE_2);
        AhAttr aa = new AhAttr();
        aa.type = AhAttrType.IB;
        aa.portNum = 1;
        aa.dlid = 0x33;
        o.ah = o.pd.createAh(aa, 0);
        o.dma = d.dmaMapSingle(ByteBuffer.allocateDirect(3 * 4096));
        return o;
    }

    private static Map<String, Integer> expectedAll() {
        Map<String, Integer> m = new TreeMap<>();
        m.put("ah", 1);
        m.put("cq", 1);
        m.put("mr", 3);
        m.put("mw", 1);
        m.put("pd", 1);
        m.put("qp", 1);
        m.put("srq", 1);
        return m;
    }

    @Test
    void everyObjectIsTrackedWithItsOwnerUntilDestroyed() throws Exception {
        TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        IbDevice d = p.device();
        assertEquals(Map.of(), Runtimes.nonZero(runtime.resourceCounts(name)), "a new device has no objects");

        Objects o = createAll(d, PollContext.WORKQUEUE);
        assertEquals(expectedAll(), Runtimes.nonZero(runtime.resourceCounts(name)), "rdma res counts");
        assertEquals(expectedAll(), Runtimes.nonZero(p.liveCounts()), "the driver holds the same objects");
        ResourceDTO[] all = runtime.resources(name, null);
        assertEquals(9, all.length, "rdma res lists every object");
        Set<String> ids = new HashSet<>();
        for (ResourceDTO r : all) {
            assertEquals(name, r.device);
            assertNotNull(r.owner, "owner of " + r.type);
            assertTrue(ids.add(r.type + ":" + r.id), "restrack ids are unique per type: " + r.type + " " + r.id);
        }
        ResourceDTO[] pds = runtime.resources(name, "pd");
        assertEquals(1, pds.length);
        assertEquals(OWNER, pds[0].owner, "the PD's owner is the caller named in allocPd");
        assertEquals(OWNER, runtime.resources(name, "cq")[0].owner, "the CQ's owner is the caller named in allocCq");
        assertEquals(OWNER, o.pd.owner());
        assertEquals(1, runtime.resources(name, "qp").length);
        assertEquals(3, runtime.resources(name, "mr").length);
        assertEquals(0, runtime.resources(name, "wq").length);

        // Fast registration maps a page list through ib_sg_to_pages.
        int mapped = o.fastMr.mapMrSg(new SgEntry[] {new SgEntry(o.dma, 3 * 4096)}, 1, null, 4096);
        assertEquals(1, mapped, "one SG element mapped");
        assertEquals(o.dma, o.fastMr.iova());
        assertEquals(3 * 4096, o.fastMr.length());
        long first = o.dma & ~4095L;
        long[] pages = new long[(int) ((o.dma + 3 * 4096 - 1 - first) / 4096 + 1)];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = first + 4096L * i;
        }
        TestProvider.Mr driverMr = p.context().providerOf(o.fastMr, TestProvider.Mr.class);
        assertEquals(java.util.Arrays.toString(pages), java.util.Arrays.toString(driverMr.pages()),
                "the driver's page list built by ib_sg_to_pages with the core's page size");
        assertEquals(4096, o.fastMr.pageSize());

        destroyAll(o, d);
        assertEquals(Map.of(), Runtimes.nonZero(runtime.resourceCounts(name)), "nothing tracked after destroying all");
        assertEquals(0, runtime.resources(name, null).length);
        assertEquals(0, p.liveTotal());
        assertEquals(List.of(), p.violations());
    }

    private static void destroyAll(Objects o, IbDevice d) {
        o.ah.destroy();
        o.mw.dealloc();
        o.fastMr.dereg();
        o.dmaMr.dereg();
        o.userMr.dereg();
        o.qp.destroy();
        o.srq.destroy();
        o.cq.free();
        o.pd.dealloc();
        d.dmaUnmapSingle(o.dma);
    }

    @Test
    void callerBundleOwnsObjectsAllocatedWithoutAName() throws Exception {
        TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        Collection<ServiceReference<IbDevice>> refs = bc.getServiceReferences(IbDevice.class,
                "(" + IbRuntime.DEVICE_NAME + "=" + name + ")");
        assertEquals(1, refs.size());
        ServiceReference<IbDevice> ref = refs.iterator().next();
        IbDevice d = bc.getService(ref);
        IbPd pd = d.allocPd(0);
        IbCq cq = d.allocCq(null, 8, 0, PollContext.DIRECT);
        String me = bc.getBundle().getSymbolicName();
        assertEquals(me, pd.owner(), "allocPd(flags) records the calling bundle");
        assertEquals(me, runtime.resources(name, "pd")[0].owner);
        assertEquals(me, runtime.resources(name, "cq")[0].owner);
        cq.free();
        pd.dealloc();
        bc.ungetService(ref);
    }

    @Test
    void deviceRemovalDestroysLeftoversAndStopsItsThreads() throws Exception {
        // Warm up: whatever the core starts once for all devices is there before the baseline.
        TestProvider warm = new TestProvider(DeviceConfig.of(f.id() + "w%d", f.driver("warm")));
        ServiceRegistration<IbDeviceProvider> wr = f.provider(warm);
        Runtimes.awaitDevices(runtime, f.driver("warm"), 1);
        assertTrue(warm.awaitAttached(10, TimeUnit.SECONDS));
        destroyAll(createAll(warm.device(), PollContext.SOFTIRQ), warm.device());
        IbCq wq = warm.device().allocCq(null, 8, 0, PollContext.WORKQUEUE, OWNER);
        wq.free();
        f.unregister(wr);
        Set<Thread> baseline = Threads.core();

        TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()).numCompVectors(2));
        ServiceRegistration<IbDeviceProvider> reg = f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        IbDevice d = p.device();
        CallbackLog log = new CallbackLog();
        Objects o = createAll(d, PollContext.SOFTIRQ);
        IbCq second = d.allocCq(null, 16, 1, PollContext.SOFTIRQ, OWNER);
        IbCq third = d.allocCq(null, 16, 0, PollContext.WORKQUEUE, OWNER);
        Verbs.toRts(o.qp);
        // Something to flush: an outstanding SRQ receive and a completed send.
        Verbs.send(o.qp, (c, wc) -> log.add("send " + wc.status), o.dma, 16, o.pd.localDmaLkey());
        log.awaitSize(1);
        Map<String, Integer> expected = expectedAll();
        expected.put("cq", 3);
        assertEquals(expected, Runtimes.nonZero(runtime.resourceCounts(name)));
        assertTrue(!Threads.core().isEmpty(), "SOFTIRQ CQs run on rdma-* threads: " + Threads.names(Threads.core()));

        f.unregister(reg);
        // Unregistration returned: the core destroyed what was left, before detaching the driver.
        assertTrue(p.isDetached(), "detached when the unregistration returned");
        assertEquals(Map.of("ah", 0, "cq", 0, "mr", 0, "mw", 0, "pd", 0, "qp", 0, "srq", 0), p.liveAtDetach(),
                "no driver object alive at detach");
        assertEquals(0, p.liveTotal());
        assertEquals(List.of(), p.violations(), "objects destroyed once each, in dependency order");
        assertEquals(0, countOf(runtime.resources(null, null), name), "rdma res shows nothing of the removed device");
        assertEquals(Map.of(), countsOrNone(name), "no counts for the removed device");

        Set<String> left = Poll.value("no rdma-* thread started for the removed device is left",
                () -> Threads.names(extra(baseline)), Set::isEmpty);
        assertEquals(Set.of(), left, "threads left behind");
        assertTrue(!second.device().isRegistered() && !third.device().isRegistered());
    }

    /** Counts of a device that may be gone: an unknown device (ENODEV) has none. */
    private Map<String, Integer> countsOrNone(String device) {
        try {
            return Runtimes.nonZero(runtime.resourceCounts(device));
        } catch (org.rdma.verbs.RdmaException e) {
            assertEquals(org.rdma.verbs.Errno.ENODEV, e.errno(), e.getMessage());
            return Map.of();
        }
    }

    private static int countOf(ResourceDTO[] all, String device) {
        int n = 0;
        for (ResourceDTO r : all) {
            if (device.equals(r.device)) {
                n++;
            }
        }
        return n;
    }

    private static Set<Thread> extra(Set<Thread> baseline) {
        Set<Thread> now = new HashSet<>(Threads.core());
        now.removeAll(baseline);
        return now;
    }
}
