package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.rdma.itest.support.RecordingClient.dataFor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
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
import org.rdma.itest.support.RecordingClient;
import org.rdma.itest.support.Runtimes;
import org.rdma.itest.support.Threads;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The unregistration calls of {@code device.c}: a reference from {@code ib_device_get_by_name}
 * holds unregistration until {@code ib_device_put}; {@code ib_unregister_driver} is a fence;
 * {@code ib_unregister_device_queued} returns at once; {@code ib_unregister_device_and_put}
 * drops the caller's reference; concurrent and repeated {@code ib_unregister_device} calls.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class UnregisterIT {
    private static final long WAIT_S = 10;

    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    @InjectService(timeout = 10_000)
    IbCore core;

    private Fixture f;
    private CallbackLog log;

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "unr");
        log = new CallbackLog();
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private TestProvider provider(String driver) {
        return new TestProvider(DeviceConfig.of(f.template(), driver));
    }

    /** Runs {@code r} on a new thread; the returned latch opens when it returned. */
    private static CountDownLatch inThread(String name, Runnable r, AtomicReference<Throwable> error) {
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (Throwable e) {
                error.set(e);
            } finally {
                done.countDown();
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return done;
    }

    @Test
    void heldReferenceDelaysUnregistrationUntilPut() throws Exception {
        TestProvider p = provider(f.driver());
        ServiceRegistration<IbDeviceProvider> reg = f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        RecordingClient client = new RecordingClient(f.id() + "-C", f.driver(), log);
        f.client(client);
        log.awaitSize(1);

        assertNull(core.getByName(name, "no-such-driver"), "the driver id must match");
        assertNull(core.getByName(f.id() + "_none", null), "unknown name");
        int base = Runtimes.device(runtime, name).refCount;
        IbDevice held = core.getByName(name, null);
        assertNotNull(held, "getByName finds the registered device");
        assertEquals(name, held.name());
        assertEquals(base + 1, Runtimes.device(runtime, name).refCount, "DeviceDTO.refCount counts the held reference");
        IbDevice held2 = core.getByName(name, f.driver());
        assertNotNull(held2);
        assertEquals(base + 2, Runtimes.device(runtime, name).refCount);
        held2.put();
        assertEquals(base + 1, Runtimes.device(runtime, name).refCount, "put releases one reference");

        AtomicReference<Throwable> error = new AtomicReference<>();
        f.forget(reg);
        CountDownLatch unregistered = inThread("itest-unregister-" + name, reg::unregister, error);

        // The kernel removes the device from every client first, then waits for the references.
        log.awaitSize(2);
        assertEquals(List.of("add " + client.name() + " " + name,
                "remove " + client.name() + " " + name + " " + dataFor(client.name(), name)), log.entries());
        assertFalse(unregistered.await(200, TimeUnit.MILLISECONDS),
                "unregistration must wait while a getByName reference is held");
        DeviceDTO during = Runtimes.device(runtime, name);
        assertNotNull(during, "a device waiting for its references is still listed");
        assertEquals("UNREGISTERING", during.state);
        assertFalse(p.isDetached(), "the driver is not detached while a reference is held");

        held.put();
        assertTrue(unregistered.await(WAIT_S, TimeUnit.SECONDS), "unregistration completes once the reference is put");
        assertNull(error.get(), () -> "unregister threw " + error.get());
        assertNull(Runtimes.device(runtime, name), "gone from the runtime when unregistration returned");
        assertTrue(p.isDetached(), "the driver is detached when unregistration returned");
        assertEquals(List.of(), p.violations());
    }

    @Test
    void unregisterDriverIsAFence() throws Exception {
        String drv = f.driver();
        String other = f.driver("other");
        List<TestProvider> ps = new ArrayList<>();
        List<ServiceRegistration<IbDeviceProvider>> regs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TestProvider p = provider(drv);
            ps.add(p);
            regs.add(f.provider(p));
            Runtimes.awaitDevices(runtime, drv, i + 1);
        }
        TestProvider survivor = new TestProvider(DeviceConfig.of(f.id() + "o%d", other));
        f.provider(survivor);
        Runtimes.awaitDevices(runtime, other, 1);
        RecordingClient client = new RecordingClient(f.id() + "-C", drv, log);
        f.client(client);
        log.awaitSize(3);

        // One device is already on its way out through the work queue, held by a reference.
        IbDevice queued = core.getByName(f.id() + "_1", drv);
        assertNotNull(queued);
        core.unregisterDeviceQueued(queued);
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch returned = inThread("itest-unregister-driver", () -> core.unregisterDriver(drv), error);
        assertFalse(returned.await(200, TimeUnit.MILLISECONDS),
                "unregisterDriver waits for the queued unregistration, which waits for the reference");
        queued.put();
        assertTrue(returned.await(WAIT_S, TimeUnit.SECONDS), "unregisterDriver returns once every device is gone");
        assertNull(error.get(), () -> "unregisterDriver threw " + error.get());

        // Checked right after the return: nothing of the driver is left.
        assertEquals(List.of(), Runtimes.deviceNames(runtime, drv), "no device of the driver after unregisterDriver");
        List<String> removes = log.entries(e -> e.startsWith("remove "));
        assertEquals(3, removes.size(), "every client got remove for every device: " + log);
        for (TestProvider p : ps) {
            assertTrue(p.isDetached(), p + " detached when unregisterDriver returned");
            assertEquals(List.of(), p.violations());
        }
        assertEquals(List.of(f.id() + "o0"), Runtimes.deviceNames(runtime, other), "other drivers are untouched");
        assertFalse(survivor.isDetached());

        // The provider services stay registered: the runtime says why they have no device.
        for (ServiceRegistration<IbDeviceProvider> r : regs) {
            FailedDTO failed = Runtimes.awaitFailedProvider(runtime, Fixture.serviceId(r));
            assertEquals(FailedDTO.FAILURE_REASON_UNREGISTERED, failed.failureReason, "message: " + failed.message);
        }
    }

    @Test
    void unregisterDeviceQueuedReturnsAtOnce() throws Exception {
        TestProvider p = provider(f.driver());
        f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        f.client(new RecordingClient(f.id() + "-C", f.driver(), log));
        log.awaitSize(1);

        // With a reference held the unregistration cannot finish, so only a queued call returns.
        IbDevice held = core.getByName(name, null);
        assertNotNull(held);
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch returned = inThread("itest-unregister-queued", () -> core.unregisterDeviceQueued(held), error);
        assertTrue(returned.await(WAIT_S, TimeUnit.SECONDS),
                "unregisterDeviceQueued must return without waiting for the unregistration");
        assertNull(error.get(), () -> "unregisterDeviceQueued threw " + error.get());
        held.put();

        Runtimes.awaitGone(runtime, name);
        assertTrue(p.awaitDetached(WAIT_S, TimeUnit.SECONDS), "the queued unregistration detaches the driver");
        assertEquals(2, log.size(), "remove delivered: " + log);
        assertTrue(log.entries().get(1).startsWith("remove " + f.id() + "-C " + name), log.toString());
        assertEquals(List.of(), p.violations());
    }

    @Test
    void unregisterDeviceAndPutDropsTheCallersReference() throws Exception {
        TestProvider p = provider(f.driver());
        f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        // Two holders call it concurrently, each giving up its own reference.
        IbDevice held1 = core.getByName(name, null);
        IbDevice held2 = core.getByName(name, null);
        assertNotNull(held1);
        assertNotNull(held2);
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch r1 = inThread("itest-unregister-and-put-1", () -> core.unregisterDeviceAndPut(held1), error);
        CountDownLatch r2 = inThread("itest-unregister-and-put-2", () -> core.unregisterDeviceAndPut(held2), error);
        assertTrue(r1.await(WAIT_S, TimeUnit.SECONDS) && r2.await(WAIT_S, TimeUnit.SECONDS),
                "unregisterDeviceAndPut must not wait for the callers' own references");
        assertNull(error.get(), () -> "unregisterDeviceAndPut threw " + error.get());
        assertNull(Runtimes.device(runtime, name), "fully unregistered when it returns");
        assertTrue(p.isDetached());
        assertEquals(1, p.detachCount());
        assertNull(core.getByName(name, null), "no longer found by name");
        assertEquals(List.of(), p.violations());
    }

    @Test
    void concurrentUnregisterDeviceCallsAllReturnWhenGone() throws Exception {
        TestProvider p = provider(f.driver());
        ServiceRegistration<IbDeviceProvider> reg = f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        f.client(new RecordingClient(f.id() + "-C", f.driver(), log));
        log.awaitSize(1);
        assertTrue(p.awaitAttached(WAIT_S, TimeUnit.SECONDS));
        IbDevice d = p.device();

        IbDevice held = core.getByName(name, null);
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<CountDownLatch> returned = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            returned.add(inThread("itest-unregister-" + i, () -> {
                core.unregisterDevice(d);
                if (Runtimes.device(runtime, name) != null) {
                    throw new AssertionError("unregisterDevice returned while " + name + " is still listed");
                }
                if (!p.isDetached()) {
                    throw new AssertionError("unregisterDevice returned before the driver was detached");
                }
            }, error));
        }
        for (CountDownLatch l : returned) {
            assertFalse(l.await(100, TimeUnit.MILLISECONDS), "no unregisterDevice returns while a reference is held");
        }
        held.put();
        for (CountDownLatch l : returned) {
            if (!l.await(WAIT_S, TimeUnit.SECONDS)) {
                fail("an unregisterDevice call did not return\n" + Threads.dump());
            }
        }
        assertNull(error.get(), () -> "unregisterDevice: " + error.get());
        assertEquals(2, log.size(), "exactly one remove however many unregisterDevice calls: " + log);
        assertEquals(1, p.detachCount());
        assertEquals(List.of(), p.violations());

        // The provider service is still there but has no device; the runtime says why.
        FailedDTO failed = Runtimes.awaitFailedProvider(runtime, Fixture.serviceId(reg));
        assertEquals(FailedDTO.FAILURE_REASON_UNREGISTERED, failed.failureReason);
    }
}
