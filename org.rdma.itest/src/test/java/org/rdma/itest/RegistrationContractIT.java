package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.osgi.util.tracker.ServiceTracker;
import org.osgi.util.tracker.ServiceTrackerCustomizer;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.support.CallbackLog;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.RecordingClient;
import org.rdma.itest.support.Runtimes;
import org.rdma.itest.support.Threads;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * What the registration contract (package documentation of {@code org.rdma.verbs}) lets
 * callbacks and service listeners do without deadlocking: code that reacts to a new
 * {@link IbDevice} service by registering a client on another thread and waiting for it, or by
 * taking and putting a reference; a client whose {@code remove} unregisters itself, or
 * another client on another thread that it waits for. Every wait in these tests is bounded:
 * a deadlock fails the test with the threads' stacks instead of hanging the run.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class RegistrationContractIT {
    private static final long BOUND_S = 10;

    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    @InjectService(timeout = 10_000)
    IbCore core;

    private Fixture f;
    private final List<String> problems = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "contract");
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    /** Runs {@code r} on a new thread and waits for it, bounded; a timeout is a problem. */
    private void onAnotherThreadAndWait(String what, Runnable r) {
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                problems.add(what + " threw " + e);
            } finally {
                done.countDown();
            }
        }, "itest-contract");
        t.setDaemon(true);
        t.start();
        try {
            if (!done.await(BOUND_S, TimeUnit.SECONDS)) {
                problems.add(what + " did not return within " + BOUND_S + " s (deadlock):\n" + Threads.dump());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("interrupted waiting for " + what);
        }
    }

    private String deviceFilter() {
        return "(&(objectClass=" + IbDevice.class.getName() + ")(" + IbRuntime.DEVICE_DRIVER + "=" + f.driver() + "))";
    }

    @Test
    void aListenerOfNewDevicesRegistersAClientOnAnotherThreadAndTakesAReference() throws Exception {
        CallbackLog log = new CallbackLog();
        RecordingClient client = new RecordingClient(f.id() + "-L", f.driver(), log);
        AtomicReference<ServiceRegistration<IbClient>> clientReg = new AtomicReference<>();
        ServiceListener listener = ev -> {
            ServiceReference<?> ref = ev.getServiceReference();
            String name = (String) ref.getProperty(IbRuntime.DEVICE_NAME);
            if (ev.getType() == ServiceEvent.REGISTERED) {
                IbDevice held = core.getByName(name, f.driver());
                if (held == null) {
                    problems.add("getByName(" + name + ") found nothing while its service is being registered");
                } else {
                    held.put();
                }
                onAnotherThreadAndWait("registering a client from the listener", () -> clientReg.set(f.client(client)));
            } else if (ev.getType() == ServiceEvent.UNREGISTERING) {
                onAnotherThreadAndWait("unregistering the client from the listener", () -> f.unregister(clientReg.get()));
            }
        };
        bc.addServiceListener(listener, deviceFilter());
        try {
            TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
            ServiceRegistration<IbDeviceProvider> pr = f.provider(p);
            String dev = f.id() + "_0";
            assertEquals(List.of(), problems);
            assertEquals(List.of("add " + client.name() + " " + dev), log.entries(),
                    "the client registered by the listener was added to the new device");
            DeviceDTO dto = Runtimes.device(runtime, dev);
            assertEquals(1 + dto.clients.length, dto.refCount,
                    "the registration's reference and one per client context: the listener's reference was put");

            f.unregister(pr);
            assertEquals(List.of(), problems);
            assertEquals(List.of("add " + client.name() + " " + dev,
                    "remove " + client.name() + " " + dev + " " + RecordingClient.dataFor(client.name(), dev)),
                    log.entries(), "the device was removed from the client before its service went away");
            assertNull(Runtimes.client(runtime, client.name()), "the listener withdrew the client");
        } finally {
            bc.removeServiceListener(listener);
        }
    }

    @Test
    void aTrackerOfDevicesRegistersAClientOnItsOwnThread() {
        CallbackLog log = new CallbackLog();
        RecordingClient client = new RecordingClient(f.id() + "-T", f.driver(), log);
        ServiceTracker<IbDevice, ServiceRegistration<IbClient>> tracker;
        try {
            tracker = new ServiceTracker<>(bc, bc.createFilter(deviceFilter()),
                    new ServiceTrackerCustomizer<IbDevice, ServiceRegistration<IbClient>>() {
                        @Override
                        public ServiceRegistration<IbClient> addingService(ServiceReference<IbDevice> ref) {
                            // What an SCR activation of a component with a reference to IbDevice does.
                            return bc.registerService(IbClient.class, client, null);
                        }

                        @Override
                        public void modifiedService(ServiceReference<IbDevice> ref, ServiceRegistration<IbClient> r) {
                        }

                        @Override
                        public void removedService(ServiceReference<IbDevice> ref, ServiceRegistration<IbClient> r) {
                            r.unregister();
                        }
                    });
        } catch (org.osgi.framework.InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
        tracker.open();
        try {
            TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
            onAnotherThreadAndWait("registering the provider", () -> f.provider(p));
            String dev = f.id() + "_0";
            assertEquals(List.of(), problems);
            assertEquals(List.of("add " + client.name() + " " + dev), log.entries());
            assertNotNull(Runtimes.client(runtime, client.name()));
        } finally {
            onAnotherThreadAndWait("closing the tracker", tracker::close);
        }
        assertEquals(List.of(), problems);
        assertNull(Runtimes.client(runtime, client.name()));
    }

    /** A client whose remove runs {@code action} the first time it is called for a device of the test. */
    private static final class RemoveHook extends RecordingClient {
        volatile Runnable action = () -> { };

        RemoveHook(String name, String driverId, CallbackLog log) {
            super(name, driverId, log);
        }

        @Override
        public void remove(IbDevice device, Object clientData) {
            super.remove(device, clientData);
            if (inScope(device)) {
                Runnable a = action;
                action = () -> { };
                a.run();
            }
        }
    }

    @Test
    void aClientThatUnregistersItselfInRemoveIsRemovedOnce() {
        CallbackLog log = new CallbackLog();
        RemoveHook self = new RemoveHook(f.id() + "-S", f.driver(), log);
        ServiceRegistration<IbClient> sr = f.client(self);
        f.forget(sr);
        self.action = sr::unregister;
        ServiceRegistration<IbDeviceProvider> pr = f.provider(new TestProvider(DeviceConfig.of(f.template(), f.driver())));
        String dev = f.id() + "_0";

        onAnotherThreadAndWait("unregistering the provider", () -> f.unregister(pr));
        assertEquals(List.of(), problems);
        assertEquals(List.of("add " + self.name() + " " + dev,
                "remove " + self.name() + " " + dev + " " + RecordingClient.dataFor(self.name(), dev)),
                log.entries(), "one remove, though the client unregistered itself inside it");
        assertNull(Runtimes.client(runtime, self.name()), "the client is unregistered");

        f.provider(new TestProvider(DeviceConfig.of(f.template(), f.driver())));
        assertEquals(2, log.size(), () -> "an unregistered client gets no add: " + log);
    }

    @Test
    void aClientWhoseRemoveUnregistersAnotherClientOnAnotherThread() {
        CallbackLog log = new CallbackLog();
        RecordingClient older = new RecordingClient(f.id() + "-A", f.driver(), log);
        ServiceRegistration<IbClient> ar = f.client(older);
        RemoveHook newer = new RemoveHook(f.id() + "-B", f.driver(), log);
        f.client(newer);
        newer.action = () -> onAnotherThreadAndWait("unregistering the older client", () -> f.unregister(ar));
        ServiceRegistration<IbDeviceProvider> pr = f.provider(new TestProvider(DeviceConfig.of(f.template(), f.driver())));
        String dev = f.id() + "_0";

        onAnotherThreadAndWait("unregistering the provider", () -> f.unregister(pr));
        assertEquals(List.of(), problems);
        assertEquals(List.of("add " + older.name() + " " + dev, "add " + newer.name() + " " + dev,
                "remove " + newer.name() + " " + dev + " " + RecordingClient.dataFor(newer.name(), dev),
                "remove " + older.name() + " " + dev + " " + RecordingClient.dataFor(older.name(), dev)),
                log.entries(), "newest first; the older client removed once, by its own unregistration");
        assertNull(Runtimes.client(runtime, older.name()));
        assertTrue(Runtimes.deviceNames(runtime, f.driver()).isEmpty());
    }

    @Test
    void aClientWhoseRemoveUnregistersAnotherClientWhileItselfUnregistering() {
        CallbackLog log = new CallbackLog();
        RecordingClient other = new RecordingClient(f.id() + "-O", f.driver(), log);
        ServiceRegistration<IbClient> or = f.client(other);
        RemoveHook leaving = new RemoveHook(f.id() + "-X", f.driver(), log);
        ServiceRegistration<IbClient> lr = f.client(leaving);
        leaving.action = () -> onAnotherThreadAndWait("unregistering the other client", () -> f.unregister(or));
        f.provider(new TestProvider(DeviceConfig.of(f.template(), f.driver())));
        String dev = f.id() + "_0";

        onAnotherThreadAndWait("unregistering the leaving client", () -> f.unregister(lr));
        assertEquals(List.of(), problems);
        assertEquals(List.of("add " + other.name() + " " + dev, "add " + leaving.name() + " " + dev,
                "remove " + leaving.name() + " " + dev + " " + RecordingClient.dataFor(leaving.name(), dev),
                "remove " + other.name() + " " + dev + " " + RecordingClient.dataFor(other.name(), dev)),
                log.entries());
        List<String> left = List.of(Runtimes.device(runtime, dev).clients);
        assertTrue(!left.contains(other.name()) && !left.contains(leaving.name()), () -> "both clients left the device: " + left);
    }
}
