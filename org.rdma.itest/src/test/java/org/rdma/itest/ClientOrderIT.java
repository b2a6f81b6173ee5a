package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.itest.support.RecordingClient.dataFor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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
import org.rdma.itest.support.RecordingClient;
import org.rdma.itest.support.Runtimes;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.runtime.ClientDTO;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The client whiteboard's order ({@code ib_register_client}, {@code ib_register_device},
 * {@code disable_device}, {@code ib_unregister_client}): providers and clients registered in
 * every order, each callback recorded and the whole sequence asserted. Withdrawing a service is
 * a fence, so the removes it causes are asserted right after {@code unregister()} returns,
 * without waiting; adds may be asynchronous and are awaited.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class ClientOrderIT {
    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private Fixture f;
    private CallbackLog log;

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "ord");
        log = new CallbackLog();
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private TestProvider provider() {
        return new TestProvider(DeviceConfig.of(f.template(), f.driver()));
    }

    private RecordingClient client(String n) {
        return new RecordingClient(f.id() + "-" + n, f.driver(), log);
    }

    private String c(String n) {
        return f.id() + "-" + n;
    }

    private String dev(int i) {
        return f.id() + "_" + i;
    }

    /** Registers a provider and waits until it is registered as the {@code total}-th device. */
    private ServiceRegistration<IbDeviceProvider> addProvider(TestProvider p, int total) {
        ServiceRegistration<IbDeviceProvider> r = f.provider(p);
        Runtimes.awaitDevices(runtime, f.driver(), total);
        return r;
    }

    private ServiceRegistration<IbClient> addClient(IbClient c, int expectedLogSize) {
        ServiceRegistration<IbClient> r = f.client(c);
        log.awaitSize(expectedLogSize);
        return r;
    }

    private static String add(String client, String dev) {
        return "add " + client + " " + dev;
    }

    private static String remove(String client, String dev) {
        return "remove " + client + " " + dev + " " + dataFor(client, dev);
    }

    private List<String> ours(String[] names) {
        return names == null ? List.of()
                : Arrays.stream(names).filter(n -> n.startsWith(f.id() + "-")).collect(Collectors.toList());
    }

    @Test
    void providersFirstThenClients() {
        ServiceRegistration<IbDeviceProvider> pa = addProvider(provider(), 1);
        ServiceRegistration<IbDeviceProvider> pb = addProvider(provider(), 2);
        assertEquals(List.of(dev(0), dev(1)), Runtimes.deviceNames(runtime, f.driver()), "%d names in order");

        List<String> expected = new ArrayList<>();
        ServiceRegistration<IbClient> r1 = addClient(client("C1"), 2);
        expected.addAll(List.of(add(c("C1"), dev(0)), add(c("C1"), dev(1))));
        assertEquals(expected, log.entries(), "a new client is added to every existing device, in device order");
        ServiceRegistration<IbClient> r2 = addClient(client("C2"), 4);
        expected.addAll(List.of(add(c("C2"), dev(0)), add(c("C2"), dev(1))));
        ServiceRegistration<IbClient> r3 = addClient(client("C3"), 6);
        expected.addAll(List.of(add(c("C3"), dev(0)), add(c("C3"), dev(1))));
        assertEquals(expected, log.entries());

        // The runtime lists the clients in registration order with the devices they hold.
        List<ClientDTO> clients = new ArrayList<>();
        for (String n : List.of("C1", "C2", "C3")) {
            ClientDTO dto = Runtimes.client(runtime, c(n));
            assertNotNull(dto, "ClientDTO of " + c(n));
            assertEquals(List.of(dev(0), dev(1)), Arrays.asList(dto.devices), "devices of " + c(n));
            clients.add(dto);
        }
        assertTrue(clients.get(0).clientId < clients.get(1).clientId && clients.get(1).clientId < clients.get(2).clientId,
                "client ids follow registration order");
        DeviceDTO d0 = Runtimes.device(runtime, dev(0));
        assertEquals(List.of(c("C1"), c("C2"), c("C3")), ours(d0.clients), "DeviceDTO.clients in order");

        f.unregister(pa);
        expected.addAll(List.of(remove(c("C3"), dev(0)), remove(c("C2"), dev(0)), remove(c("C1"), dev(0))));
        assertEquals(expected, log.entries(), "device removal: remove in reverse client order, done when unregister returns");

        f.unregister(r2);
        expected.add(remove(c("C2"), dev(1)));
        assertEquals(expected, log.entries(), "client unregistration removes it from the remaining device");

        f.unregister(pb);
        expected.addAll(List.of(remove(c("C3"), dev(1)), remove(c("C1"), dev(1))));
        assertEquals(expected, log.entries());

        f.unregister(r1);
        f.unregister(r3);
        assertEquals(expected, log.entries(), "clients without devices get no callback when they go");
    }

    @Test
    void clientsFirstThenProviders() {
        ServiceRegistration<IbClient> r1 = f.client(client("C1"));
        ServiceRegistration<IbClient> r2 = f.client(client("C2"));
        ServiceRegistration<IbClient> r3;
        List<String> expected = new ArrayList<>();

        f.provider(provider());
        log.awaitSize(2);
        expected.addAll(List.of(add(c("C1"), dev(0)), add(c("C2"), dev(0))));
        assertEquals(expected, log.entries(), "a new device is added to every client, in client order");

        ServiceRegistration<IbDeviceProvider> pb = f.provider(provider());
        log.awaitSize(4);
        expected.addAll(List.of(add(c("C1"), dev(1)), add(c("C2"), dev(1))));
        assertEquals(expected, log.entries());

        r3 = addClient(client("C3"), 6);
        expected.addAll(List.of(add(c("C3"), dev(0)), add(c("C3"), dev(1))));
        assertEquals(expected, log.entries());

        f.unregister(r1);
        expected.addAll(List.of(remove(c("C1"), dev(0)), remove(c("C1"), dev(1))));
        assertEquals(expected, log.entries(), "unregistering a client removes it from every device it was added to");

        f.unregister(pb);
        expected.addAll(List.of(remove(c("C3"), dev(1)), remove(c("C2"), dev(1))));
        assertEquals(expected, log.entries());

        f.unregister(r3);
        expected.add(remove(c("C3"), dev(0)));
        f.unregister(r2);
        expected.add(remove(c("C2"), dev(0)));
        assertEquals(expected, log.entries());
    }

    @Test
    void interleavedRegistrations() {
        List<String> expected = new ArrayList<>();
        ServiceRegistration<IbClient> r1 = f.client(client("C1"));
        ServiceRegistration<IbDeviceProvider> pa = f.provider(provider());
        log.awaitSize(1);
        expected.add(add(c("C1"), dev(0)));
        ServiceRegistration<IbClient> r2 = addClient(client("C2"), 2);
        expected.add(add(c("C2"), dev(0)));
        ServiceRegistration<IbDeviceProvider> pb = f.provider(provider());
        log.awaitSize(4);
        expected.addAll(List.of(add(c("C1"), dev(1)), add(c("C2"), dev(1))));
        ServiceRegistration<IbClient> r3 = addClient(client("C3"), 6);
        expected.addAll(List.of(add(c("C3"), dev(0)), add(c("C3"), dev(1))));
        assertEquals(expected, log.entries());

        f.unregister(r2);
        expected.addAll(List.of(remove(c("C2"), dev(0)), remove(c("C2"), dev(1))));
        assertEquals(expected, log.entries());

        // A client registered after a removal gets the next id: it is removed first.
        ServiceRegistration<IbClient> r4 = addClient(client("C4"), expected.size() + 2);
        expected.addAll(List.of(add(c("C4"), dev(0)), add(c("C4"), dev(1))));
        assertEquals(expected, log.entries());

        f.unregister(pa);
        expected.addAll(List.of(remove(c("C4"), dev(0)), remove(c("C3"), dev(0)), remove(c("C1"), dev(0))));
        assertEquals(expected, log.entries());

        // The freed name comes back for the next device, which every client gets in order.
        f.provider(provider());
        log.awaitSize(expected.size() + 3);
        expected.addAll(List.of(add(c("C1"), dev(0)), add(c("C3"), dev(0)), add(c("C4"), dev(0))));
        assertEquals(expected, log.entries());

        f.unregister(pb);
        expected.addAll(List.of(remove(c("C4"), dev(1)), remove(c("C3"), dev(1)), remove(c("C1"), dev(1))));
        assertEquals(expected, log.entries());
        f.unregister(r1);
        expected.add(remove(c("C1"), dev(0)));
        f.unregister(r3);
        expected.add(remove(c("C3"), dev(0)));
        f.unregister(r4);
        expected.add(remove(c("C4"), dev(0)));
        assertEquals(expected, log.entries());
    }

    @Test
    void clientRefusingADeviceGetsNoRemoveAndNoData() throws Exception {
        TestProvider a = provider();
        TestProvider b = provider();
        ServiceRegistration<IbDeviceProvider> pa = addProvider(a, 1);
        addProvider(b, 2);
        RecordingClient refusing = client("C2").addResult(
                d -> d.name().equals(dev(0)) ? -Errno.EOPNOTSUPP.value : 0);
        ServiceRegistration<IbClient> r1 = addClient(client("C1"), 2);
        ServiceRegistration<IbClient> r2 = addClient(refusing, 4);
        addClient(client("C3"), 6);
        List<String> expected = new ArrayList<>(List.of(
                add(c("C1"), dev(0)), add(c("C1"), dev(1)),
                add(c("C2"), dev(0)), add(c("C2"), dev(1)),
                add(c("C3"), dev(0)), add(c("C3"), dev(1))));
        assertEquals(expected, log.entries());

        assertTrue(a.awaitAttached(10, TimeUnit.SECONDS));
        IbDevice da = a.device();
        IbDevice db = b.device();
        assertNull(da.getClientData(refusing), "no client data where add failed");
        assertEquals(dataFor(c("C2"), dev(1)), db.getClientData(refusing));
        assertEquals(List.of(c("C1"), c("C3")), ours(da.clientNames().toArray(new String[0])),
                "clientNames() leaves out the client whose add failed");
        assertEquals(List.of(c("C1"), c("C2"), c("C3")), ours(db.clientNames().toArray(new String[0])));
        assertEquals(List.of(dev(1)), Arrays.asList(Runtimes.client(runtime, c("C2")).devices),
                "ClientDTO.devices lists only devices whose add returned 0");

        f.unregister(pa);
        expected.addAll(List.of(remove(c("C3"), dev(0)), remove(c("C1"), dev(0))));
        assertEquals(expected, log.entries(), "no remove for the client whose add failed");

        f.unregister(r2);
        expected.add(remove(c("C2"), dev(1)));
        assertEquals(expected, log.entries());
        f.unregister(r1);
        expected.add(remove(c("C1"), dev(1)));
        assertEquals(expected, log.entries());
    }

    @Test
    void clientDataLivesFromAddToRemove() throws Exception {
        TestProvider a = provider();
        ServiceRegistration<IbDeviceProvider> pa = addProvider(a, 1);
        RecordingClient c1 = client("C1");
        RecordingClient c2 = client("C2");
        ServiceRegistration<IbClient> r1 = addClient(c1, 1);
        addClient(c2, 2);
        IbDevice d = a.device();
        assertEquals(dataFor(c("C1"), dev(0)), d.getClientData(c1), "data set in add is visible to getClientData");
        assertEquals(dataFor(c("C2"), dev(0)), d.getClientData(c2));

        // The client's own data replaced later is what remove receives.
        d.setClientData(c1, "replaced");
        f.unregister(r1);
        assertEquals(List.of(add(c("C1"), dev(0)), add(c("C2"), dev(0)), "remove " + c("C1") + " " + dev(0) + " replaced"),
                log.entries(), "remove receives the current client data");
        assertNull(d.getClientData(c1), "after remove the client has no data on the device");
        assertEquals(dataFor(c("C2"), dev(0)), d.getClientData(c2), "other clients keep theirs");

        f.unregister(pa);
        assertEquals(remove(c("C2"), dev(0)), log.entries().get(3));
        assertNull(d.getClientData(c2), "after device removal the client has no data on it");
        assertTrue(a.isDetached(), "the provider is detached when its unregistration returns");
        assertEquals(List.of(), a.violations());
    }
}
