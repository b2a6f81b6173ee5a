package org.rdma.karaf.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.karaf.features.Feature;
import org.apache.karaf.features.FeaturesService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DriverLoader;

/**
 * Karaf's {@link DriverLoader}: driver {@code NAME} is the feature {@code rdma-NAME} of the
 * platform's features repository (karaf-features), so loading a driver is installing its
 * feature and unloading it is uninstalling it, the way {@code modprobe} and {@code rmmod} load
 * and unload a kernel module with its dependencies. Karaf's {@link FeaturesService} does the
 * work; this maps names and turns the cases the kernel tools report into errno-named failures
 * (an unknown driver or unloading one that is not loaded: {@code ENOENT}; what the
 * FeaturesService reports, such as a resolution failure: {@code EIO}).
 */
@Component(service = DriverLoader.class)
public final class FeatureDriverLoader implements DriverLoader {
    private final FeaturesService features;

    /** A loader over Karaf's {@code features}. */
    @Activate
    public FeatureDriverLoader(@Reference FeaturesService features) {
        this.features = features;
    }

    @Override
    public List<String> available() {
        return names(false);
    }

    @Override
    public List<String> loaded() {
        return names(true);
    }

    private List<String> names(boolean installedOnly) {
        TreeSet<String> names = new TreeSet<>();
        for (Feature f : call(features::listFeatures)) {
            String n = f.getName();
            if (n.startsWith(FEATURE_PREFIX) && !n.equals(FEATURE_PREFIX + CORE) && !f.isHidden()
                    && (!installedOnly || features.isInstalled(f))) {
                names.add(n.substring(FEATURE_PREFIX.length()));
            }
        }
        return new ArrayList<>(names);
    }

    @Override
    public boolean load(String name) {
        Feature f = find(name);
        if (features.isInstalled(f)) {
            return false;
        }
        call(() -> {
            features.installFeature(f.getName(), f.getVersion());
            return null;
        });
        return true;
    }

    @Override
    public void unload(String name) {
        Feature f = find(name);
        if (!features.isInstalled(f)) {
            throw new RdmaException(Errno.ENOENT, "driver " + f.getName() + " is not loaded");
        }
        call(() -> {
            features.uninstallFeature(f.getName(), f.getVersion());
            return null;
        });
    }

    private Feature find(String name) {
        String feature = FEATURE_PREFIX + DriverLoader.driverName(name);
        Feature f = call(() -> features.getFeature(feature));
        if (f == null) {
            throw new RdmaException(Errno.ENOENT, "no driver " + name.strip() + ": no feature " + feature
                    + " in the features repositories (available: " + String.join(", ", available()) + ")");
        }
        return f;
    }

    /** A FeaturesService call. */
    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T call(Call<T> c) {
        try {
            return c.run();
        } catch (RdmaException e) {
            throw e;
        } catch (Exception e) {
            throw new RdmaException(Errno.EIO, String.valueOf(e.getMessage()), e);
        }
    }
}
