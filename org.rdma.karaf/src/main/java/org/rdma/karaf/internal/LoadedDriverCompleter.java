package org.rdma.karaf.internal;

import java.util.List;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;
import org.rdma.verbs.runtime.DriverLoader;

/** Completes {@code rdma:driver-unload NAME} with the drivers that are loaded. */
@Service
public class LoadedDriverCompleter implements Completer {
    @Reference
    DriverLoader drivers;

    @Override
    public int complete(Session session, CommandLine line, List<String> candidates) {
        return AvailableDriverCompleter.complete(drivers::loaded, session, line, candidates);
    }
}
