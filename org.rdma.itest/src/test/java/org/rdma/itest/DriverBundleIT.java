package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.itest.support.RecordingClient.dataFor;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.ServiceReference;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.DriverBundles;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.driverbundle.DriverActivator;
import org.rdma.itest.support.CallbackLog;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.Poll;
import org.rdma.itest.support.RecordingClient;
import org.rdma.itest.support.Runtimes;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.runtime.IbRuntime;

/**
 * A driver bundle stopped and started: a real bundle, built here from a manifest and the class
 * file of {@link DriverActivator}, publishes two providers with its own context. Stopping it
 * (the framework withdraws its services) removes its devices from every client before
 * {@code stop()} returns; starting it again adds them back, under new names where the old ones
 * were taken in the meantime.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class DriverBundleIT {
    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private Fixture f;
    private CallbackLog log;
    private Bundle driver;
    private String bsn;

    @BeforeEach
    void setUp() {
        f = new Fixture(bc, "drv");
        log = new CallbackLog();
        bsn = "org.rdma.itest.driver." + f.id();
    }

    @AfterEach
    void tearDown() throws BundleException {
        try {
            if (driver != null) {
                driver.uninstall();
            }
        } finally {
            DriverBundles.forget(bsn);
            f.close();
        }
    }

    /** A bundle whose activator is {@link DriverActivator}, importing the test driver package. */
    private byte[] driverBundle() throws IOException {
        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", bsn);
        a.putValue("Bundle-Version", "1.0.0");
        a.putValue("Bundle-Activator", DriverActivator.class.getName());
        a.putValue("Import-Package", "org.osgi.framework,org.rdma.verbs.spi,org.rdma.itest.driver");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String entry = DriverActivator.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream jar = new JarOutputStream(out, mf);
                InputStream cls = DriverActivator.class.getClassLoader().getResourceAsStream(entry)) {
            assertNotNull(cls, "class file " + entry);
            jar.putNextEntry(new JarEntry(entry));
            cls.transferTo(jar);
            jar.closeEntry();
        }
        return out.toByteArray();
    }

    private List<String> deviceServices() throws Exception {
        Collection<ServiceReference<IbDevice>> refs = bc.getServiceReferences(IbDevice.class,
                "(" + IbRuntime.DEVICE_DRIVER + "=" + f.driver() + ")");
        List<String> names = new ArrayList<>();
        for (ServiceReference<IbDevice> r : refs) {
            names.add((String) r.getProperty(IbRuntime.DEVICE_NAME));
        }
        names.sort(null);
        return names;
    }

    @Test
    void stoppingTheDriverBundleRemovesItsDevicesAndStartingAddsThemBack() throws Exception {
        Supplier<DeviceConfig> cfg = () -> DeviceConfig.of(f.template(), f.driver());
        DriverBundles.configure(bsn, List.of(cfg, cfg));
        RecordingClient client = new RecordingClient(f.id() + "-C", f.driver(), log);
        f.client(client);
        String c = client.name();
        String d0 = f.id() + "_0";
        String d1 = f.id() + "_1";

        driver = bc.installBundle("itest:" + bsn, new ByteArrayInputStream(driverBundle()));
        driver.start();
        assertEquals(List.of(d0, d1), Runtimes.awaitDevices(runtime, f.driver(), 2));
        log.awaitSize(2);
        assertEquals(List.of("add " + c + " " + d0, "add " + c + " " + d1), log.entries());
        assertEquals(List.of(d0, d1), Poll.value("IbDevice services of the driver bundle", this::deviceServicesQuietly,
                l -> l.size() == 2));
        List<TestProvider> first = DriverBundles.started(bsn);
        assertEquals(2, first.size());

        driver.stop();
        // stop() returned: the framework withdrew the services and the core's fence held.
        List<String> removes = log.entries(e -> e.startsWith("remove "));
        assertEquals(List.of("remove " + c + " " + d0 + " " + dataFor(c, d0), "remove " + c + " " + d1 + " " + dataFor(c, d1)),
                sorted(removes), "both devices removed from the client when stop() returned");
        assertEquals(List.of(), Runtimes.deviceNames(runtime, f.driver()));
        assertEquals(List.of(), deviceServices(), "IbDevice services withdrawn");
        for (TestProvider p : first) {
            assertTrue(p.isDetached(), p + " detached");
            assertEquals(List.of(), p.violations());
        }

        driver.start();
        assertEquals(List.of(d0, d1), sorted(Runtimes.awaitDevices(runtime, f.driver(), 2)), "the names are free again");
        log.awaitSize(6);
        assertEquals(List.of("add " + c + " " + d0, "add " + c + " " + d1), sorted(log.entries().subList(4, 6)));
        assertEquals(4, DriverBundles.started(bsn).size(), "new provider objects on each start");

        // While the bundle is stopped another driver takes the first name: the restart gets new ones.
        driver.stop();
        TestProvider squatter = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        f.provider(squatter);
        assertEquals(List.of(d0), Runtimes.awaitDevices(runtime, f.driver(), 1));
        driver.start();
        List<String> names = Runtimes.awaitDevices(runtime, f.driver(), 3);
        assertEquals(List.of(d0, d1, f.id() + "_2"), sorted(names), "lowest free indexes after the squatter's");
        assertEquals(d0, names.get(0), "the squatter keeps its name");
    }

    private List<String> deviceServicesQuietly() {
        try {
            return deviceServices();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> sorted(List<String> l) {
        List<String> s = new ArrayList<>(l);
        s.sort(null);
        return s;
    }
}
