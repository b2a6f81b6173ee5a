package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.DriverLoader;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.RuntimeDTO;

/**
 * {@code rdma:link-add} against fakes of the framework: a driver bundle (rxe, with the Metatype
 * bnd generates for it), Config Admin (a stored configuration registers its device at once), the
 * core's runtime and, in some tests, a {@link DriverLoader}.
 */
class LinkConfigurationsTest {
    final List<String> devices = new ArrayList<>();
    final List<Map<String, Object>> stored = new ArrayList<>();
    final List<String> loaderCalls = new ArrayList<>();
    final Map<String, Integer> bundles = new HashMap<>(Map.of("org.rdma.hca.rxe", Bundle.RESOLVED,
            "org.rdma.fabric.ibsim", Bundle.RESOLVED));

    static <T> T proxy(Class<T> type, java.lang.reflect.InvocationHandler h) {
        return type.cast(Proxy.newProxyInstance(LinkConfigurationsTest.class.getClassLoader(), new Class<?>[] {type}, h));
    }

    Bundle bundle(String bsn) {
        return proxy(Bundle.class, (p, m, a) -> switch (m.getName()) {
            case "getSymbolicName" -> bsn;
            case "getState" -> bundles.get(bsn);
            case "findEntries" -> {
                URL rxe = getClass().getResource("/link/rxe-metatype.xml");
                assertNotNull(rxe);
                yield bsn.equals("org.rdma.hca.rxe") ? Collections.enumeration(List.of(rxe)) : null;
            }
            default -> throw new UnsupportedOperationException(m.getName());
        });
    }

    LinkConfigurations links(boolean withLoader) {
        BundleContext bc = proxy(BundleContext.class, (p, m, a) -> switch (m.getName()) {
            case "getBundles" -> bundles.keySet().stream().sorted().map(this::bundle).toArray(Bundle[]::new);
            default -> throw new UnsupportedOperationException(m.getName());
        });
        ConfigurationAdmin cm = proxy(ConfigurationAdmin.class, (p, m, a) -> switch (m.getName()) {
            case "listConfigurations" -> null;
            case "createFactoryConfiguration" -> proxy(Configuration.class, (p2, m2, a2) -> switch (m2.getName()) {
                case "update" -> {
                    Dictionary<?, ?> d = (Dictionary<?, ?>) a2[0];
                    Map<String, Object> props = new HashMap<>();
                    for (Object k : Collections.list(d.keys())) {
                        props.put((String) k, d.get(k));
                    }
                    stored.add(props);
                    devices.add((String) props.get("name.template"));
                    yield null;
                }
                default -> throw new UnsupportedOperationException(m2.getName());
            });
            default -> throw new UnsupportedOperationException(m.getName());
        });
        IbRuntime runtime = proxy(IbRuntime.class, (p, m, a) -> switch (m.getName()) {
            case "getRuntimeDTO" -> {
                RuntimeDTO dto = new RuntimeDTO();
                dto.devices = devices.stream().map(n -> {
                    DeviceDTO d = new DeviceDTO();
                    d.name = n;
                    return d;
                }).toArray(DeviceDTO[]::new);
                yield dto;
            }
            default -> throw new UnsupportedOperationException(m.getName());
        });
        LinkConfigurations links = new LinkConfigurations(bc, cm, runtime);
        if (withLoader) {
            links.loader = proxy(DriverLoader.class, (p, m, a) -> {
                loaderCalls.add(m.getName() + " " + a[0]);
                String bsn = switch ((String) a[0]) {
                    case "rxe" -> "org.rdma.hca.rxe";
                    case "ibsim" -> "org.rdma.fabric.ibsim";
                    default -> throw new RdmaException(Errno.ENOENT, "no driver " + a[0]);
                };
                boolean load = m.getName().equals("load");
                boolean was = bundles.put(bsn, load ? Bundle.ACTIVE : Bundle.RESOLVED) == Bundle.ACTIVE;
                return load ? !was : null;
            });
        }
        return links;
    }

    @Test
    void linkAddLoadsTheDriverOfItsTypeAsRequestModuleDoes() throws Exception {
        links(true).add("rxe0", "type", "rxe", "netdev", "lo");
        assertEquals(List.of("load rxe"), loaderCalls);
        assertEquals(List.of(Map.of("name.template", "rxe0", "netdev", "lo")), stored);
        assertEquals(List.of("rxe0"), devices);
    }

    @Test
    void withoutLoaderOrDriverTheTypeIsNotSupported() {
        RdmaException noLoader = assertThrows(RdmaException.class, () -> links(false).add("rxe0", "type", "rxe"));
        assertEquals(Errno.EOPNOTSUPP, noLoader.errno());
        assertTrue(noLoader.getMessage().contains("rdma:driver-load rxe"), noLoader.getMessage());
        assertEquals(Errno.EOPNOTSUPP, assertThrows(RdmaException.class,
                () -> links(true).add("x0", "type", "nosuch")).errno());
        assertTrue(stored.isEmpty());
    }

    @Test
    void aDriverLoadedForATypeItDoesNotMakeIsUnloadedAgain() {
        RdmaException e = assertThrows(RdmaException.class, () -> links(true).add("x0", "type", "ibsim"));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals(List.of("load ibsim", "unload ibsim"), loaderCalls);
        assertEquals(Bundle.RESOLVED, bundles.get("org.rdma.fabric.ibsim"));
    }

    @Test
    void keysAreTheDriversAndUnderscoresStandForDots() throws Exception {
        links(true).add("rxe1", "type", "rxe", "netdev", "lo", "udp_port", "4792", "remote.udp.port", "4791",
                "bind_address", "127.0.0.1,::1");
        Map<String, Object> props = stored.get(0);
        assertEquals("4792", props.get("udp.port"));
        assertEquals("4791", props.get("remote.udp.port"));
        assertArrayEquals(new String[] {"127.0.0.1", "::1"}, (String[]) props.get("bind.address"));
        assertEquals(5, props.size(), props.toString());
    }

    @Test
    void unknownKeysAndBadValuesAreEinvalAndStoreNothing() {
        LinkConfigurations links = links(true);
        RdmaException unknown = assertThrows(RdmaException.class,
                () -> links.add("rxe1", "type", "rxe", "netdev", "lo", "udp_prot", "4792"));
        assertEquals(Errno.EINVAL, unknown.errno());
        assertTrue(unknown.getMessage().contains("unknown attribute 'udp_prot' for link type rxe (known: netdev, udp.port, "
                + "remote.udp.port, bind.address, poll.ms, rx.drop.probability, rx.drop.seed, send.queue;"),
                unknown.getMessage());
        for (String[] bad : new String[][] {{"name_template", "x%d"}, {"name.template", "x%d"}, {"udp_port", "70000"},
                {"udp_port", "0"}, {"udp_port", "47x"}, {"rx_drop_probability", "1.5"}, {"Netdev", "lo"}}) {
            assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                    () -> links.add("rxe1", "type", "rxe", bad[0], bad[1])).errno(), String.join(" ", bad));
        }
        assertTrue(stored.isEmpty(), "nothing is stored for a refused link");
    }
}
