package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.fabric.ibsim.FakeIbsim;
import org.rdma.fabric.ibsim.IbsimAttachment;
import org.rdma.fabric.ibsim.IbsimAttachments;
import org.rdma.fabric.ibsim.SimCtl;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.wire.NodeInfo;

/** The Config Admin component: configuration checks, attach and publish, detach on deactivation. */
class IbsimComponentTest {

    /** A configuration: the given values, the Metatype defaults for the rest. */
    static IbsimConfig config(Map<String, Object> values) {
        return (IbsimConfig) Proxy.newProxyInstance(IbsimConfig.class.getClassLoader(), new Class<?>[] {IbsimConfig.class},
                (proxy, m, args) -> values.containsKey(m.getName()) ? values.get(m.getName()) : m.getDefaultValue());
    }

    @Test
    void optionsComeFromTheConfigurationAndBadValuesAreEinval() {
        IbsimAttachments.Options o = IbsimComponent.options(config(Map.of()));
        assertEquals("127.0.0.1", o.server().getAddress().getHostAddress());
        assertEquals(7070, o.server().getPort());
        assertEquals("", o.nodeId());
        assertTrue(o.receiveRequests());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> IbsimComponent.options(config(Map.of("server_host", "ibsim.invalid")))).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> IbsimComponent.options(config(Map.of("server_port", 65530)))).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> IbsimComponent.options(config(Map.of("poll_interval_ms", 0L)))).errno());
    }

    @Test
    void aDeviceThatIsNotOnTheFabricIsEnodev() {
        try (JavaHost host = new JavaHost("java", GatewayTest.GUID)) {
            Fabric other = Fabrics.create("other", Topology.builder().build(), host.clock, 1);
            RdmaException e = assertThrows(RdmaException.class,
                    () -> new IbsimComponent(null, other, host.dev, config(Map.of())));
            assertEquals(Errno.ENODEV, e.errno());
            other.close();
        }
    }

    @Test
    void attachesPublishesAndDetaches() throws Exception {
        try (FakeIbsim sim = new FakeIbsim(); JavaHost host = new JavaHost("java", GatewayTest.GUID)) {
            sim.nodeId = "java";
            NodeInfo ni = new NodeInfo();
            ni.nodeType = NodeInfo.NODE_TYPE_CA;
            ni.nodeGuid = GatewayTest.GUID;
            sim.nodeInfo = ni;
            sim.portInfo = GatewayTest.portInfo(org.rdma.verbs.wire.PortInfo.PORT_STATE_INIT, 0, 0);
            Map<String, Object> registered = new HashMap<>();
            AtomicBoolean unregistered = new AtomicBoolean();
            BundleContext ctx = (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {BundleContext.class}, (p, m, args) -> {
                        if (!m.getName().equals("registerService")) {
                            throw new UnsupportedOperationException(m.getName());
                        }
                        registered.put("service", args[1]);
                        Dictionary<?, ?> d = (Dictionary<?, ?>) args[2];
                        for (Object k : java.util.Collections.list(d.keys())) {
                            registered.put((String) k, d.get(k));
                        }
                        return Proxy.newProxyInstance(getClass().getClassLoader(),
                                new Class<?>[] {ServiceRegistration.class}, (q, n, a) -> {
                                    if (n.getName().equals("unregister")) {
                                        unregistered.set(true);
                                    }
                                    return null;
                                });
                    });
            IbsimComponent c = new IbsimComponent(ctx, host.fabric, host.dev, config(Map.of(
                    "server_host", "127.0.0.1", "server_port", sim.address().getPort(), "node", "java")));
            IbsimAttachment att = (IbsimAttachment) registered.get("service");
            assertNotNull(att);
            assertSame(host.port(), att.localPort());
            assertEquals("java", registered.get(IbsimComponent.NODE));
            assertEquals(sim.nextClient, registered.get(IbsimComponent.CLIENT_ID));
            assertEquals("mlx4_0", registered.get(IbRuntime.DEVICE_NAME));
            assertEquals(1, registered.get(IbsimComponent.PORT));
            assertEquals("java", registered.get(Fabric.FABRIC_NAME));

            c.deactivate();
            assertTrue(unregistered.get());
            assertNotNull(sim.awaitCtl(SimCtl.SIM_CTL_DISCONNECT, 2000));
            assertEquals(null, host.port().link());
        }
    }
}
