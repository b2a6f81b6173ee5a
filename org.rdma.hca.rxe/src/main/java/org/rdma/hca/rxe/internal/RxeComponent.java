package org.rdma.hca.rxe.internal;

import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rdma.rvt.RvtRegistration;
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

    private final RvtRegistration registration;

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
        RxeDevice device = new RxeDevice(RxeParams.of(config, clock));
        this.registration = RvtRegistration.register(context, device.provider(),
                Map.of("rxe.netdev", config.netdev(), "rxe.udp.port", config.udp_port(),
                        "rxe.node.guid", String.format("%016x", device.nodeGuid())),
                props, device::close);
    }

    @Deactivate
    void deactivate() {
        registration.close();
    }
}
