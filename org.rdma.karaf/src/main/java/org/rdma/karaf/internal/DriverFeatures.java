package org.rdma.karaf.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.karaf.features.Feature;
import org.apache.karaf.features.FeaturesService;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Session;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * Drivers as Karaf features: driver {@code NAME} is the feature {@code rdma-NAME} of the
 * platform's features repository (karaf-features), so loading a driver is installing its
 * feature and unloading it is uninstalling it, the way {@code modprobe} and {@code rmmod} load
 * and unload a kernel module with its dependencies. {@code rdma-core} is not a driver: the
 * commands themselves live in it.
 *
 * <p>The work is done by Karaf's {@link FeaturesService}; this class maps names and turns
 * the cases the kernel tools report into errno-named failures: an unknown driver is
 * {@code ENOENT} (modprobe: "Module not found"), unloading one that is not loaded is
 * {@code ENOENT} (rmmod: "not currently loaded"), a malformed name or {@code core} is
 * {@code EINVAL}.
 */
final class DriverFeatures {
    /** Prefix of every platform feature. */
    static final String PREFIX = "rdma-";
    /** The feature that carries the core and these commands; never loaded or unloaded here. */
    static final String CORE = "core";

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_.-]*");

    private final FeaturesService features;

    DriverFeatures(FeaturesService features) {
        this.features = features;
    }

    /**
     * The feature of a driver.
     *
     * @param driver a driver name such as {@code fabric} or {@code mlx4sim}; the feature name
     *               {@code rdma-fabric} is accepted as well
     * @return the feature name, {@code rdma-NAME}
     * @throws RdmaException {@code EINVAL} for an empty or malformed name, or for {@code core}
     */
    static String featureName(String driver) {
        String name = driver == null ? "" : driver.strip();
        if (name.startsWith(PREFIX)) {
            name = name.substring(PREFIX.length());
        }
        if (!NAME.matcher(name).matches()) {
            throw new RdmaException(Errno.EINVAL, "bad driver name '" + driver + "'");
        }
        if (name.equals(CORE)) {
            throw new RdmaException(Errno.EINVAL, "rdma-core is not a driver: it carries these commands");
        }
        return PREFIX + name;
    }

    /** @return the driver names the features repositories offer, sorted */
    List<String> available() throws Exception {
        return names(false);
    }

    /** @return the driver names whose feature is installed, sorted */
    List<String> loaded() throws Exception {
        return names(true);
    }

    private List<String> names(boolean installedOnly) throws Exception {
        TreeSet<String> names = new TreeSet<>();
        for (Feature f : features.listFeatures()) {
            String n = f.getName();
            if (n.startsWith(PREFIX) && !n.equals(PREFIX + CORE) && !f.isHidden()
                    && (!installedOnly || features.isInstalled(f))) {
                names.add(n.substring(PREFIX.length()));
            }
        }
        return new ArrayList<>(names);
    }

    /**
     * Loads a driver: installs {@code rdma-NAME} with what it needs.
     *
     * @param driver the driver name
     * @return the installed feature, or {@code null} if it was loaded already (not an error,
     *         as for modprobe)
     * @throws RdmaException {@code ENOENT} if no repository has the feature
     * @throws Exception     what the FeaturesService reports (resolution failures)
     */
    Feature load(String driver) throws Exception {
        Feature f = find(driver);
        if (features.isInstalled(f)) {
            return null;
        }
        features.installFeature(f.getName(), f.getVersion());
        return f;
    }

    /**
     * Unloads a driver: uninstalls {@code rdma-NAME}; bundles nothing else needs go with it.
     *
     * @param driver the driver name
     * @return the uninstalled feature
     * @throws RdmaException {@code ENOENT} if the driver is not loaded
     * @throws Exception     what the FeaturesService reports
     */
    Feature unload(String driver) throws Exception {
        Feature f = find(driver);
        if (!features.isInstalled(f)) {
            throw new RdmaException(Errno.ENOENT, "driver " + f.getName() + " is not loaded");
        }
        features.uninstallFeature(f.getName(), f.getVersion());
        return f;
    }

    private Feature find(String driver) throws Exception {
        String name = featureName(driver);
        Feature f = features.getFeature(name);
        if (f == null) {
            throw new RdmaException(Errno.ENOENT, "no driver " + driver + ": no feature " + name
                    + " in the features repositories (available: " + String.join(", ", available()) + ")");
        }
        return f;
    }

    /** Source of completion candidates. */
    interface Names {
        /** @return the names to offer */
        List<String> get() throws Exception;
    }

    /**
     * Completes a driver name from {@code names}; offers nothing when the repositories cannot
     * be read (the command itself then reports why).
     */
    static int complete(Names names, Session session, CommandLine line, List<String> candidates) {
        StringsCompleter strings = new StringsCompleter();
        try {
            strings.getStrings().addAll(names.get());
        } catch (Exception e) {
            return -1;
        }
        return strings.complete(session, line, candidates);
    }
}
