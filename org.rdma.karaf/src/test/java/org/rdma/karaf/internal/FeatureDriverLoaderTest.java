package org.rdma.karaf.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.karaf.features.Feature;
import org.apache.karaf.features.FeaturesService;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DriverLoader;

class FeatureDriverLoaderTest {
    /** A FeaturesService offering rdma-core, rdma-fabric, rdma-rvt and scr; records calls. */
    static final class Fake {
        final Set<String> installed = new HashSet<>(Set.of("rdma-core", "scr"));
        final List<String> calls = new ArrayList<>();
        boolean failInstall;
        final List<Feature> all = List.of(feature("rdma-core"), feature("rdma-fabric"), feature("rdma-rvt"), feature("scr"));

        FeaturesService service() {
            return (FeaturesService) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {FeaturesService.class}, (p, m, a) -> switch (m.getName()) {
                        case "listFeatures" -> all.toArray(new Feature[0]);
                        case "getFeature" -> all.stream().filter(f -> f.getName().equals(a[0])).findFirst().orElse(null);
                        case "isInstalled" -> installed.contains(((Feature) a[0]).getName());
                        case "installFeature" -> {
                            if (failInstall) {
                                throw new IllegalStateException("cannot resolve " + a[0]);
                            }
                            calls.add("install " + a[0] + "/" + a[1]);
                            installed.add((String) a[0]);
                            yield null;
                        }
                        case "uninstallFeature" -> {
                            calls.add("uninstall " + a[0] + "/" + a[1]);
                            installed.remove((String) a[0]);
                            yield null;
                        }
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
        }

        static Feature feature(String name) {
            return (Feature) Proxy.newProxyInstance(FeatureDriverLoaderTest.class.getClassLoader(),
                    new Class<?>[] {Feature.class}, (p, m, a) -> switch (m.getName()) {
                        case "getName" -> name;
                        case "getVersion" -> "0.1.0.SNAPSHOT";
                        case "isHidden" -> false;
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
        }
    }

    @Test
    void loadAndUnloadInstallAndUninstallTheFeature() {
        Fake fake = new Fake();
        DriverLoader drivers = new FeatureDriverLoader(fake.service());
        assertEquals(List.of("fabric", "rvt"), drivers.available());
        assertEquals(List.of(), drivers.loaded());

        assertTrue(drivers.load("fabric"));
        assertFalse(drivers.load("rdma-fabric"), "loading a loaded driver is a no-op, as for modprobe");
        assertEquals(List.of("fabric"), drivers.loaded());
        drivers.unload("fabric");
        assertEquals(List.of("install rdma-fabric/0.1.0.SNAPSHOT", "uninstall rdma-fabric/0.1.0.SNAPSHOT"), fake.calls);
    }

    @Test
    void featuresServiceFailuresAreEio() {
        Fake fake = new Fake();
        fake.failInstall = true;
        RdmaException e = assertThrows(RdmaException.class, () -> new FeatureDriverLoader(fake.service()).load("rvt"));
        assertEquals(Errno.EIO, e.errno());
        assertTrue(e.getMessage().contains("cannot resolve"), e.getMessage());
    }

    @Test
    void unknownOrUnloadedDriversAreEnoent() {
        DriverLoader drivers = new FeatureDriverLoader(new Fake().service());
        RdmaException unknown = assertThrows(RdmaException.class, () -> drivers.load("nosuch"));
        assertEquals(Errno.ENOENT, unknown.errno());
        assertTrue(unknown.getMessage().contains("available: fabric, rvt"), unknown.getMessage());
        assertEquals(Errno.ENOENT, assertThrows(RdmaException.class, () -> drivers.unload("rvt")).errno());
    }
}
