package org.rdma.sm.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.rdma.mad.MadService;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.time.IbClock;

/**
 * One configured subnet manager: the {@code opensm} daemon of one port. Waits for the
 * configured device among the registered {@link IbDevice} services, then runs a
 * {@link SubnetManager} on its port through the {@link MadService}; stops it when the device
 * goes. A device whose MAD ports are not ready yet is retried once a second.
 *
 * <p>Locking: {@code this} guards the device, the SM and the retry timer; the SM is started
 * and closed outside it (both call the MAD layer, which may wait for handlers).
 */
@Component(configurationPid = SmComponent.PID, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = SmComponent.class, immediate = true)
@Designate(ocd = SmConfig.class, factory = true)
public final class SmComponent {
    /** The factory PID. */
    public static final String PID = "org.rdma.sm";
    private static final Logger LOG = Logger.getLogger(SmComponent.class.getName());

    private final MadService mad;
    private final IbClock clock;
    private final SmConfig config;
    /** The configured node GUID, or {@code null} for any. */
    private final Long nodeGuid;
    private final ExecutorService executor;
    private SubnetManager sm;
    private IbDevice device;
    private boolean active = true;
    private IbClock.Timer retry;

    @Activate
    public SmComponent(@Reference MadService mad, @Reference IbClock clock, SmConfig config) {
        this.mad = mad;
        this.clock = clock;
        this.config = config;
        Long guid = null;
        String g = config.nodeGuid().trim().replace(":", "").replaceFirst("^0[xX]", "");
        if (!g.isEmpty()) {
            try {
                guid = Long.parseUnsignedLong(g, 16);
            } catch (NumberFormatException e) {
                LOG.warning(() -> "org.rdma.sm: bad nodeGuid '" + config.nodeGuid() + "': no device will match");
                guid = 0L;
            }
        }
        this.nodeGuid = guid;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "opensm-" + config.port());
            t.setDaemon(true);
            return t;
        });
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addDevice(IbDevice d) {
        synchronized (this) {
            if (!active || sm != null || device != null || !matches(d)) {
                return;
            }
            device = d;
        }
        tryStart();
    }

    void removeDevice(IbDevice d) {
        SubnetManager old;
        synchronized (this) {
            if (d != device) {
                return;
            }
            device = null;
            old = sm;
            sm = null;
            if (retry != null) {
                retry.cancel();
            }
        }
        if (old != null) {
            old.close();
        }
    }

    private boolean matches(IbDevice d) {
        if (!config.device().isEmpty() && !config.device().equals(d.name())) {
            return false;
        }
        if (nodeGuid != null && nodeGuid != d.nodeGuid()) {
            return false;
        }
        int p = config.port();
        return p >= d.startPort() && p <= d.endPort() && d.getLinkLayer(p) == LinkLayer.INFINIBAND;
    }

    private void tryStart() {
        IbDevice d;
        synchronized (this) {
            d = device;
            if (!active || d == null || sm != null) {
                return;
            }
        }
        SubnetManager s = new SubnetManager(mad, d, config.port(), clock, executor, config.smPriority(),
                TimeUnit.SECONDS.toMillis(config.sweepPeriodSeconds()));
        try {
            s.start();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "SM on " + d.name() + " not ready, retrying", e);
            synchronized (this) {
                if (active && device == d) {
                    retry = clock.schedule(this::tryStart, 1, TimeUnit.SECONDS);
                }
            }
            return;
        }
        boolean keep;
        synchronized (this) {
            keep = active && device == d && sm == null;
            if (keep) {
                sm = s;
            }
        }
        if (keep) {
            LOG.fine(() -> "subnet manager running on " + d.name() + "/" + config.port());
        } else {
            s.close();
        }
    }

    /** The running SM, or {@code null}. */
    synchronized SubnetManager subnetManager() {
        return sm;
    }

    /** The device and port this SM is configured for, as the shell shows it. */
    String describe() {
        IbDevice d;
        synchronized (this) {
            d = device;
        }
        String which = !config.device().isEmpty() ? config.device()
                : !config.nodeGuid().isEmpty() ? "node " + config.nodeGuid() : "first IB device";
        return (d != null ? d.name() : which) + "/" + config.port();
    }

    int priority() {
        return config.smPriority();
    }

    @Deactivate
    void deactivate() {
        SubnetManager old;
        synchronized (this) {
            active = false;
            old = sm;
            sm = null;
            if (retry != null) {
                retry.cancel();
            }
        }
        if (old != null) {
            old.close();
        }
        // A task already running may still be answering a MAD with an address handle on the MAD
        // layer's PD: it must be done before the MAD layer, deactivated next, closes the port.
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warning(() -> "org.rdma.sm: the SM thread of " + describe() + " did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
