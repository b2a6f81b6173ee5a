package org.rdma.runtime.itest.support;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;

/**
 * The bundles of the runtime under test (everything but the system bundle, the tests, the test
 * runner and fragments), stopped and started in the order the framework stops and starts them: all sit
 * at one start level, where Felix starts bundles by ascending and stops them by descending
 * bundle id, as {@code ./rdma}'s {@code stop 0} does to the same bundles.
 */
public final class Platform {
    private static final List<String> TEST_RUNNER = List.of("junit-", "org.junit.", "org.opentest4j",
            "org.osgi.test.", "biz.aQute.tester");

    private final List<Bundle> bundles;

    private Platform(List<Bundle> bundles) {
        this.bundles = bundles;
    }

    /** The runtime's bundles in {@code bc}'s framework, by bundle id. */
    public static Platform of(BundleContext bc) {
        List<Bundle> l = new ArrayList<>();
        for (Bundle b : bc.getBundles()) {
            if (b.getBundleId() != 0 && b != bc.getBundle() && !isTestRunner(b.getSymbolicName())
                    && b.getHeaders().get("Fragment-Host") == null) {
                l.add(b);
            }
        }
        l.sort(Comparator.comparingLong(Bundle::getBundleId));
        return new Platform(l);
    }

    private static boolean isTestRunner(String bsn) {
        return bsn == null || TEST_RUNNER.stream().anyMatch(bsn::startsWith);
    }

    /** Stops every bundle, highest id first. */
    public void stop() throws BundleException {
        for (int i = bundles.size() - 1; i >= 0; i--) {
            bundles.get(i).stop();
        }
    }

    /** Starts every bundle, lowest id first. */
    public void start() throws BundleException {
        for (Bundle b : bundles) {
            b.start();
        }
    }
}
