package org.rdma.itest.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.osgi.framework.BundleContext;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The driver side of a driver bundle built at test time: its activator calls {@link #start},
 * which publishes, with the driver bundle's own context, one {@link TestProvider} per
 * configuration the test set up for that bundle's symbolic name. The framework withdraws the
 * services when the bundle stops, exactly as for a real driver bundle.
 */
public final class DriverBundles {
    private static final Map<String, List<Supplier<DeviceConfig>>> CONFIGS = new ConcurrentHashMap<>();
    private static final Map<String, List<TestProvider>> STARTED = new ConcurrentHashMap<>();

    private DriverBundles() {
    }

    /** Sets what the bundle {@code bsn} publishes each time it starts. */
    public static void configure(String bsn, List<Supplier<DeviceConfig>> configs) {
        CONFIGS.put(bsn, List.copyOf(configs));
        STARTED.put(bsn, new ArrayList<>());
    }

    /** Every provider the bundle {@code bsn} published so far, oldest first. */
    public static synchronized List<TestProvider> started(String bsn) {
        return new ArrayList<>(STARTED.getOrDefault(bsn, List.of()));
    }

    /** Forgets the bundle {@code bsn}. */
    public static void forget(String bsn) {
        CONFIGS.remove(bsn);
        STARTED.remove(bsn);
    }

    /** Called by the driver bundle's activator. */
    public static void start(BundleContext context) {
        String bsn = context.getBundle().getSymbolicName();
        List<Supplier<DeviceConfig>> configs = CONFIGS.get(bsn);
        if (configs == null) {
            throw new IllegalStateException("no configuration for driver bundle " + bsn);
        }
        for (Supplier<DeviceConfig> c : configs) {
            TestProvider p = new TestProvider(c.get());
            synchronized (DriverBundles.class) {
                STARTED.get(bsn).add(p);
            }
            context.registerService(IbDeviceProvider.class, p, null);
        }
    }
}
