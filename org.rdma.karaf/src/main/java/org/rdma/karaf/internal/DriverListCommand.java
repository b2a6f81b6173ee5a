package org.rdma.karaf.internal;

import java.util.List;
import java.util.Locale;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rdma.verbs.runtime.DriverLoader;

/**
 * {@code rdma:driver-list}: every driver the {@link DriverLoader} can load, one a line with
 * {@code loaded} or {@code available} ({@code lsmod} lists only the loaded ones; this also
 * shows what {@code rdma:driver-load} takes). The embedded runtime's command prints the same.
 */
@Service
@Command(scope = "rdma", name = "driver-list", description = "Lists the RDMA drivers and whether each is loaded (lsmod).")
public class DriverListCommand implements Action {
    @Reference
    DriverLoader drivers;

    @Override
    public Object execute() {
        List<String> loaded = drivers.loaded();
        for (String d : drivers.available()) {
            System.out.println(String.format(Locale.ROOT, "%-12s %s", d, loaded.contains(d) ? "loaded" : "available"));
        }
        return null;
    }
}
