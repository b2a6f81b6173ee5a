package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.Poll;
import org.rdma.itest.support.Runtimes;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * Device names ({@code assign_name}/{@code alloc_name}): {@code %d} takes the lowest free index,
 * a fixed name must be free, malformed templates and duplicate node GUIDs are refused and
 * reported in the runtime DTO; and the {@link IbDevice} service with its properties.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class NamingIT {
    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    @InjectService(timeout = 10_000)
    IbCore core;

    private Fixture f;

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "nm");
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private ServiceRegistration<IbDeviceProvider> register(String template) {
        return f.provider(new TestProvider(DeviceConfig.of(template, f.driver())));
    }

    @Test
    void percentDTakesTheLowestFreeIndex() {
        String t = f.template();
        ServiceRegistration<IbDeviceProvider> r0 = register(t);
        Runtimes.awaitDevices(runtime, f.driver(), 1);
        ServiceRegistration<IbDeviceProvider> r1 = register(t);
        Runtimes.awaitDevices(runtime, f.driver(), 2);
        register(t);
        assertEquals(List.of(f.id() + "_0", f.id() + "_1", f.id() + "_2"), Runtimes.awaitDevices(runtime, f.driver(), 3));

        f.unregister(r1);
        assertEquals(List.of(f.id() + "_0", f.id() + "_2"), Runtimes.deviceNames(runtime, f.driver()));
        register(t);
        assertEquals(List.of(f.id() + "_0", f.id() + "_2", f.id() + "_1"), Runtimes.awaitDevices(runtime, f.driver(), 3),
                "the freed index 1 is reused; devices stay in registration order");
        register(t);
        assertEquals(f.id() + "_3", Runtimes.awaitDevices(runtime, f.driver(), 4).get(3));

        f.unregister(r0);
        register(t);
        List<String> names = Runtimes.awaitDevices(runtime, f.driver(), 4);
        assertEquals(f.id() + "_0", names.get(3));
        List<String> fromCore = new ArrayList<>();
        for (IbDevice d : core.devices()) {
            if (d.driverId().equals(f.driver())) {
                fromCore.add(d.name());
            }
        }
        assertEquals(names, fromCore, "IbCore.devices() lists them in registration order");
    }

    @Test
    void deviceIndexesGrowAndAreNeverReused() {
        String t = f.template();
        register(t);
        ServiceRegistration<IbDeviceProvider> r1 = register(t);
        Runtimes.awaitDevices(runtime, f.driver(), 2);
        int first = indexOf(f.id() + "_0");
        int second = indexOf(f.id() + "_1");
        assertTrue(second > first, "ib_device.index grows with registration");
        f.unregister(r1);
        register(t);
        Runtimes.awaitDevices(runtime, f.driver(), 2);
        assertTrue(indexOf(f.id() + "_1") > second, "the name _1 is reused, its index is not");
    }

    private int indexOf(String name) {
        for (DeviceDTO d : runtime.getRuntimeDTO().devices) {
            if (d.name.equals(name)) {
                return d.index;
            }
        }
        throw new AssertionError("no device " + name);
    }

    @Test
    void fixedNameAlreadyTakenIsReportedNameInUse() {
        String fixed = f.id() + "fixed";
        register(fixed);
        assertEquals(List.of(fixed), Runtimes.awaitDevices(runtime, f.driver(), 1), "a template without %d is the name");
        ServiceRegistration<IbDeviceProvider> dup = register(fixed);
        FailedDTO failed = Runtimes.awaitFailedProvider(runtime, Fixture.serviceId(dup));
        assertEquals(FailedDTO.FAILURE_REASON_NAME_IN_USE, failed.failureReason, "reason; message: " + failed.message);
        assertEquals(fixed, failed.name);
        assertNotNull(failed.message);
        assertEquals(List.of(fixed), Runtimes.deviceNames(runtime, f.driver()), "the first device is untouched");

        long dupId = Fixture.serviceId(dup);
        f.unregister(dup);
        Poll.until("the failure entry goes with its service", () -> Runtimes.failedProvider(runtime, dupId) == null);
    }

    @Test
    void malformedTemplatesAreReportedBadNameTemplate() {
        List<ServiceRegistration<IbDeviceProvider>> bad = new ArrayList<>();
        for (String t : List.of(f.id() + "a%d%d", "")) {
            bad.add(register(t));
        }
        for (ServiceRegistration<IbDeviceProvider> r : bad) {
            FailedDTO failed = Runtimes.awaitFailedProvider(runtime, Fixture.serviceId(r));
            assertEquals(FailedDTO.FAILURE_REASON_BAD_NAME_TEMPLATE, failed.failureReason,
                    "reason for template '" + failed.name + "'; message: " + failed.message);
        }
        assertEquals(List.of(), Runtimes.deviceNames(runtime, f.driver()), "no device for a bad template");
        TestProvider ok = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        f.provider(ok);
        assertEquals(List.of(f.id() + "_0"), Runtimes.awaitDevices(runtime, f.driver(), 1),
                "bad templates do not take names");
    }

    @Test
    void duplicateNodeGuidIsReported() throws Exception {
        long guid = DeviceConfig.nextGuid();
        TestProvider first = new TestProvider(DeviceConfig.of(f.template(), f.driver()).nodeGuid(guid));
        TestProvider second = new TestProvider(DeviceConfig.of(f.id() + "dup%d", f.driver()).nodeGuid(guid));
        f.provider(first);
        Runtimes.awaitDevices(runtime, f.driver(), 1);
        ServiceRegistration<IbDeviceProvider> r2 = f.provider(second);
        FailedDTO failed = Runtimes.awaitFailedProvider(runtime, Fixture.serviceId(r2));
        assertEquals(FailedDTO.FAILURE_REASON_DUPLICATE_GUID, failed.failureReason, "message: " + failed.message);
        assertEquals(List.of(f.id() + "_0"), Runtimes.deviceNames(runtime, f.driver()));
        assertEquals(0, second.attachCount(), "a refused provider is never attached");
    }

    @Test
    void deviceServiceCarriesPropertiesAndIsWithdrawnOnRemoval() throws Exception {
        TestProvider p = new TestProvider(DeviceConfig.of(f.template(), f.driver()).ports(2).linkLayer(LinkLayer.ETHERNET));
        ServiceRegistration<IbDeviceProvider> r = f.provider(p);
        String name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        String filter = "(" + IbRuntime.DEVICE_NAME + "=" + name + ")";
        ServiceReference<IbDevice> ref = Poll.value("IbDevice service " + name + " is published",
                () -> first(filter), Objects::nonNull);

        assertEquals(name, ref.getProperty(IbRuntime.DEVICE_NAME));
        assertEquals(f.driver(), ref.getProperty(IbRuntime.DEVICE_DRIVER));
        assertEquals(String.format("%016x", p.config().nodeGuid()),
                String.valueOf(ref.getProperty(IbRuntime.DEVICE_NODE_GUID)).toLowerCase(), "node GUID as 16 hex digits");
        assertEquals("CA", ref.getProperty(IbRuntime.DEVICE_NODE_TYPE));
        assertEquals(2, ((Number) ref.getProperty(IbRuntime.DEVICE_PORTS)).intValue());
        List<String> ll = strings(ref.getProperty(IbRuntime.DEVICE_LINK_LAYER));
        assertEquals(2, ll.size(), "one link layer per port: " + ll);
        for (String l : ll) {
            assertTrue(l.equalsIgnoreCase(LinkLayer.ETHERNET.displayName()) || l.equals(LinkLayer.ETHERNET.name()),
                    "link layer of each port is Ethernet: " + ll);
        }

        IbDevice d = bc.getService(ref);
        assertNotNull(d);
        assertEquals(name, d.name());
        assertEquals(f.driver(), d.driverId());
        assertEquals(p.config().nodeGuid(), d.nodeGuid());
        assertEquals(1, d.startPort());
        assertEquals(2, d.endPort());
        assertTrue(d.isRegistered());
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        assertEquals(name, p.device().name(), "the provider was attached to this device");
        bc.ungetService(ref);

        DeviceDTO dto = Runtimes.device(runtime, name);
        assertEquals(f.driver(), dto.driverId);
        assertEquals(Fixture.serviceId(r), dto.providerServiceId);
        assertEquals(p.config().nodeGuid(), dto.nodeGuid);
        assertEquals(2, dto.ports.length);
        assertEquals("Ethernet", dto.ports[1].linkLayer);

        f.unregister(r);
        assertNull(first(filter), "the IbDevice service is withdrawn when the provider's unregistration returns");
        assertTrue(!d.isRegistered(), "the device object knows it is unregistered");
        assertEquals(List.of(), p.violations());
    }

    private ServiceReference<IbDevice> first(String filter) {
        try {
            Collection<ServiceReference<IbDevice>> refs = bc.getServiceReferences(IbDevice.class, filter);
            return refs.isEmpty() ? null : refs.iterator().next();
        } catch (InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> strings(Object v) {
        List<String> l = new ArrayList<>();
        if (v instanceof Object[]) {
            for (Object o : (Object[]) v) {
                l.add(String.valueOf(o));
            }
        } else if (v instanceof Collection) {
            for (Object o : (Collection<?>) v) {
                l.add(String.valueOf(o));
            }
        } else if (v != null) {
            l.addAll(Arrays.asList(String.valueOf(v).split(",")));
        }
        return l;
    }
}
