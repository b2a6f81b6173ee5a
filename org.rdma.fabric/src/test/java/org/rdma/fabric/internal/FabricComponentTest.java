package org.rdma.fabric.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.rdma.fabric.Fabric;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** The DS component without a framework: configuration in, one Fabric service with fabric.name out. */
class FabricComponentTest {

    /** What the component registered. */
    private static final class Registry {
        Object service;
        Dictionary<String, ?> props;
        final AtomicBoolean unregistered = new AtomicBoolean();

        BundleContext context() {
            ServiceRegistration<?> reg = (ServiceRegistration<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ServiceRegistration.class}, (p, m, a) -> {
                        if (m.getName().equals("unregister")) {
                            unregistered.set(true);
                        }
                        return null;
                    });
            return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {BundleContext.class},
                    (p, m, a) -> {
                        if (m.getName().equals("registerService") && m.getParameterTypes()[0] == Class.class) {
                            assertSame(Fabric.class, a[0]);
                            service = a[1];
                            @SuppressWarnings("unchecked")
                            Dictionary<String, ?> d = (Dictionary<String, ?>) a[2];
                            props = d;
                            return reg;
                        }
                        throw new UnsupportedOperationException(m.getName());
                    });
        }
    }

    private static FabricComponent.Config config(String name, String file, String inline, long seed) {
        return (FabricComponent.Config) Proxy.newProxyInstance(FabricComponentTest.class.getClassLoader(),
                new Class<?>[] {FabricComponent.Config.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "fabric_name":
                            return name;
                        case "topology_file":
                            return file;
                        case "topology":
                            return inline;
                        case "seed":
                            return seed;
                        case "annotationType":
                            return FabricComponent.Config.class;
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    @Test
    void inlineTopologyBecomesAFabricService() throws Exception {
        Registry r = new Registry();
        Map<String, Object> props = new HashMap<>();
        props.put("service.pid", "org.rdma.fabric~lab");
        FabricComponent c = new FabricComponent(r.context(), new VirtualClock(),
                config("lab", "", "Switch 4 \"sw\"\\n[1] \"h\"[1]\\n\\nHca 1 \"h\"\\n[1] \"sw\"[1]\\n", 9), props);
        Fabric f = (Fabric) r.service;
        assertEquals("lab", r.props.get(Fabric.FABRIC_NAME));
        assertEquals(2, r.props.get("fabric.nodes"));
        assertEquals(1, r.props.get("fabric.links"));
        assertEquals("org.rdma.fabric~lab", r.props.get("fabric.config.pid"));
        assertEquals(9, f.seed());
        f.attach("h");
        assertEquals(PortState.INIT, f.findNode("sw").orElseThrow().port(1).portState());
        c.deactivate();
        assertTrue(r.unregistered.get());
        assertThrows(RdmaException.class, () -> f.addSwitch("late", 5, 2), "closed with the component");
    }

    @Test
    void topologyFileAndEmptyDefault(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("net");
        Files.writeString(file, "Switch 2 \"a\"\n[1] \"b\"[1]\n\nSwitch 2 \"b\"\n[1] \"a\"[1]\n");
        Registry r = new Registry();
        new FabricComponent(r.context(), new VirtualClock(), config("f1", file.toString(), "", 1), Map.of());
        Fabric f = (Fabric) r.service;
        assertEquals(2, f.switches().size());
        assertTrue(f.links().get(0).isUp());
        Registry empty = new Registry();
        new FabricComponent(empty.context(), new VirtualClock(), config("f2", "", "", 1), Map.of());
        assertEquals(0, ((Fabric) empty.service).nodes().size());
    }
}
