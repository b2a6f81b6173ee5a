package org.rdma.karaf.internal;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rdma.verbs.runtime.DriverLoader;

/**
 * {@code rdma:driver-unload NAME}: unloads a driver the way {@code rmmod NAME} unloads a
 * module, through the {@link DriverLoader} ({@link FeatureDriverLoader}: uninstalls the Karaf
 * feature {@code rdma-NAME}). Its devices unregister as the bundle stops (clients are removed
 * first, open resources destroyed). A driver that is not loaded fails with {@code ENOENT}.
 * Prints {@code rdma-NAME: unloaded}.
 */
@Service
@Command(scope = "rdma", name = "driver-unload",
        description = "Unloads an RDMA driver (rmmod): uninstalls the Karaf feature rdma-NAME.")
public class DriverUnloadCommand implements Action {
    @Reference
    DriverLoader drivers;

    @Argument(index = 0, name = "name", required = true,
            description = "A loaded driver, e.g. fabric (the feature rdma-NAME).")
    @Completion(LoadedDriverCompleter.class)
    String name;

    @Override
    public Object execute() {
        String driver = DriverLoader.driverName(name);
        drivers.unload(driver);
        System.out.println(DriverLoader.FEATURE_PREFIX + driver + ": unloaded");
        return null;
    }
}
