package org.rdma.karaf.internal;

import java.util.List;
import java.util.function.Supplier;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rdma.verbs.runtime.DriverLoader;

/** Completes {@code rdma:driver-load NAME} with every driver the features repositories offer. */
@Service
public class AvailableDriverCompleter implements Completer {
    @Reference
    DriverLoader drivers;

    @Override
    public int complete(Session session, CommandLine line, List<String> candidates) {
        return complete(drivers::available, session, line, candidates);
    }

    /**
     * Completes a driver name from {@code names}; offers nothing when the loader fails (the
     * command itself then reports why).
     */
    static int complete(Supplier<List<String>> names, Session session, CommandLine line, List<String> candidates) {
        StringsCompleter strings = new StringsCompleter();
        try {
            strings.getStrings().addAll(names.get());
        } catch (RuntimeException e) {
            return -1;
        }
        return strings.complete(session, line, candidates);
    }
}
