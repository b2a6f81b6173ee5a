package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.mad.MadService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;

/** Which device a configuration picks, and the retry while its MAD ports are not ready. */
class SmComponentTest {
    final VirtualClock clock = new VirtualClock();
    final List<String> registrations = new ArrayList<>();

    /** A MAD layer whose ports never come up: every registration is refused with ENODEV. */
    final MadService mad = (MadService) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {MadService.class}, (p, m, a) -> {
                if (m.getName().equals("registerMadAgent")) {
                    registrations.add(((IbDevice) a[0]).name());
                    throw new RdmaException(Errno.ENODEV, "no MAD port");
                }
                return null;
            });

    static IbDevice device(String name, long guid, LinkLayer ll) {
        return (IbDevice) Proxy.newProxyInstance(SmComponentTest.class.getClassLoader(), new Class<?>[] {IbDevice.class},
                (p, m, a) -> switch (m.getName()) {
                    case "name" -> name;
                    case "nodeGuid" -> guid;
                    case "startPort" -> 1;
                    case "endPort" -> 2;
                    case "getLinkLayer" -> ll;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == a[0];
                    case "toString" -> name;
                    default -> null;
                });
    }

    static SmConfig config(Map<String, Object> values) {
        return (SmConfig) Proxy.newProxyInstance(SmComponentTest.class.getClassLoader(), new Class<?>[] {SmConfig.class},
                (p, m, a) -> values.containsKey(m.getName()) ? values.get(m.getName()) : m.getDefaultValue());
    }

    @Test
    void theDeviceIsChosenByNodeGuidAndRetriedUntilItsPortsAreReady() {
        SmComponent c = new SmComponent(mad, clock, config(Map.of("nodeGuid", "0x0002:c903:0000:0a00")));
        try {
            c.addDevice(device("mlx4_0", 0x0002c90300000b00L, LinkLayer.INFINIBAND));
            assertEquals(List.of(), registrations, "another node GUID");
            c.addDevice(device("mlx4_1", 0x0002c90300000a00L, LinkLayer.INFINIBAND));
            assertEquals(List.of("mlx4_1"), registrations);
            assertNull(c.subnetManager());
            clock.advance(1, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(List.of("mlx4_1", "mlx4_1"), registrations, "retried a second later");
            assertEquals("mlx4_1/1", c.describe());
        } finally {
            c.deactivate();
        }
        clock.advance(5, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(2, registrations.size(), "no retry after deactivation");
    }

    @Test
    void byNameOnlyAnInfiniBandPortIsTaken() {
        SmComponent c = new SmComponent(mad, clock, config(Map.of("device", "mlx4_0", "port", 2)));
        try {
            c.addDevice(device("mlx4_0", 1, LinkLayer.ETHERNET));
            c.addDevice(device("mlx4_1", 2, LinkLayer.INFINIBAND));
            assertEquals(List.of(), registrations);
            assertEquals("mlx4_0/2", c.describe());
        } finally {
            c.deactivate();
        }
    }
}
