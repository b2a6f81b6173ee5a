package org.rdma.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

class BundleDriverLoaderTest {
    static final String FEATURES = """
            <features xmlns="http://karaf.apache.org/xmlns/features/v1.6.0">
              <feature name="rdma-core"><bundle>mvn:org.rdma/org.rdma.core/1</bundle></feature>
              <feature name="rdma-rvt"><feature>rdma-core</feature><bundle>mvn:org.rdma/org.rdma.rvt/1</bundle></feature>
              <feature name="rdma-fabric"><feature>rdma-core</feature><bundle>mvn:org.rdma/org.rdma.fabric/1</bundle></feature>
              <feature name="rdma-mlx4sim"><feature>rdma-rvt</feature><feature>rdma-fabric</feature>
                <bundle>mvn:org.rdma/org.rdma.hca.mlx4sim/1</bundle></feature>
              <feature name="rdma-rxe"><feature>rdma-rvt</feature><bundle>mvn:org.rdma/org.rdma.hca.rxe/1</bundle></feature>
              <feature name="rdma-missing"><bundle>mvn:org.rdma/org.rdma.missing/1</bundle></feature>
            </features>""";

    /**
     * A framework at start level 20 whose bundle start levels change asynchronously, as Felix's
     * start level thread does, and only once the caller waits: a loader that does not wait for
     * the bundle returns before it is active.
     */
    final class Framework {
        static final int LEVEL = 20;
        final Map<String, Fake> bundles = new LinkedHashMap<>();
        final List<BundleListener> listeners = new CopyOnWriteArrayList<>();
        final List<String> started = Collections.synchronizedList(new ArrayList<>());
        final ExecutorService startLevelThread = Executors.newSingleThreadExecutor();

        final class Fake {
            final String bsn;
            volatile int state = Bundle.RESOLVED;
            volatile int level;
            volatile boolean persistent = true; // the launcher starts every bundle
            final Bundle proxy;

            Fake(String bsn, int level, boolean active) {
                this.bsn = bsn;
                this.level = level;
                this.state = active ? Bundle.ACTIVE : Bundle.RESOLVED;
                this.proxy = (Bundle) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Bundle.class},
                        (p, m, a) -> switch (m.getName()) {
                            case "getSymbolicName", "toString" -> bsn;
                            case "getState" -> state;
                            case "start" -> {
                                persistent = true;
                                if (this.level <= LEVEL) {
                                    activate();
                                }
                                yield null;
                            }
                            case "stop" -> {
                                persistent = false;
                                state = Bundle.RESOLVED;
                                yield null;
                            }
                            case "adapt" -> startLevel();
                            case "equals" -> p == a[0];
                            case "hashCode" -> System.identityHashCode(p);
                            default -> throw new UnsupportedOperationException(m.getName());
                        });
            }

            void activate() {
                if (state != Bundle.ACTIVE) {
                    state = Bundle.ACTIVE;
                    started.add(bsn);
                    for (BundleListener l : listeners) {
                        l.bundleChanged(new BundleEvent(BundleEvent.STARTED, proxy));
                    }
                }
            }

            BundleStartLevel startLevel() {
                return (BundleStartLevel) Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {BundleStartLevel.class}, (p, m, a) -> switch (m.getName()) {
                            case "getStartLevel" -> level;
                            case "setStartLevel" -> {
                                Thread caller = Thread.currentThread();
                                startLevelThread.execute(() -> {
                                    awaitBlocked(caller);
                                    level = (Integer) a[0];
                                    if (persistent && level <= LEVEL) {
                                        activate();
                                    }
                                });
                                yield null;
                            }
                            default -> throw new UnsupportedOperationException(m.getName());
                        });
            }
        }

        Framework bundle(String bsn, int level, boolean active) {
            bundles.put(bsn, new Fake(bsn, level, active));
            return this;
        }

        Fake get(String bsn) {
            return bundles.get(bsn);
        }

        BundleContext context() {
            Bundle system = (Bundle) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Bundle.class},
                    (p, m, a) -> switch (m.getName()) {
                        case "adapt" -> Proxy.newProxyInstance(getClass().getClassLoader(),
                                new Class<?>[] {FrameworkStartLevel.class}, (p2, m2, a2) -> switch (m2.getName()) {
                                    case "getStartLevel" -> LEVEL;
                                    default -> throw new UnsupportedOperationException(m2.getName());
                                });
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
            return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {BundleContext.class},
                    (p, m, a) -> switch (m.getName()) {
                        case "getBundles" -> bundles.values().stream().map(f -> f.proxy).toArray(Bundle[]::new);
                        case "getBundle" -> system;
                        case "addBundleListener" -> listeners.add((BundleListener) a[0]);
                        case "removeBundleListener" -> listeners.remove((BundleListener) a[0]);
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
        }
    }

    /** Until {@code t} waits (bounded: a loader that never waits is caught by the assertions). */
    static void awaitBlocked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING
                && System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(100_000);
        }
    }

    final Framework fw = new Framework()
            .bundle("org.rdma.core", 10, true)
            .bundle("org.rdma.rvt", 10, true)
            .bundle("org.rdma.fabric", 10, true)
            .bundle("org.rdma.hca.mlx4sim", 10, true)
            .bundle("org.rdma.hca.rxe", 30, false);

    BundleDriverLoader loader() throws IOException {
        return new BundleDriverLoader(fw.context(), FeatureTableTest.of(FEATURES));
    }

    @AfterEach
    void stopThread() {
        fw.startLevelThread.shutdownNow();
    }

    @Test
    void driversAreTheFeaturesWhoseBundlesAreInstalled() throws IOException {
        BundleDriverLoader l = loader();
        assertEquals(List.of("fabric", "mlx4sim", "rvt", "rxe"), l.available());
        assertEquals(List.of("fabric", "mlx4sim", "rvt"), l.loaded());
        RdmaException e = assertThrows(RdmaException.class, () -> l.load("missing"));
        assertEquals(Errno.ENOENT, e.errno());
        assertTrue(e.getMessage().contains("available: fabric, mlx4sim, rvt, rxe"), e.getMessage());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> l.load("core")).errno());
    }

    @Test
    void loadingADriverAboveTheFrameworkLevelMovesItDownAndWaitsUntilItIsActive() throws IOException {
        BundleDriverLoader l = loader();
        assertTrue(l.load("rdma-rxe"));
        assertEquals(Bundle.ACTIVE, fw.get("org.rdma.hca.rxe").state, "load returned before the bundle was active");
        assertEquals(Framework.LEVEL, fw.get("org.rdma.hca.rxe").level);
        assertEquals(List.of("org.rdma.hca.rxe"), fw.started);
        assertTrue(fw.listeners.isEmpty(), "the bundle listener is removed");
        assertFalse(l.load("rxe"), "loading a loaded driver is a no-op, as for modprobe");
        assertTrue(l.loaded().contains("rxe"));
    }

    @Test
    void unloadStopsTheDriversOwnBundlesAndLoadStartsThemAgain() throws IOException {
        BundleDriverLoader l = loader();
        l.unload("mlx4sim");
        assertEquals(Bundle.RESOLVED, fw.get("org.rdma.hca.mlx4sim").state);
        assertFalse(fw.get("org.rdma.hca.mlx4sim").persistent, "a stopped driver does not come back at the next boot");
        assertEquals(Bundle.ACTIVE, fw.get("org.rdma.rvt").state, "its dependencies stay, as rmmod leaves them");
        assertEquals(Errno.ENOENT, assertThrows(RdmaException.class, () -> l.unload("mlx4sim")).errno());
        assertEquals(Errno.ENOENT, assertThrows(RdmaException.class, () -> l.unload("rxe")).errno());

        assertTrue(l.load("mlx4sim"));
        assertEquals(Bundle.ACTIVE, fw.get("org.rdma.hca.mlx4sim").state);
        assertEquals(List.of("org.rdma.hca.mlx4sim"), fw.started);
    }

    @Test
    void aDriverALoadedDriverNeedsIsBusyAndDependenciesLoadFirst() throws IOException {
        BundleDriverLoader l = loader();
        RdmaException busy = assertThrows(RdmaException.class, () -> l.unload("rvt"));
        assertEquals(Errno.EBUSY, busy.errno());
        assertTrue(busy.getMessage().contains("in use by: mlx4sim"), busy.getMessage());
        assertEquals(Bundle.ACTIVE, fw.get("org.rdma.rvt").state);

        l.unload("mlx4sim");
        l.unload("rvt");
        assertTrue(l.load("rxe"));
        assertEquals(List.of("org.rdma.rvt", "org.rdma.hca.rxe"), fw.started);
    }

    @Test
    void commandsPrintWhatKarafsPrint() throws IOException {
        BundleDriverLoader l = loader();
        assertEquals("rdma-rxe: loaded", DriverFunctions.load(l, List.of("rxe")));
        assertEquals("rdma-rxe: already loaded", DriverFunctions.load(l, List.of("rdma-rxe")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DriverFunctions.list(l, List.of(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("""
                fabric       loaded
                mlx4sim      loaded
                rvt          loaded
                rxe          loaded
                """, bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
        assertEquals("rdma-rxe: unloaded", DriverFunctions.unload(l, List.of("rxe")));
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> DriverFunctions.load(l, List.of())).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> DriverFunctions.list(l, List.of("x"), System.out)).errno());
    }
}
