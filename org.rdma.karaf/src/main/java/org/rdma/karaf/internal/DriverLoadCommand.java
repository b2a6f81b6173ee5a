package org.rdma.karaf.internal;

import org.apache.karaf.features.Feature;
import org.apache.karaf.features.FeaturesService;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;

/**
 * {@code rdma:driver-load NAME}: loads a driver the way {@code modprobe NAME} loads a module,
 * by installing the Karaf feature {@code rdma-NAME} and what it depends on. Loading a loaded
 * driver does nothing; an unknown one fails with {@code ENOENT}.
 */
@Service
@Command(scope = "rdma", name = "driver-load",
        description = "Loads an RDMA driver (modprobe): installs the Karaf feature rdma-NAME.")
public class DriverLoadCommand implements Action {
    @Reference
    FeaturesService features;

    @Argument(index = 0, name = "name", required = true,
            description = "The driver, e.g. fabric, rvt or mlx4sim (the feature rdma-NAME).")
    @Completion(AvailableDriverCompleter.class)
    String name;

    @Override
    public Object execute() throws Exception {
        Feature f = new DriverFeatures(features).load(name);
        String feature = DriverFeatures.featureName(name);
        System.out.println(f == null ? feature + ": already loaded" : feature + " " + f.getVersion() + ": loaded");
        return null;
    }
}
