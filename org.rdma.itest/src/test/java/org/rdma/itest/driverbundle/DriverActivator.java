package org.rdma.itest.driverbundle;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.rdma.itest.driver.DriverBundles;

/**
 * The activator of the driver bundles built at test time (see {@code DriverBundleIT}): this
 * class file is copied into each such bundle. Starting publishes the configured providers;
 * stopping leaves it to the framework to withdraw them, as it does for any driver bundle.
 */
public final class DriverActivator implements BundleActivator {
    @Override
    public void start(BundleContext context) {
        DriverBundles.start(context);
    }

    @Override
    public void stop(BundleContext context) {
        // The framework unregisters the provider services after this returns.
    }
}
