package org.rdma.mad.internal.umad;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.rdma.mad.MadService;
import org.rdma.mad.umad.UmadCa;
import org.rdma.mad.umad.UmadPort;
import org.rdma.mad.umad.UmadPortAttr;
import org.rdma.mad.umad.UmadService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * ib_umad (drivers/infiniband/core/user_mad.c) with libibumad's device and port lookups on top:
 * an {@link IbClient} that learns the devices in registration order ({@code ib_umad_add_one()}),
 * opens user-MAD ports over {@link MadService} (one MAD agent per registration) and, when a device
 * goes, kills the ports still open on it ({@code ib_umad_kill_port()}): their readers get EIO.
 *
 * <p>Locks: the device list is copy-on-write and the open ports a concurrent map; no lock is held
 * while the MAD layer or verbs are called.
 *
 * <p>The {@link IbClient} is registered by {@link #activate} and withdrawn by {@link #deactivate},
 * after SCR has unregistered {@link UmadService} and so deactivated its users (the diagnostics),
 * as {@link org.rdma.mad.internal.MadLayer} does for the MAD layer's users.
 */
@Component(service = UmadService.class, immediate = true)
public final class UmadLayer implements IbClient, UmadService {
    private final MadService mad;
    private final IbClock clock;
    private final UmadWaiter waiter;
    private final List<IbDevice> devices = new CopyOnWriteArrayList<>();
    private final Map<UmadPortImpl, IbDevice> open = new ConcurrentHashMap<>();
    private ServiceRegistration<IbClient> clientRegistration;

    /** The DS constructor: readers block on the port. */
    @Activate
    public UmadLayer(@Reference MadService mad, @Reference IbClock clock) {
        this(mad, clock, UmadWaiter.blocking(clock));
    }

    /**
     * For embedding and tests.
     *
     * @param mad    the MAD layer the agents register with
     * @param clock  the clock of {@code umad_recv()} timeouts
     * @param waiter how readers wait for MADs
     */
    public UmadLayer(MadService mad, IbClock clock, UmadWaiter waiter) {
        this.mad = mad;
        this.clock = clock;
        this.waiter = waiter;
    }

    /** Becomes a client of the core's devices once built. */
    @Activate
    void activate(BundleContext bc) {
        clientRegistration = bc.registerService(IbClient.class, this, null);
    }

    /** Leaves every device (killing the ports open on it), then closes every port still open. */
    @Deactivate
    public void deactivate() {
        if (clientRegistration != null) {
            clientRegistration.unregister();
            clientRegistration = null;
        }
        for (UmadPortImpl p : new ArrayList<>(open.keySet())) {
            p.close();
        }
    }

    MadService mad() {
        return mad;
    }

    IbClock clock() {
        return clock;
    }

    UmadWaiter waiter() {
        return waiter;
    }

    void forget(UmadPortImpl port) {
        open.remove(port);
    }

    // ------------------------------------------------------------------ IbClient

    @Override
    public String name() {
        return "umad";
    }

    /** {@code ib_umad_add_one()}: the device's ports become openable. */
    @Override
    public int add(IbDevice device) {
        devices.add(device);
        return 0;
    }

    /** {@code ib_umad_remove_one()}: ports still open on the device are killed. */
    @Override
    public void remove(IbDevice device, Object clientData) {
        devices.remove(device);
        for (Map.Entry<UmadPortImpl, IbDevice> e : open.entrySet()) {
            if (e.getValue() == device) {
                e.getKey().kill();
            }
        }
    }

    // ------------------------------------------------------------------ UmadService

    @Override
    public List<String> getCasNames() {
        List<String> names = new ArrayList<>();
        for (IbDevice d : devices) {
            if (d.isRegistered() && names.size() < UMAD_MAX_DEVICES) {
                names.add(d.name());
            }
        }
        return names;
    }

    @Override
    public UmadCa getCa(String caName) {
        return SysfsView.ca(resolveCa(caName));
    }

    @Override
    public UmadPortAttr getPort(String caName, int portNum) {
        IbDevice d = resolveCa(caName);
        return SysfsView.port(d, resolvePort(d, portNum));
    }

    @Override
    public long[] getCaPortguids(String caName) {
        IbDevice d = device(caName);
        long[] guids = new long[d.endPort() + 1];
        for (int p = d.startPort(); p <= d.endPort(); p++) {
            guids[p] = d.queryPort(p).gidTblLen > 0 ? d.queryGid(p, 0).interfaceId() : 0;
        }
        return guids;
    }

    @Override
    public UmadPort openPort(String caName, int portNum) {
        IbDevice d = resolveCa(caName);
        int p = resolvePort(d, portNum);
        UmadPortImpl port = new UmadPortImpl(this, d, p);
        open.put(port, d);
        if (!devices.contains(d)) {
            // removed while opening: the port is born dead, as after ib_umad_kill_port()
            port.kill();
        }
        return port;
    }

    // ------------------------------------------------------------------ resolve_ca_name / resolve_ca_port

    /** The registered device named {@code caName}; ENODEV otherwise. */
    private IbDevice device(String caName) {
        for (IbDevice d : devices) {
            if (d.name().equals(caName) && d.isRegistered()) {
                return d;
            }
        }
        throw new RdmaException(Errno.ENODEV, "no IB device '" + caName + "'");
    }

    /** libibumad's {@code resolve_ca_name()}: a named CA, or the first with an ACTIVE (else LinkUp) port. */
    private IbDevice resolveCa(String caName) {
        if (caName != null) {
            return device(caName);
        }
        IbDevice linkUp = null;
        IbDevice first = null;
        for (IbDevice d : devices) {
            if (!d.isRegistered()) {
                continue;
            }
            first = first == null ? d : first;
            for (int p = d.startPort(); p <= d.endPort(); p++) {
                var pa = d.queryPort(p);
                if (pa.state == PortState.ACTIVE) {
                    return d;
                }
                if (linkUp == null && pa.physState == PhysPortState.LINK_UP) {
                    linkUp = d;
                }
            }
        }
        if (linkUp != null) {
            return linkUp;
        }
        RdmaException.check(first != null, Errno.ENODEV, "no IB devices found");
        return first;
    }

    /** libibumad's {@code resolve_ca_port()}: a given port, or the first ACTIVE (else LinkUp, else first) one. */
    private static int resolvePort(IbDevice d, int portNum) {
        if (portNum != 0 || d.startPort() == 0) {
            RdmaException.check(portNum >= d.startPort() && portNum <= d.endPort(), Errno.EINVAL,
                    d.name() + " has no port " + portNum);
            return portNum;
        }
        int linkUp = 0;
        for (int p = d.startPort(); p <= d.endPort(); p++) {
            var pa = d.queryPort(p);
            if (pa.state == PortState.ACTIVE) {
                return p;
            }
            if (linkUp == 0 && pa.physState == PhysPortState.LINK_UP) {
                linkUp = p;
            }
        }
        return linkUp != 0 ? linkUp : d.startPort();
    }
}
