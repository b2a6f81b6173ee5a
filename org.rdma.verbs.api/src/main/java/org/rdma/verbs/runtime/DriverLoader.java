package org.rdma.verbs.runtime;

import java.util.List;
import java.util.regex.Pattern;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * Loads and unloads drivers (and the other platform modules: {@code rvt}, {@code mad},
 * {@code cm}, ...) by name, as the kernel's {@code request_module()} and the module tools
 * {@code modprobe} and {@code rmmod} do. Driver {@code NAME} is the Karaf feature
 * {@code rdma-NAME} of the platform's features repository; how it is loaded depends on the
 * runtime (Karaf installs the feature, the embedded runtime starts its bundles), so a
 * runtime publishes at most one loader. {@code core} is not a driver: it carries the loader.
 *
 * <p>Errors are {@link org.rdma.verbs.RdmaException}s: {@code EINVAL} for a malformed name or
 * {@code core}, {@code ENOENT} for a driver this runtime does not have (modprobe's "Module not
 * found") or, on unload, one that is not loaded (rmmod's "not currently loaded").
 */
@ProviderType
public interface DriverLoader {
    /** Prefix of the platform's features: driver {@code NAME} is feature {@code rdma-NAME}. */
    String FEATURE_PREFIX = "rdma-";
    /** The module that carries the loader itself; never loaded or unloaded. */
    String CORE = "core";

    /**
     * The canonical name of a driver, as every loader and command spells it.
     *
     * @param name a driver name such as {@code rxe}, or its feature name {@code rdma-rxe};
     *             surrounding blanks are ignored
     * @return the driver name without the prefix
     * @throws RdmaException {@code EINVAL} for an empty or malformed name, or for {@code core}
     */
    static String driverName(String name) {
        String n = name == null ? "" : name.strip();
        if (n.startsWith(FEATURE_PREFIX)) {
            n = n.substring(FEATURE_PREFIX.length());
        }
        RdmaException.check(Pattern.matches("[a-z0-9][a-z0-9_.-]*", n), Errno.EINVAL, "bad driver name '" + name + "'");
        RdmaException.check(!n.equals(CORE), Errno.EINVAL, FEATURE_PREFIX + CORE + " is not a driver: it carries the loader");
        return n;
    }

    /** @return the names of the drivers this runtime can load, sorted */
    List<String> available();

    /** @return the names of the drivers that are loaded, sorted */
    List<String> loaded();

    /**
     * Loads a driver and what it depends on ({@code modprobe NAME}; the kernel's
     * {@code request_module()}, which {@code rdma link add} calls for an unknown link type).
     * Returns once the driver's bundles are active.
     *
     * @param name the driver name, e.g. {@code rxe}; {@code rdma-rxe} is accepted as well
     * @return whether it was loaded now; {@code false} if it was loaded already (not an error,
     *         as for modprobe)
     * @throws org.rdma.verbs.RdmaException {@code ENOENT}, {@code EINVAL}, or {@code EIO} when
     *                                      the runtime fails to load it
     */
    boolean load(String name);

    /**
     * Unloads a driver ({@code rmmod NAME}; the kernel's {@code delete_module()}): its devices
     * unregister as its bundles stop.
     *
     * @param name the driver name
     * @throws org.rdma.verbs.RdmaException {@code ENOENT} if it is not loaded, {@code EINVAL},
     *                                      {@code EBUSY} if a loaded driver depends on it
     *                                      (where the runtime tracks that), or {@code EIO}
     */
    void unload(String name);
}
