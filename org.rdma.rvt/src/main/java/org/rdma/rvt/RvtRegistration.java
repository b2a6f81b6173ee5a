package org.rdma.rvt;

import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * A driver's device published as the {@link IbDeviceProvider} service, the driver half of
 * {@code ib_register_device()}/{@code ib_unregister_device()}: {@link #close()} withdraws the
 * service first, so the core removes the device from its clients and destroys what is left
 * while the device still works, and only then lets the driver release the device's resources
 * (sockets, fabric ports, threads).
 */
public final class RvtRegistration implements AutoCloseable {
    /** Service property: the factory configuration PID a device was made from. */
    public static final String CONFIG_PID = "rdma.config.pid";

    private final ServiceRegistration<IbDeviceProvider> registration;
    private final Runnable release;

    private RvtRegistration(ServiceRegistration<IbDeviceProvider> registration, Runnable release) {
        this.registration = registration;
        this.release = release;
    }

    /**
     * Registers {@code device} with the service properties {@code properties} (plus
     * {@link #CONFIG_PID} from {@code config} when it carries a {@code service.pid}); if the
     * registration fails, runs {@code release} and rethrows.
     */
    public static RvtRegistration register(BundleContext context, RvtDevice device, Map<String, ?> properties,
            Map<String, ?> config, Runnable release) {
        Hashtable<String, Object> sp = new Hashtable<>(properties);
        Object pid = config.get(Constants.SERVICE_PID);
        if (pid != null) {
            sp.put(CONFIG_PID, pid);
        }
        try {
            return new RvtRegistration(context.registerService(IbDeviceProvider.class, device, sp), release);
        } catch (RuntimeException e) {
            release.run();
            throw e;
        }
    }

    /** Withdraws the service (the core unregisters the device), then releases the device. */
    @Override
    public void close() {
        try {
            registration.unregister();
        } catch (IllegalStateException alreadyGone) {
            // The bundle is stopping and the framework withdrew the service already.
        }
        release.run();
    }
}
