package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * Unregistration is a full fence ({@code ib_unregister_client}, {@code disable_device}): once
 * withdrawing a client or a provider service returns, every device the client was added to has
 * been removed from it and no callback of that client for that device runs any more; add and
 * remove never overlap for one client and device. Checked deterministically with a blocked add,
 * and under many threads registering and withdrawing clients and providers at once.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class FenceIT {
    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    @InjectService(timeout = 10_000)
    IbCore core;

    private Fixture f;

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "fence");
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    /** Runs {@code r} on a daemon thread; the latch opens when it returned. */
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

    /** A client whose add blocks until the test releases it. */
    private static final class BlockingClient extends RecordingClient {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CallbackLog log;

        BlockingClient(String name, String driverId, CallbackLog log) {
            super(name, driverId, log);
            this.log = log;
        }

        @Override
        public int add(IbDevice device) {
            if (!inScope(device)) {
                return 0;
            }
            entered.countDown();
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    log.add("add never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            int r = super.add(device);
            log.add("add returned " + name());
            return r;
        }
    }

    @Test
    void clientUnregistrationWaitsForARunningAdd() throws Exception {
        CallbackLog log = new CallbackLog();
        BlockingClient client = new BlockingClient(f.id() + "-B", f.driver(), log);
        ServiceRegistration<IbClient> cr = f.client(client);
        TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch registered = inThread("itest-register", () -> f.provider(p), error);
        assertTrue(client.entered.await(10, TimeUnit.SECONDS), "add was called");

        f.forget(cr);
        CountDownLatch unregistered = inThread("itest-unregister-client", cr::unregister, error);
        try {
            assertFalse(unregistered.await(200, TimeUnit.MILLISECONDS),
                    () -> "withdrawing the client must wait for its running add; error: " + error.get() + "; log: " + log);
        } finally {
            client.release.countDown();
        }
        client.release.countDown();
        assertTrue(unregistered.await(10, TimeUnit.SECONDS), "client unregistration completes after add returned");
        String dev = f.id() + "_0";
        assertEquals(List.of("add " + client.name() + " " + dev, "add returned " + client.name(),
                "remove " + client.name() + " " + dev + " " + RecordingClient.dataFor(client.name(), dev)),
                log.entries(), "the add finished, then the client was removed, all before unregister returned");
        assertTrue(registered.await(10, TimeUnit.SECONDS));
        assertNull(error.get(), () -> String.valueOf(error.get()));
        assertTrue(p.device().getClientData(client) == null, "no data left for the withdrawn client");
    }

    @Test
    void providerUnregistrationWaitsForARunningAdd() throws Exception {
        TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        ServiceRegistration<IbDeviceProvider> r = f.provider(p);
        Runtimes.awaitDevices(runtime, f.driver(), 1);
        CallbackLog log = new CallbackLog();
        BlockingClient client = new BlockingClient(f.id() + "-B", f.driver(), log);
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch registered = inThread("itest-register-client", () -> f.client(client), error);
        assertTrue(client.entered.await(10, TimeUnit.SECONDS), "add was called for the existing device");

        f.forget(r);
        CountDownLatch unregistered = inThread("itest-unregister-provider", r::unregister, error);
        try {
            assertFalse(unregistered.await(200, TimeUnit.MILLISECONDS),
                    () -> "withdrawing the provider must wait for the running add; error: " + error.get() + "; log: " + log);
        } finally {
            client.release.countDown();
        }
        client.release.countDown();
        assertTrue(unregistered.await(10, TimeUnit.SECONDS), "provider unregistration completes after add returned");
        String dev = f.id() + "_0";
        assertEquals(List.of("add " + client.name() + " " + dev, "add returned " + client.name(),
                "remove " + client.name() + " " + dev + " " + RecordingClient.dataFor(client.name(), dev)),
                log.entries(), "the add finished, then the device was removed, all before unregister returned");
        assertTrue(registered.await(10, TimeUnit.SECONDS));
        assertNull(error.get(), () -> String.valueOf(error.get()));
        assertTrue(p.isDetached());
    }

    // ------------------------------------------------------------------ concurrent churn

    /** Shared bookkeeping of the churn test: which clients and providers are withdrawn. */
    private static final class Fences {
        final List<String> violations = new CopyOnWriteArrayList<>();
        final Map<Long, AtomicBoolean> providerGone = new ConcurrentHashMap<>();
        final List<FenceClient> clients = new CopyOnWriteArrayList<>();
        /** Per device GUID, the stable clients' callbacks in the order they ran. */
        final Map<Long, List<String>> stableOrder = new ConcurrentHashMap<>();

        boolean gone(long guid) {
            AtomicBoolean g = providerGone.get(guid);
            return g != null && g.get();
        }
    }

    /**
     * A client that checks the fence contract on every callback, and calls back into the
     * registry from each as the contract allows (a reference by name, client data, a port query).
     */
    private static final class FenceClient implements IbClient {
        final String name;
        final String driverPrefix;
        final Fences fences;
        final IbCore core;
        final boolean stable;
        final Map<Long, AtomicInteger> balance = new ConcurrentHashMap<>();
        final Map<Long, AtomicBoolean> busy = new ConcurrentHashMap<>();
        final AtomicInteger adds = new AtomicInteger();
        volatile boolean gone;

        FenceClient(String name, String driverPrefix, Fences fences, IbCore core, boolean stable) {
            this.name = name;
            this.driverPrefix = driverPrefix;
            this.fences = fences;
            this.core = core;
            this.stable = stable;
        }

        /** The calls into the registry a callback may make; the device is registered during add. */
        private void callBack(String op, IbDevice d) {
            IbDevice held = core.getByName(d.name(), d.driverId());
            if (held != null) {
                if (held != d) {
                    fences.violations.add(op + " of " + name + ": getByName(" + d.name() + ") found another device");
                }
                held.put();
            } else if (op.equals("add")) {
                fences.violations.add("add of " + name + ": getByName(" + d.name() + ") found nothing during add");
            }
            try {
                d.queryPort(1);
            } catch (RuntimeException e) {
                fences.violations.add(op + " of " + name + ": queryPort failed: " + e);
            }
            if (stable) {
                fences.stableOrder.computeIfAbsent(d.nodeGuid(), g -> new CopyOnWriteArrayList<>()).add(op + " " + name);
            }
        }

        @Override
        public String name() {
            return name;
        }

        private boolean enter(String op, IbDevice d, long guid) {
            if (!d.driverId().startsWith(driverPrefix)) {
                return false;
            }
            if (gone) {
                fences.violations.add(op + " of " + name + " for " + d.name() + " after the client's unregistration returned");
            }
            if (fences.gone(guid)) {
                fences.violations.add(op + " of " + name + " for " + d.name() + " after the provider's unregistration returned");
            }
            if (!busy.computeIfAbsent(guid, g -> new AtomicBoolean()).compareAndSet(false, true)) {
                fences.violations.add(op + " of " + name + " for " + d.name() + " overlaps another callback");
            }
            return true;
        }

        private void exit(String op, IbDevice d, long guid) {
            busy.get(guid).set(false);
            if (gone) {
                fences.violations.add(op + " of " + name + " for " + d.name() + " still ran when the client's unregistration returned");
            }
            if (fences.gone(guid)) {
                fences.violations.add(op + " of " + name + " for " + d.name() + " still ran when the provider's unregistration returned");
            }
        }

        @Override
        public int add(IbDevice d) {
            long guid = d.nodeGuid();
            if (!enter("add", d, guid)) {
                return 0;
            }
            if (balance.computeIfAbsent(guid, g -> new AtomicInteger()).incrementAndGet() != 1) {
                fences.violations.add("add of " + name + " for " + d.name() + " twice without remove");
            }
            d.setClientData(this, name + "@" + guid);
            callBack("add", d);
            adds.incrementAndGet();
            exit("add", d, guid);
            return 0;
        }

        @Override
        public void remove(IbDevice d, Object data) {
            long guid = d.nodeGuid();
            if (!enter("remove", d, guid)) {
                return;
            }
            if (balance.computeIfAbsent(guid, g -> new AtomicInteger()).decrementAndGet() != 0) {
                fences.violations.add("remove of " + name + " for " + d.name() + " without add");
            }
            if (!(name + "@" + guid).equals(data)) {
                fences.violations.add("remove of " + name + " for " + d.name() + " got client data " + data);
            }
            callBack("remove", d);
            exit("remove", d, guid);
        }

        /** Devices (by GUID) this client is added to. */
        List<Long> added() {
            List<Long> l = new ArrayList<>();
            balance.forEach((g, b) -> {
                if (b.get() != 0) {
                    l.add(g);
                }
            });
            return l;
        }
    }

    @Test
    void concurrentChurnKeepsEveryFence() throws Exception {
        final int clientThreads = 3;
        final int providerThreads = 3;
        final int rounds = 25;
        Fences fences = new Fences();
        String prefix = f.driver();

        // Stable devices and clients that see all the churn.
        List<TestProvider> stable = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            TestProvider p = new TestProvider(DeviceConfig.of(f.id() + "s%d", prefix + "-stable"));
            fences.providerGone.put(p.config().nodeGuid(), new AtomicBoolean());
            stable.add(p);
            f.provider(p);
        }
        Runtimes.awaitDevices(runtime, prefix + "-stable", 2);
        List<FenceClient> stableClients = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            FenceClient c = new FenceClient(f.id() + "-stable" + i, prefix, fences, core, true);
            stableClients.add(c);
            fences.clients.add(c);
            f.client(c);
        }
        Poll.until("stable clients added to the stable devices",
                () -> stableClients.stream().allMatch(c -> c.added().size() == 2));

        ExecutorService pool = Executors.newFixedThreadPool(clientThreads + providerThreads, r -> {
            Thread t = new Thread(r, "itest-churn");
            t.setDaemon(true);
            return t;
        });
        CountDownLatch start = new CountDownLatch(1);
        List<TestProvider> churned = new CopyOnWriteArrayList<>();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < clientThreads; t++) {
            int tn = t;
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < rounds; i++) {
                    FenceClient c = new FenceClient(f.id() + "-c" + tn + "." + i, prefix, fences, core, false);
                    fences.clients.add(c);
                    ServiceRegistration<IbClient> r = bc.registerService(IbClient.class, c, null);
                    if (ThreadLocalRandom.current().nextBoolean()) {
                        Poll.until(c.name + " added to the stable devices", () -> c.adds.get() >= 2);
                    }
                    r.unregister();
                    c.gone = true;
                    List<Long> left = c.added();
                    if (!left.isEmpty()) {
                        fences.violations.add("unregistering " + c.name + " returned while still added to " + left);
                    }
                }
                return null;
            }));
        }
        for (int t = 0; t < providerThreads; t++) {
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < rounds; i++) {
                    TestProvider p = new TestProvider(DeviceConfig.of(f.id() + "c%d", prefix + "-churn"));
                    long guid = p.config().nodeGuid();
                    fences.providerGone.put(guid, new AtomicBoolean());
                    churned.add(p);
                    ServiceRegistration<IbDeviceProvider> r = bc.registerService(IbDeviceProvider.class, p, null);
                    if (ThreadLocalRandom.current().nextBoolean()) {
                        if (!p.awaitAttached(10, TimeUnit.SECONDS)) {
                            fences.violations.add(p + " never attached");
                        }
                    }
                    r.unregister();
                    fences.providerGone.get(guid).set(true);
                    for (FenceClient c : fences.clients) {
                        AtomicInteger b = c.balance.get(guid);
                        if (b != null && b.get() != 0) {
                            fences.violations.add("unregistering " + p + " returned while still added to " + c.name);
                        }
                    }
                    if (p.isAttached() && !p.isDetached()) {
                        fences.violations.add("unregistering " + p + " returned before it was detached");
                    }
                }
                return null;
            }));
        }
        start.countDown();
        pool.shutdown();
        if (!pool.awaitTermination(180, TimeUnit.SECONDS)) {
            fail("churn did not finish in 180 s (deadlock?)\n" + Threads.dump());
        }
        for (Future<?> fu : futures) {
            fu.get();
        }

        assertEquals(List.of(), fences.violations, "fence violations");
        for (TestProvider p : churned) {
            assertEquals(p.attachCount(), p.detachCount(), p + ": attach and detach balance");
            assertEquals(List.of(), p.violations());
        }
        assertEquals(List.of(), Runtimes.deviceNames(runtime, prefix + "-churn"), "no churned device left");
        long registeredChurn = churned.stream().filter(TestProvider::isAttached).count();
        assertTrue(registeredChurn > 0, "the churn registered devices");
        // Kernel order on every churned device: adds oldest client first, removes newest first.
        String s0 = stableClients.get(0).name;
        String s1 = stableClients.get(1).name;
        for (TestProvider p : churned) {
            if (p.isAttached()) {
                assertEquals(List.of("add " + s0, "add " + s1, "remove " + s1, "remove " + s0),
                        fences.stableOrder.get(p.config().nodeGuid()), p + ": the stable clients' callbacks in kernel order");
            }
        }
        for (FenceClient c : stableClients) {
            assertEquals(2 + registeredChurn, c.adds.get(),
                    c.name + " was added to each stable device and to every churned device that got registered");
        }
        for (FenceClient c : stableClients) {
            List<Long> added = c.added();
            added.sort(null);
            List<Long> expected = new ArrayList<>();
            for (TestProvider p : stable) {
                expected.add(p.config().nodeGuid());
            }
            expected.sort(null);
            assertEquals(expected, added, c.name + " is added to exactly the stable devices");
        }
    }
}
