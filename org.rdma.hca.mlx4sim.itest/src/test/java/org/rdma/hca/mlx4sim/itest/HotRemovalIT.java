package org.rdma.hca.mlx4sim.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.hca.mlx4sim.itest.support.Disassociator;
import org.rdma.hca.mlx4sim.itest.support.Endpoint;
import org.rdma.hca.mlx4sim.itest.support.Poll;
import org.rdma.hca.mlx4sim.itest.support.Side;
import org.rdma.hca.mlx4sim.itest.support.Threads;
import org.rdma.hca.mlx4sim.itest.support.UlpClient;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.ResourceDTO;

/**
 * Issue 3, acceptance test 2: hot removal of a simulated ConnectX-3 in a real framework.
 *
 * <p>A fabric ({@code org.rdma.fabric}: a switch and the Ethernet segment the RoCE ports are
 * cabled to) and two HCAs ({@code org.rdma.hca.mlx4sim}, one RoCEv2 port each, so no SM is
 * needed) are factory configurations made through Config Admin. Two RC connections A&lt;-&gt;B
 * carry RDMA WRITEs and SENDs (receives posted) in both directions from a traffic thread, in real
 * time: one connection belongs to {@link UlpClient}, a client that cleans up in {@code remove()};
 * the other the test makes on the {@code IbDevice} services directly and leaves behind on purpose
 * on A, so the core must destroy it. Deleting HCA A's configuration during the traffic must:
 * <ul>
 * <li>complete every request and receive posted on A's QPs — counted one by one — with SUCCESS
 * (before the removal) or WR_FLUSH_ERR, none lost, none twice;</li>
 * <li>call the client's {@code remove} for A, while the test's leftovers still exist and the
 * client's own objects are already gone;</li>
 * <li>leave zero tracked resources on A (read from {@link IbRuntime} at the moment its
 * {@code IbDevice} service is withdrawn), then A gone from the runtime's devices and services;</li>
 * <li>leave no thread named after A (its {@code rdma-softirq/A/0} poller included);</li>
 * <li>make B's QPs fail cleanly: B's requests to the vanished peer end with exactly one
 * RETRY_EXC_ERR per QP (retry_cnt 3, local ACK timeout 67 ms, in real time), everything after
 * with WR_FLUSH_ERR, the QP in ERR, none lost.</li>
 * </ul>
 * Adding and deleting A's configuration five times leaks no thread, service or resource.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class HotRemovalIT {
    static final String FABRIC_PID = "org.rdma.fabric";
    static final String MLX4_PID = "org.rdma.hca.mlx4sim";
    static final String IP_A = "192.168.60.1";
    static final String IP_B = "192.168.60.2";
    static final String LEFTOVER = "itest-leftover";
    /** Local ACK timeout 4.096 us * 2^14 = 67 ms: real time, and loaded machines. */
    static final int TIMEOUT = 14;
    static final int RETRY_CNT = 3;
    static final Duration PEER_FAILS_WITHIN = Duration.ofSeconds(20);
    private static final AtomicInteger SEQ = new AtomicInteger();

    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    ConfigurationAdmin cm;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private String id;
    private String fabricName;
    private Configuration fabricConfig;
    private Configuration configA;
    private Configuration configB;
    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();
    private final List<Side> leftoverB = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        id = "hr" + SEQ.incrementAndGet();
        fabricName = id + "-fabric";
        fabricConfig = cm.createFactoryConfiguration(FABRIC_PID, "?");
        Hashtable<String, Object> p = new Hashtable<>();
        p.put("fabric.name", fabricName);
        p.put("topology", "Switch 8 \"" + id + "-sw\"\n");
        p.put("seed", 7L);
        fabricConfig.update(p);
        Poll.until("the fabric " + fabricName + " is registered", () -> services("org.rdma.fabric.Fabric",
                "(fabric.name=" + fabricName + ")") == 1, () -> "no Fabric service");
        configB = hca("b", IP_B, "0002c903000b0001");
    }

    @AfterEach
    void tearDown() throws Exception {
        List<String> problems = new ArrayList<>();
        for (Side s : leftoverB) {
            try {
                s.destroy();
            } catch (RuntimeException e) {
                problems.add("destroying the test's objects on B: " + e);
            }
        }
        for (ServiceRegistration<?> r : registrations) {
            try {
                r.unregister();
            } catch (IllegalStateException gone) {
                // already withdrawn
            }
        }
        for (Configuration c : new Configuration[] {configA, configB, fabricConfig}) {
            if (c != null) {
                try {
                    c.delete();
                } catch (IllegalStateException gone) {
                    // deleted by the test
                }
            }
        }
        Poll.until("every device of " + id + " is gone", () -> devices(id).isEmpty(), () -> devices(id));
        Poll.until("no thread of " + id + " is left", () -> Threads.named(id).isEmpty(), () -> Threads.named(id));
        assertEquals(List.of(), problems);
    }

    // ================================================================== configuration

    /** A factory configuration of one mlx4sim HCA with a RoCE port on the fabric's segment. */
    private Configuration hca(String which, String ip, String guid) throws Exception {
        Configuration c = cm.createFactoryConfiguration(MLX4_PID, "?");
        c.update(hcaProps(which, ip, guid));
        String dev = deviceName(which);
        Poll.until("IbDevice " + dev + " is registered", () -> device(dev) != null,
                () -> "devices " + devices(id) + ", failed " + failures());
        return c;
    }

    private Dictionary<String, Object> hcaProps(String which, String ip, String guid) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put("name.template", id + which + "_%d");
        p.put("hostname", id + which);
        p.put("fabric.target", "(fabric.name=" + fabricName + ")");
        p.put("ports", 1);
        p.put("link.layer", new String[] {"eth"});
        p.put("ethernet.segment", id + "-br");
        p.put("netdev", new String[] {id + which + "0"});
        p.put("ip.addresses", new String[] {"1:" + ip});
        p.put("node.guid", guid);
        p.put("ca.name", id + "-" + which);
        return p;
    }

    private String deviceName(String which) {
        return id + which + "_0";
    }

    private int services(String clazz, String filter) {
        try {
            ServiceReference<?>[] refs = bc.getServiceReferences(clazz, filter);
            return refs == null ? 0 : refs.length;
        } catch (InvalidSyntaxException e) {
            throw new IllegalArgumentException(filter, e);
        }
    }

    /** The registered IbDevice service named {@code name}, or null. */
    private IbDevice device(String name) {
        try {
            var refs = bc.getServiceReferences(IbDevice.class, "(" + IbRuntime.DEVICE_NAME + "=" + name + ")");
            return refs.isEmpty() ? null : bc.getService(refs.iterator().next());
        } catch (InvalidSyntaxException e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    /** Names of this test's devices in the runtime DTO. */
    private List<String> devices(String prefix) {
        List<String> l = new ArrayList<>();
        var dto = runtime.getRuntimeDTO();
        if (dto.devices != null) {
            for (var d : dto.devices) {
                if (d.name.startsWith(prefix)) {
                    l.add(d.name + "=" + d.state);
                }
            }
        }
        return l;
    }

    private String failures() {
        StringBuilder sb = new StringBuilder();
        var dto = runtime.getRuntimeDTO();
        if (dto.failedProviders != null) {
            for (var f : dto.failedProviders) {
                sb.append(f.name).append(':').append(f.message).append("; ");
            }
        }
        return sb.toString();
    }

    // ================================================================== traffic

    /** Keeps every endpoint topped up until stopped; records what it could not post. */
    static final class Traffic implements Runnable {
        final List<Endpoint> endpoints;
        final Thread thread;
        volatile boolean stop;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Traffic(String name, List<Endpoint> endpoints) {
            this.endpoints = endpoints;
            this.thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            Random rnd = new Random(3);
            try {
                while (!stop) {
                    for (Endpoint e : endpoints) {
                        e.pump(rnd);
                    }
                    // Pacing only: the books do not depend on it.
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }

        void halt() throws InterruptedException {
            stop = true;
            thread.join(TimeUnit.SECONDS.toMillis(20));
            if (thread.isAlive()) {
                fail("the traffic thread did not stop\n" + Threads.dump());
            }
            assertNull(failure.get(), () -> "traffic thread: " + failure.get());
        }
    }

    /** Resource counts of a device at the moment its IbDevice service is withdrawn. */
    final class LastLook implements ServiceListener {
        final String device;
        final Map<String, Object> seen = new ConcurrentHashMap<>();
        final List<Endpoint> watched;

        LastLook(String device, List<Endpoint> watched) {
            this.device = device;
            this.watched = watched;
        }

        @Override
        public void serviceChanged(ServiceEvent event) {
            if (event.getType() == ServiceEvent.UNREGISTERING
                    && device.equals(event.getServiceReference().getProperty(IbRuntime.DEVICE_NAME))) {
                try {
                    seen.put("counts", runtime.resourceCounts(device));
                    List<String> objs = new ArrayList<>();
                    for (ResourceDTO r : runtime.resources(device, null)) {
                        objs.add(r.type + ":" + r.owner);
                    }
                    seen.put("objects", objs);
                    for (Endpoint e : watched) {
                        seen.put(e.label, e.snapshot());
                    }
                } catch (RuntimeException e) {
                    seen.put("error", e.toString());
                }
            }
        }
    }

    // ================================================================== one round

    /**
     * Connects A and B twice (the client's connection and the test's), runs traffic, deletes A's
     * configuration during it and checks everything the class comment lists. Returns with A gone.
     */
    private Endpoint removeDuringTraffic(UlpClient client, Disassociator uverbs, int round) throws Exception {
        String devA = deviceName("a");
        String devB = deviceName("b");
        IbDevice a = device(devA);
        IbDevice b = device(devB);
        assertNotNull(a, devA);
        assertNotNull(b, devB);
        Poll.until("the client was added to " + devA + " and " + devB,
                () -> client.side(devA) != null && client.side(devB) != null, client::log);

        Endpoint ulpA = client.side(devA).newQp("ulp-A" + round);
        Endpoint ulpB = client.side(devB).newQp("ulp-B" + round);
        Endpoint.connect(ulpA, IP_A, ulpB, IP_B, TIMEOUT, RETRY_CNT);
        Side leftA = new Side(a, LEFTOVER);
        Side leftB = new Side(b, LEFTOVER);
        leftoverB.add(leftB);
        Endpoint ownA = leftA.newQp("left-A" + round);
        Endpoint ownB = leftB.newQp("left-B" + round);
        Endpoint.connect(ownA, IP_A, ownB, IP_B, TIMEOUT, RETRY_CNT);
        uverbs.watch(devA, ownA);
        List<Endpoint> all = List.of(ulpA, ulpB, ownA, ownB);

        Traffic traffic = new Traffic("itest-traffic-" + id + "-" + round, all);
        traffic.thread.start();
        Poll.until("every QP completed 200 requests", () -> all.stream().allMatch(e -> e.count("send",
                WcStatus.SUCCESS) >= 200), all::toString, Duration.ofSeconds(60));
        assertTrue(Threads.named("rdma-softirq/" + devA + "/").size() == 1, "A's softirq poller runs: "
                + Threads.named("rdma-softirq/"));

        LastLook last = new LastLook(devA, List.of(ulpA, ownA));
        bc.addServiceListener(last);
        try {
            int before = client.log().size();
            configA.delete();
            configA = null;
            Poll.until(devA + " is gone from the runtime", () -> devices(devA).isEmpty(), () -> devices(devA));
            Poll.until(devA + "'s IbDevice service is withdrawn", () -> device(devA) == null, () -> "still there");
            List<String> removal = client.log().subList(before, client.log().size());
            assertEquals(2, removal.size(), "remove, then the client's cleanup: " + removal);
            assertEquals("remove " + devA, removal.get(0));
            assertTrue(removal.get(1).startsWith("cleaned " + devA + " mine=[] others=["), removal.get(1));
            for (String t : new String[] {"qp", "cq", "mr", "pd"}) {
                assertTrue(removal.get(1).contains(t + ":" + LEFTOVER), "the test's " + t
                        + " is still there when the client has cleaned up: " + removal.get(1));
            }
        } finally {
            bc.removeServiceListener(last);
        }
        traffic.halt();

        // A: every request and receive completed, SUCCESS or WR_FLUSH_ERR, once.
        for (Endpoint e : List.of(ulpA, ownA)) {
            assertEquals(0, e.outstanding(), () -> "nothing posted on A is lost: " + e + "; now " + e.snapshot()
                    + "; when A's service was withdrawn: " + last.seen.get(e.label));
            assertEquals(List.of(), e.errors(), e.label);
            assertEquals(e.postedSends() + e.postedRecvs(), e.completed(), () -> "one completion per post: " + e);
            for (String k : e.counts().keySet()) {
                assertTrue(k.endsWith(" SUCCESS") || k.endsWith(" WR_FLUSH_ERR"), () -> "A's statuses: " + e);
            }
        }
        // (How much is flushed varies: between the fence and the flush, B's SENDs may consume every
        // receive still posted on A. The books above are what must hold.)
        assertEquals(Map.of(), nonZero(last.seen.get("counts")), () -> "rdma res of " + devA
                + " when its service was withdrawn: " + last.seen);
        assertEquals(List.of(), last.seen.get("objects"), () -> "objects of " + devA + ": " + last.seen);
        assertNull(last.seen.get("error"), () -> "rdma res of " + devA + ": " + last.seen);
        RdmaException gone = assertThrows(RdmaException.class, () -> runtime.resourceCounts(devA));
        assertEquals(Errno.ENODEV, gone.errno(), gone.toString());
        assertEquals(0, runtime.resources(devA, null).length);
        Poll.until("no thread named after " + devA + " is left", () -> Threads.named(devA).isEmpty(),
                () -> Threads.named(devA));

        // B: the requests to the vanished peer fail cleanly.
        for (Endpoint e : List.of(ulpB, ownB)) {
            int rc = e.postOneWrite(); // at least one request meets the dead peer
            Poll.until(e.label + " gave up on the vanished peer", () -> e.qp.state() == QpState.ERR
                    && e.outstanding() == 0, () -> e + " " + e.qp.state() + "\n" + Threads.stacks("rdma-"),
                    PEER_FAILS_WITHIN);
            assertEquals(List.of(), e.errors(), e.label);
            assertEquals(e.postedSends() + e.postedRecvs(), e.completed(), () -> "one completion per post: " + e);
            assertEquals(1, e.count("send", WcStatus.RETRY_EXC_ERR), () -> "exactly one RETRY_EXC_ERR (post rc "
                    + rc + "): " + e);
            for (String k : e.counts().keySet()) {
                assertTrue(k.endsWith(" SUCCESS") || k.endsWith(" WR_FLUSH_ERR") || k.equals("send RETRY_EXC_ERR"),
                        () -> "B's statuses: " + e);
            }
        }
        System.out.printf("hot removal round %d of %s: %s%n", round, devA, all);
        assertTrue(uverbs.log().contains("disassociated " + devA + " 1"), uverbs.log()::toString);
        client.side(devB).release(ulpB);
        leftB.release(ownB);
        return ownA;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Integer> nonZero(Object counts) {
        Map<String, Integer> m = new java.util.TreeMap<>();
        if (counts instanceof Map) {
            ((Map<String, Integer>) counts).forEach((k, v) -> {
                if (v != null && v != 0) {
                    m.put(k, v);
                }
            });
        } else {
            m.put("no counts seen", -1);
        }
        return m;
    }

    private UlpClient registerClient() {
        UlpClient client = new UlpClient(id + "-ulp", id, runtime);
        registrations.add(bc.registerService(IbClient.class, client, null));
        return client;
    }

    private Disassociator registerDisassociator() {
        Disassociator d = new Disassociator(id + "-uverbs");
        registrations.add(bc.registerService(IbClient.class, d, null));
        return d;
    }

    // ================================================================== tests

    @Test
    void deletingAnHcaConfigurationDuringTrafficFlushesEverythingAndRemovesTheDevice() throws Exception {
        configA = hca("a", IP_A, "0002c903000a0001");
        Disassociator uverbs = registerDisassociator();
        UlpClient client = registerClient();
        removeDuringTraffic(client, uverbs, 1);
        assertEquals(1, devices(id).size(), "B stays: " + devices(id));
        assertNotNull(device(deviceName("b")));
    }

    @Test
    void addingAndDeletingTheConfigurationFiveTimesLeaksNothing() throws Exception {
        Disassociator uverbs = registerDisassociator();
        UlpClient client = registerClient();
        // The only threads named after this test that may outlive a round: B's softirq poller
        // (started on first use) and the test clock.
        Set<String> allowed = Set.of("rdma-softirq/" + deviceName("b") + "/0");
        int providersBefore = services("org.rdma.verbs.spi.IbDeviceProvider", null);
        int devicesBefore = services(IbDevice.class.getName(), null);
        for (int round = 1; round <= 5; round++) {
            configA = hca("a", IP_A, "0002c903000a0001");
            removeDuringTraffic(client, uverbs, round);
            assertEquals(round, client.log(e -> e.equals("remove " + deviceName("a"))).size(), client.log()::toString);
            assertEquals(providersBefore, services("org.rdma.verbs.spi.IbDeviceProvider", null),
                    "no provider service left after round " + round);
            assertEquals(devicesBefore, services(IbDevice.class.getName(), null),
                    "no IbDevice service left after round " + round);
            Poll.until("only " + allowed + " are left of " + id + "'s threads after round " + round,
                    () -> allowed.containsAll(Threads.named(id)), () -> Threads.named(id));
        }
        assertEquals(5, client.log(e -> e.equals("add " + deviceName("a"))).size(), client.log()::toString);
        Poll.until("no thread of " + deviceName("a") + " is left", () -> Threads.named(deviceName("a")).isEmpty(),
                () -> Threads.named(deviceName("a")));
    }

    /**
     * A QP the core destroyed as a leftover refuses work with ENODEV (uverbs answers EIO after
     * a disassociation) instead of accepting it with 0 and never completing it.
     */
    @Test
    void postingOnALeftoverQpAfterHotRemovalIsRefused() throws Exception {
        configA = hca("a", IP_A, "0002c903000a0001");
        Disassociator uverbs = registerDisassociator();
        UlpClient client = registerClient();
        Endpoint leftover = removeDuringTraffic(client, uverbs, 1);
        int rc = leftover.postOneWrite();
        assertEquals(-19, rc, () -> "postSend on the destroyed leftover QP must fail with -ENODEV: " + leftover);
        assertEquals(0, leftover.outstanding(), leftover::toString);
    }
}
