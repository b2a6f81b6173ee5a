package org.rdma.karaf.internal;

import java.util.List;
import org.apache.karaf.features.FeaturesService;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;

/** Completes {@code rdma:driver-load NAME} with every driver the features repositories offer. */
@Service
public class AvailableDriverCompleter implements Completer {
    @Reference
    FeaturesService features;

    @Override
    public int complete(Session session, CommandLine line, List<String> candidates) {
        return DriverFeatures.complete(() -> new DriverFeatures(features).available(), session, line, candidates);
    }
}
