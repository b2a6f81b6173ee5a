package org.rdma.hca.rxe.internal;

import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rdma.verbs.spi.IbDeviceProvider;
import org.rdma.verbs.time.IbClock;

/**
 * One Soft-RoCE device per factory configuration of {@value #PID} ({@code rdma link add NAME type
 * rxe netdev IF}): opens the sockets and publishes the device as an {@link IbDeviceProvider}.
 * Deleting the configuration or stopping the bundle unregisters the service first (the core
 * removes the device from its clients and destroys what is left, as {@code rdma link delete})
 * and then closes the device: the poll timer is cancelled, the send queue flushed, every socket
 * closed and both device threads ended.
 */
@Component(configurationPid = RxeComponent.PID, configurationPolicy = ConfigurationPolicy.REQUIRE, service = {})
@Designate(ocd = RxeConfig.class, factory = true)
public final class RxeComponent {
    /** The factory PID. */
    public static final String PID = "org.rdma.hca.rxe";

    private final RxeDevice device;
    private final ServiceRegistration<IbDeviceProvider> registration;

    /**
     * Builds the device and registers the provider.
     *
     * @param context the bundle context
     * @param clock   the platform clock
     * @param config  the configuration
     * @param props   the configuration properties
     */
    @Activate
    public RxeComponent(BundleContext context, @Reference(name = "clock") IbClock clock, RxeConfig config,
                        Map<String, Object> props) {
        this.device = new RxeDevice(RxeParams.of(config, clock));
        Hashtable<String, Object> sp = new Hashtable<>();
        sp.put("rxe.netdev", config.netdev());
        sp.put("rxe.udp.port", config.udp_port());
        sp.put("rxe.node.guid", String.format("%016x", device.nodeGuid()));
        Object pid = props.get(Constants.SERVICE_PID);
        if (pid != null) {
            sp.put("rxe.config.pid", pid);
        }
        ServiceRegistration<IbDeviceProvider> reg;
        try {
            reg = context.registerService(IbDeviceProvider.class, device.provider(), sp);
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
        this.registration = reg;
    }

    @Deactivate
    void deactivate() {
        try {
            registration.unregister();
        } catch (IllegalStateException alreadyGone) {
            // the bundle is stopping
        }
        device.close();
    }
}
