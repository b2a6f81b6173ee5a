package org.rdma.itest.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Dictionary;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.rdma.itest.driver.TestProvider;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The services one test registers, withdrawn in reverse order when the test ends (each
 * withdrawal bounded, so a core that never returns fails the test instead of hanging the run).
 * Also hands out names no other test uses.
 */
public final class Fixture implements AutoCloseable {
    private static final AtomicInteger SEQ = new AtomicInteger();

    private final BundleContext context;
    private final Deque<ServiceRegistration<?>> registrations = new ArrayDeque<>();
    private final String id;

    public Fixture(BundleContext context, String prefix) {
        this.context = context;
        this.id = prefix + SEQ.incrementAndGet();
    }

    /** This test's unique id, e.g. {@code ord7}: use it in driver ids and name templates. */
    public String id() {
        return id;
    }

    /** A driver id unique to this test. */
    public String driver() {
        return "itest-" + id;
    }

    /** A second driver id unique to this test. */
    public String driver(String suffix) {
        return "itest-" + id + "-" + suffix;
    }

    /** The name template {@code ID_%d}. */
    public String template() {
        return id + "_%d";
    }

    public BundleContext context() {
        return context;
    }

    /** Publishes {@code provider} as an {@link IbDeviceProvider} service. */
    public ServiceRegistration<IbDeviceProvider> provider(TestProvider provider) {
        return register(IbDeviceProvider.class, provider, null);
    }

    /** Publishes {@code client} as an {@link IbClient} service. */
    public ServiceRegistration<IbClient> client(IbClient client) {
        return register(IbClient.class, client, null);
    }

    /** Publishes a service and remembers it for {@link #close()}. */
    public <S> ServiceRegistration<S> register(Class<S> type, S service, Dictionary<String, ?> props) {
        // Not under the lock: registering may block in the core (a client's add) for a while.
        ServiceRegistration<S> r = context.registerService(type, service, props);
        synchronized (this) {
            registrations.push(r);
        }
        return r;
    }

    /** Withdraws a service now (on this thread) and forgets it. */
    public void unregister(ServiceRegistration<?> r) {
        synchronized (this) {
            registrations.remove(r);
        }
        r.unregister();
    }

    /** Forgets a registration the test withdraws itself (e.g. on another thread). */
    public synchronized void forget(ServiceRegistration<?> r) {
        registrations.remove(r);
    }

    /** The service id of a registration. */
    public static long serviceId(ServiceRegistration<?> r) {
        return (Long) r.getReference().getProperty(Constants.SERVICE_ID);
    }

    @Override
    public void close() {
        List<String> stuck = new ArrayList<>();
        while (true) {
            ServiceRegistration<?> r;
            synchronized (this) {
                r = registrations.poll();
            }
            if (r == null) {
                break;
            }
            CountDownLatch done = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try {
                    r.unregister();
                } catch (IllegalStateException alreadyGone) {
                    // withdrawn by the test or by a stopped bundle
                } finally {
                    done.countDown();
                }
            }, "itest-cleanup-" + id);
            t.setDaemon(true);
            t.start();
            try {
                if (!done.await(30, TimeUnit.SECONDS)) {
                    stuck.add(String.valueOf(r) + "\n" + Threads.stackOf(t));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stuck.add("interrupted");
            }
        }
        if (!stuck.isEmpty()) {
            fail("cleanup of " + id + ": unregistering did not return within 30 s: " + stuck);
        }
    }
}
