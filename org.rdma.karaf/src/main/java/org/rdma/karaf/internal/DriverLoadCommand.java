package org.rdma.karaf.internal;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rdma.verbs.runtime.DriverLoader;

/**
 * {@code rdma:driver-load NAME}: loads a driver the way {@code modprobe NAME} loads a module,
 * through the {@link DriverLoader} ({@link FeatureDriverLoader}: installs the Karaf feature
 * {@code rdma-NAME} and what it depends on). Loading a loaded driver does nothing; an unknown
 * one fails with {@code ENOENT}. Prints {@code rdma-NAME: loaded} or {@code rdma-NAME: already
 * loaded}, as the embedded runtime's command does.
 */
@Service
@Command(scope = "rdma", name = "driver-load",
        description = "Loads an RDMA driver (modprobe): installs the Karaf feature rdma-NAME.")
public class DriverLoadCommand implements Action {
    @Reference
    DriverLoader drivers;

    @Argument(index = 0, name = "name", required = true,
            description = "The driver, e.g. fabric, rvt, mlx4sim or rxe (the feature rdma-NAME).")
    @Completion(AvailableDriverCompleter.class)
    String name;

    @Override
    public Object execute() {
        String driver = DriverLoader.driverName(name);
        boolean now = drivers.load(driver);
        System.out.println(DriverLoader.FEATURE_PREFIX + driver + (now ? ": loaded" : ": already loaded"));
        return null;
    }
}
