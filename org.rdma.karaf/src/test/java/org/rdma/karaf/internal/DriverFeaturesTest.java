package org.rdma.karaf.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

class DriverFeaturesTest {
    /** A FeaturesService offering rdma-core, rdma-fabric, rdma-rvt and scr; records calls. */
    static final class Fake {
        final Set<String> installed = new HashSet<>(Set.of("rdma-core", "scr"));
        final List<String> calls = new ArrayList<>();
        final List<Feature> all = List.of(feature("rdma-core"), feature("rdma-fabric"), feature("rdma-rvt"), feature("scr"));

        FeaturesService service() {
            return (FeaturesService) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {FeaturesService.class}, (p, m, a) -> switch (m.getName()) {
                        case "listFeatures" -> all.toArray(new Feature[0]);
                        case "getFeature" -> all.stream().filter(f -> f.getName().equals(a[0])).findFirst().orElse(null);
                        case "isInstalled" -> installed.contains(((Feature) a[0]).getName());
                        case "installFeature" -> {
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
            return (Feature) Proxy.newProxyInstance(DriverFeaturesTest.class.getClassLoader(),
                    new Class<?>[] {Feature.class}, (p, m, a) -> switch (m.getName()) {
                        case "getName" -> name;
                        case "getVersion" -> "0.1.0.SNAPSHOT";
                        case "isHidden" -> false;
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
        }
    }

    @Test
    void namesMapToRdmaFeatures() {
        assertEquals("rdma-fabric", DriverFeatures.featureName("fabric"));
        assertEquals("rdma-fabric", DriverFeatures.featureName("rdma-fabric"));
        assertEquals("rdma-mlx4sim", DriverFeatures.featureName(" mlx4sim "));
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> DriverFeatures.featureName("")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> DriverFeatures.featureName("a b")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> DriverFeatures.featureName("core")).errno());
    }

    @Test
    void loadAndUnloadInstallAndUninstallTheFeature() throws Exception {
        Fake fake = new Fake();
        DriverFeatures drivers = new DriverFeatures(fake.service());
        assertEquals(List.of("fabric", "rvt"), drivers.available());
        assertEquals(List.of(), drivers.loaded());

        assertEquals("rdma-fabric", drivers.load("fabric").getName());
        assertNull(drivers.load("fabric"), "loading a loaded driver is a no-op, as for modprobe");
        assertEquals(List.of("fabric"), drivers.loaded());
        assertEquals("rdma-fabric", drivers.unload("fabric").getName());
        assertEquals(List.of("install rdma-fabric/0.1.0.SNAPSHOT", "uninstall rdma-fabric/0.1.0.SNAPSHOT"), fake.calls);
    }

    @Test
    void unknownOrUnloadedDriversAreEnoent() {
        DriverFeatures drivers = new DriverFeatures(new Fake().service());
        RdmaException unknown = assertThrows(RdmaException.class, () -> drivers.load("nosuch"));
        assertEquals(Errno.ENOENT, unknown.errno());
        assertTrue(unknown.getMessage().contains("available: fabric, rvt"), unknown.getMessage());
        assertEquals(Errno.ENOENT, assertThrows(RdmaException.class, () -> drivers.unload("rvt")).errno());
    }
}
