package org.rdma.modules.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleException;
import org.osgi.framework.BundleListener;
import org.osgi.framework.Constants;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.rdma.modules.internal.FeatureTable.Driver;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DriverLoader;

/**
 * The embedded runtime's {@link DriverLoader}: a driver is the bundles of its Karaf feature
 * ({@link FeatureTable}), all of them in the runtime jar; loading it starts them with those of
 * the drivers it stands on, unloading it stops its own. Drivers not loaded at boot ({@code rxe},
 * {@code ibsim}) are installed at a start level above the framework's beginning level
 * ({@code cnf/runtime.bnd}), so the framework never starts them by itself; loading one first
 * moves it down to the framework's level, which the framework applies asynchronously, and then
 * waits for it to be active. As for {@code rmmod}, a driver that a loaded driver needs is
 * {@code EBUSY}. One load or unload at a time.
 */
@Component(service = DriverLoader.class)
public final class BundleDriverLoader implements DriverLoader {
    /** How long a bundle moved to the framework's start level may take to become active. */
    static final long START_TIMEOUT_SECONDS = 30;

    private final BundleContext bc;
    private final FeatureTable table;

    /** The loader of this runtime, with the features repository this bundle carries. */
    @Activate
    public BundleDriverLoader(BundleContext bc) throws IOException {
        this(bc, readTable(bc.getBundle().getEntry(FeatureTable.RESOURCE)));
    }

    BundleDriverLoader(BundleContext bc, FeatureTable table) {
        this.bc = bc;
        this.table = table;
    }

    private static FeatureTable readTable(URL url) throws IOException {
        if (url == null) {
            throw new IOException("the bundle lacks " + FeatureTable.RESOURCE);
        }
        try (InputStream in = url.openStream()) {
            return FeatureTable.read(in);
        }
    }

    @Override
    public List<String> available() {
        List<String> out = new ArrayList<>();
        for (Driver d : table.drivers().values()) {
            if (installed(d)) {
                out.add(d.name());
            }
        }
        return out;
    }

    @Override
    public List<String> loaded() {
        List<String> out = new ArrayList<>();
        for (Driver d : table.drivers().values()) {
            if (active(d)) {
                out.add(d.name());
            }
        }
        return out;
    }

    @Override
    public synchronized boolean load(String name) {
        Driver d = find(name);
        if (active(d)) {
            return false;
        }
        for (Driver x : table.closure(d.name())) {
            RdmaException.check(installed(x), Errno.ENOENT,
                    "driver " + d.name() + " needs " + x.name() + ", which this runtime does not have");
            for (String bsn : x.bundles()) {
                start(bundle(bsn));
            }
        }
        return true;
    }

    @Override
    public synchronized void unload(String name) {
        Driver d = find(name);
        RdmaException.check(active(d), Errno.ENOENT, "driver " + FEATURE_PREFIX + d.name() + " is not loaded");
        List<String> users = new ArrayList<>();
        for (String u : table.users(d.name())) {
            if (active(table.get(u))) {
                users.add(u);
            }
        }
        RdmaException.check(users.isEmpty(), Errno.EBUSY,
                "driver " + d.name() + " is in use by: " + String.join(", ", users));
        List<String> bundles = d.bundles();
        for (int i = bundles.size() - 1; i >= 0; i--) {
            Bundle b = bundle(bundles.get(i));
            try {
                b.stop();
            } catch (BundleException e) {
                throw new RdmaException(Errno.EIO, "cannot stop bundle " + b.getSymbolicName() + ": " + e.getMessage(), e);
            }
        }
    }

    private Driver find(String name) {
        String n = DriverLoader.driverName(name);
        Driver d = table.get(n);
        if (d == null || !installed(d)) {
            throw new RdmaException(Errno.ENOENT, "no driver " + n + " in this runtime (available: "
                    + String.join(", ", available()) + ")");
        }
        return d;
    }

    private void start(Bundle b) {
        if (b.getState() == Bundle.ACTIVE) {
            return;
        }
        BundleStartLevel level = b.adapt(BundleStartLevel.class);
        int frameworkLevel = bc.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkStartLevel.class).getStartLevel();
        CountDownLatch started = new CountDownLatch(1);
        BundleListener listener = e -> {
            if (e.getBundle().equals(b) && e.getType() == BundleEvent.STARTED) {
                started.countDown();
            }
        };
        bc.addBundleListener(listener);
        try {
            if (level.getStartLevel() > frameworkLevel) {
                level.setStartLevel(frameworkLevel);
            }
            // Starts it now when its level is applied already; otherwise marks it to be started
            // when the framework applies the level.
            b.start();
            if (b.getState() != Bundle.ACTIVE && !started.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new RdmaException(Errno.ETIMEDOUT, "bundle " + b.getSymbolicName() + " did not start within "
                        + START_TIMEOUT_SECONDS + " s of moving to start level " + frameworkLevel + " (state "
                        + b.getState() + ")");
            }
        } catch (BundleException e) {
            throw new RdmaException(Errno.EIO, "cannot start bundle " + b.getSymbolicName() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException(Errno.EINTR, "interrupted while starting bundle " + b.getSymbolicName());
        } finally {
            bc.removeBundleListener(listener);
        }
    }

    private boolean installed(Driver d) {
        for (String bsn : d.bundles()) {
            if (bundle(bsn) == null) {
                return false;
            }
        }
        return true;
    }

    private boolean active(Driver d) {
        for (String bsn : d.bundles()) {
            Bundle b = bundle(bsn);
            if (b == null || b.getState() != Bundle.ACTIVE) {
                return false;
            }
        }
        return true;
    }

    private Bundle bundle(String symbolicName) {
        for (Bundle b : bc.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                return b;
            }
        }
        return null;
    }
}
