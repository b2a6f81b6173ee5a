package org.rdma.core.internal.registry;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.event.Event;
import org.osgi.service.event.EventAdmin;
import org.osgi.util.tracker.ServiceTracker;
import org.osgi.util.tracker.ServiceTrackerCustomizer;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.ClientDTO;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.PortDTO;
import org.rdma.verbs.runtime.RdmaNotifyEvent;
import org.rdma.verbs.runtime.ResourceDTO;
import org.rdma.verbs.runtime.RuntimeDTO;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The device/client whiteboard of {@code drivers/infiniband/core/device.c}: tracks
 * {@link IbDeviceProvider} services ({@code ib_register_device()}) and {@link IbClient} services
 * ({@code ib_register_client()}), names devices, publishes {@link IbDevice} services, and
 * implements the unregistration calls.
 *
 * <p>It keeps the registration contract written in {@code org.rdma.verbs}'s package
 * documentation. How:
 * <ul>
 * <li>{@link #registration} ({@code devices_rwsem} and {@code clients_rwsem} in one) serialises
 * the changes of the two tables and every client {@code add}: a device's move to REGISTERED and
 * the adds of the clients registered then, a client's id and its adds to the devices registered
 * then, and the moves that stop further adds (a client's {@code registered} flag, a device's
 * UNREGISTERING). Nothing else runs under it: no {@code remove}, no framework call.</li>
 * <li>A client's context on a device ({@link CoreDevice.ClientContext}) holds a use of the
 * client ({@link ClientEntry}) and a reference to the device from before its add until after
 * its remove. Whoever clears the context's mark ({@link CoreDevice#beginRemove}) runs remove,
 * with no lock held; the others skip it and wait at their fence: {@link ClientEntry#awaitUnused}
 * for a client, {@link CoreDevice#awaitUnreferenced} for a device.</li>
 * <li>Each device's {@link CoreDevice#unregistrationLock()} ({@code unregistration_lock})
 * serialises its unregistrations, and is held from its construction until its {@link IbDevice}
 * service is published, so an unregistration never overtakes its registration.</li>
 * <li>{@link #lock} guards the tables below; it is held only to read or update them, never
 * while driver, client or framework code runs.</li>
 * </ul>
 */
@Component(service = {IbCore.class, IbRuntime.class}, immediate = true)
public final class DeviceRegistry implements IbCore, IbRuntime, DeviceServices {
    private static final System.Logger LOG = System.getLogger(DeviceRegistry.class.getName());

    private final BundleContext bc;
    private final ReentrantLock registration = new ReentrantLock();
    private final Object lock = new Object();

    private final List<CoreDevice> devices = new ArrayList<>();
    private final Set<String> reservedNames = new HashSet<>();
    private final Map<CoreDevice, ServiceRegistration<IbDevice>> deviceServices = new HashMap<>();
    private final Map<CoreDevice, Long> providerIds = new HashMap<>();
    private final TreeMap<Integer, ClientEntry> clients = new TreeMap<>();
    private int nextClientId;
    private int nextDeviceIndex;
    private final Map<Long, ProviderEntry> providers = new LinkedHashMap<>();
    private final Map<Long, FailedDTO> failedClients = new LinkedHashMap<>();

    private final ExecutorService unregWq = pool("rdma-unreg-wq", 1);
    private final ExecutorService compWq = pool("rdma-comp-wq", Runtime.getRuntime().availableProcessors());
    private final ExecutorService compUnboundWq = pool("rdma-comp-unb-wq", Runtime.getRuntime().availableProcessors());

    private final ServiceTracker<IbClient, ClientEntry> clientTracker;
    private final ServiceTracker<IbDeviceProvider, ProviderEntry> providerTracker;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    private volatile EventAdmin eventAdmin;

    /** The registry of {@code bc}'s framework; trackers open in {@link #activate()}. */
    @Activate
    public DeviceRegistry(BundleContext bc) {
        this.bc = bc;
        this.clientTracker = new ServiceTracker<>(bc, IbClient.class, new ClientCustomizer());
        this.providerTracker = new ServiceTracker<>(bc, IbDeviceProvider.class, new ProviderCustomizer());
    }

    /**
     * Opens the client tracker, then the provider tracker. Runs after SCR has injected Event
     * Admin, so events raised while the first devices register are published.
     */
    @Activate
    void activate() {
        clientTracker.open();
        providerTracker.open();
    }

    /** Unregisters every device (clients get remove), then every client, then stops the workqueues. */
    @Deactivate
    void deactivate() {
        providerTracker.close();
        clientTracker.close();
        for (ExecutorService e : List.of(unregWq, compWq, compUnboundWq)) {
            e.shutdown();
            try {
                e.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ExecutorService pool(String name, int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor e = new ThreadPoolExecutor(threads, threads, 5, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, threads == 1 ? name : name + "-" + n.getAndIncrement());
                    t.setDaemon(true);
                    return t;
                });
        // Idle workqueues keep no threads, so loading and unloading leaves none behind.
        e.allowCoreThreadTimeOut(true);
        return e;
    }

    // ------------------------------------------------------------------ trackers

    private final class ProviderCustomizer implements ServiceTrackerCustomizer<IbDeviceProvider, ProviderEntry> {
        @Override
        public ProviderEntry addingService(ServiceReference<IbDeviceProvider> ref) {
            IbDeviceProvider provider = bc.getService(ref);
            if (provider == null) {
                return null;
            }
            ProviderEntry entry = new ProviderEntry((Long) ref.getProperty(Constants.SERVICE_ID));
            synchronized (lock) {
                providers.put(entry.serviceId, entry);
            }
            registerDevice(entry, provider);
            return entry;
        }

        @Override
        public void modifiedService(ServiceReference<IbDeviceProvider> ref, ProviderEntry entry) {
            // A provider's identity comes from info(), not from its service properties.
        }

        @Override
        public void removedService(ServiceReference<IbDeviceProvider> ref, ProviderEntry entry) {
            CoreDevice dev = entry.device;
            if (dev != null) {
                unregister(dev);
            }
            synchronized (lock) {
                providers.remove(entry.serviceId);
            }
            bc.ungetService(ref);
        }
    }

    private final class ClientCustomizer implements ServiceTrackerCustomizer<IbClient, ClientEntry> {
        @Override
        public ClientEntry addingService(ServiceReference<IbClient> ref) {
            IbClient client = bc.getService(ref);
            return client == null ? null : registerClient(client, (Long) ref.getProperty(Constants.SERVICE_ID));
        }

        @Override
        public void modifiedService(ServiceReference<IbClient> ref, ClientEntry entry) {
            // Client order is registration order; property changes do not move a client.
        }

        @Override
        public void removedService(ServiceReference<IbClient> ref, ClientEntry entry) {
            unregisterClient(entry);
            bc.ungetService(ref);
        }
    }

    // ------------------------------------------------------------------ devices

    private void fail(ProviderEntry entry, String name, int reason, String message) {
        FailedDTO f = new FailedDTO();
        f.serviceId = entry.serviceId;
        f.name = name;
        f.failureReason = reason;
        f.message = message;
        entry.failure = f;
        LOG.log(Level.WARNING, "RDMA device provider {0} ({1}) not used: {2}", entry.serviceId, name, message);
    }

    /**
     * {@code ib_register_device()}: {@link #enable} under the registration lock, then
     * {@link #publish} without it.
     */
    private void registerDevice(ProviderEntry entry, IbDeviceProvider provider) {
        CoreDevice dev;
        registration.lock();
        try {
            dev = enable(entry, provider);
        } finally {
            registration.unlock();
        }
        if (dev != null) {
            try {
                publish(dev);
            } finally {
                dev.unregistrationLock().unlock();
            }
        }
    }

    /**
     * {@code enable_device_and_get()}: checks and names the device, attaches the driver, marks
     * it REGISTERED and adds every registered client. Returns the device with its
     * unregistration lock held, or null once the failure is recorded.
     */
    private CoreDevice enable(ProviderEntry entry, IbDeviceProvider provider) {
        DeviceInfo info;
        try {
            info = provider.info();
        } catch (RuntimeException | AssertionError | LinkageError e) {
            fail(entry, null, FailedDTO.FAILURE_REASON_DRIVER_ERROR, "EINVAL: info() failed: " + e);
            return null;
        }
        if (info == null || info.driverId == null || info.driverId.isEmpty() || info.nodeType == null) {
            fail(entry, info == null ? null : info.nameTemplate, FailedDTO.FAILURE_REASON_MISSING_OPERATION,
                    "EINVAL: the provider gives no driver id or node type");
            return null;
        }
        if (!NameAllocator.validTemplate(info.nameTemplate)) {
            fail(entry, info.nameTemplate, FailedDTO.FAILURE_REASON_BAD_NAME_TEMPLATE,
                    "EINVAL: bad name template '" + info.nameTemplate + "'");
            return null;
        }
        if (info.nodeType != NodeType.SWITCH && info.physPortCnt < 1) {
            fail(entry, info.nameTemplate, FailedDTO.FAILURE_REASON_MISSING_OPERATION,
                    "EINVAL: a " + info.nodeType + " needs at least one port");
            return null;
        }
        String name;
        int index;
        synchronized (lock) {
            if (info.nodeGuid != 0 && devices.stream().anyMatch(d -> d.nodeGuid() == info.nodeGuid)) {
                fail(entry, info.nameTemplate, FailedDTO.FAILURE_REASON_DUPLICATE_GUID,
                        "EEXIST: node GUID " + Long.toHexString(info.nodeGuid) + " is already registered");
                return null;
            }
            try {
                name = NameAllocator.allocate(info.nameTemplate, takenNames());
            } catch (RdmaException e) {
                fail(entry, info.nameTemplate, FailedDTO.FAILURE_REASON_NAME_IN_USE, e.getMessage());
                return null;
            }
            reservedNames.add(name);
            index = nextDeviceIndex++;
        }
        CoreDevice dev;
        try {
            dev = new CoreDevice(provider, info, name, index, this);
            provider.attach(dev);
        } catch (RuntimeException | AssertionError | LinkageError e) {
            // A broken driver is reported in the runtime DTO, never dropped silently.
            synchronized (lock) {
                reservedNames.remove(name);
            }
            fail(entry, info.nameTemplate, FailedDTO.FAILURE_REASON_DRIVER_ERROR,
                    (e instanceof RdmaException ? "" : "EIO: ") + "driver failed during registration: " + e.getMessage());
            return null;
        }
        // No other thread knows the device yet, so this does not wait.
        dev.unregistrationLock().lock();
        synchronized (lock) {
            reservedNames.remove(name);
            devices.add(dev);
            providerIds.put(dev, entry.serviceId);
        }
        dev.setState(CoreDevice.State.REGISTERED);
        entry.device = dev;
        LOG.log(Level.DEBUG, "RDMA device {0} registered ({1})", name, info.driverId);
        for (ClientEntry c : clientSnapshot()) {
            addClient(dev, c);
        }
        return dev;
    }

    /**
     * Publishes the device's service with no registry lock held: the framework runs service
     * listeners, trackers and SCR activations synchronously, and they may register clients or
     * call back into the core. Posts REGISTER after them.
     */
    private void publish(CoreDevice dev) {
        ServiceRegistration<IbDevice> reg = bc.registerService(IbDevice.class, dev, deviceProperties(dev));
        boolean stillRegistered;
        synchronized (lock) {
            stillRegistered = dev.state() == CoreDevice.State.REGISTERED;
            if (stillRegistered) {
                deviceServices.put(dev, reg);
            }
        }
        if (stillRegistered) {
            postNotify(RdmaNotifyEvent.REGISTER, dev, 0, null);
        } else {
            // A listener unregistered the device on this thread while it was being published.
            withdraw(reg);
        }
    }

    private static void withdraw(ServiceRegistration<IbDevice> reg) {
        try {
            reg.unregister();
        } catch (IllegalStateException alreadyGone) {
            // The framework is stopping and took the service with it.
        }
    }

    private Set<String> takenNames() {
        Set<String> taken = new HashSet<>(reservedNames);
        for (CoreDevice d : devices) {
            taken.add(d.name());
        }
        return taken;
    }

    private static Hashtable<String, Object> deviceProperties(CoreDevice dev) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put(DEVICE_NAME, dev.name());
        p.put(DEVICE_DRIVER, dev.driverId());
        p.put(DEVICE_NODE_GUID, String.format("%016x", dev.nodeGuid()));
        p.put(DEVICE_NODE_TYPE, dev.nodeType().name());
        p.put(DEVICE_PORTS, dev.endPort());
        String[] ll = new String[dev.endPort() - dev.startPort() + 1];
        for (int i = 0; i < ll.length; i++) {
            ll[i] = dev.getLinkLayer(dev.startPort() + i).name();
        }
        p.put(DEVICE_LINK_LAYER, ll);
        return p;
    }

    /**
     * {@code __ib_unregister_device()}: remove every client (newest first) with no lock held,
     * drop the registration reference and wait for the others (holders and callbacks still
     * running elsewhere), destroy leftovers, withdraw the service, detach the driver.
     * Concurrent and repeated calls are safe; a call from a callback that this device's own
     * unregistration is running returns at once, the unregistration going on when it returns.
     */
    private void unregister(CoreDevice dev) {
        ReentrantLock ul = dev.unregistrationLock();
        if (ul.isHeldByCurrentThread() && dev.state() == CoreDevice.State.UNREGISTERING) {
            return;
        }
        ul.lock();
        try {
            if (dev.state() == CoreDevice.State.UNREGISTERED) {
                return;
            }
            postNotify(RdmaNotifyEvent.UNREGISTER, dev, 0, null);
            List<ClientEntry> cs;
            registration.lock();
            try {
                dev.setState(CoreDevice.State.UNREGISTERING);
                cs = clientSnapshot();
            } finally {
                registration.unlock();
            }
            Collections.reverse(cs);
            for (ClientEntry c : cs) {
                removeClient(dev, c);
            }
            dev.put();
            dev.awaitUnreferenced();
            dev.destroyLeftovers();
            ServiceRegistration<IbDevice> reg;
            synchronized (lock) {
                reg = deviceServices.remove(dev);
            }
            if (reg != null) {
                withdraw(reg);
            }
            try {
                dev.provider().detach();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, dev.name() + ": driver detach failed", e);
            }
            synchronized (lock) {
                devices.remove(dev);
                providerIds.remove(dev);
            }
            dev.setState(CoreDevice.State.UNREGISTERED);
            LOG.log(Level.DEBUG, "RDMA device {0} unregistered", dev.name());
        } finally {
            ul.unlock();
        }
    }

    // ------------------------------------------------------------------ clients

    /**
     * {@code add_client_context()}: runs {@code add} once per (device, client), under the
     * registration lock. A client or device that went away during the add (from the add
     * itself, on this thread) is removed again at once.
     */
    private void addClient(CoreDevice dev, ClientEntry c) {
        if (!c.registered || dev.state() != CoreDevice.State.REGISTERED) {
            return;
        }
        CoreDevice.ClientContext ctx = dev.beginAdd(c.client, c.id, c.name);
        if (ctx == null) {
            return;
        }
        c.get();
        int ret;
        c.enter();
        try {
            ret = c.client.add(dev);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "client " + c.name + " failed to add " + dev.name(), e);
            ret = -Errno.EINVAL.value;
        } finally {
            c.exit();
        }
        if (ret != 0) {
            // As the kernel, the error is not propagated, but no more callbacks for this pair.
            release(dev, c);
            return;
        }
        dev.addCompleted(ctx);
        postClientEvent(TOPIC_CLIENT_ADD, dev, c);
        if (!c.registered || dev.state() != CoreDevice.State.REGISTERED) {
            removeClient(dev, c);
        }
    }

    /**
     * {@code remove_client_context()}: runs {@code remove} if {@code add} succeeded and no
     * other caller runs it; never under a registry lock. Not a fence by itself: the caller
     * waits at its own (see {@link ClientEntry#awaitUnused}, {@link CoreDevice#awaitUnreferenced}).
     */
    private void removeClient(CoreDevice dev, ClientEntry c) {
        CoreDevice.ClientContext ctx = dev.beginRemove(c.client);
        if (ctx == null) {
            return;
        }
        c.enter();
        try {
            c.client.remove(dev, ctx.data());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "client " + c.name + " failed to remove " + dev.name(), e);
        } finally {
            c.exit();
        }
        release(dev, c);
        postClientEvent(TOPIC_CLIENT_REMOVE, dev, c);
    }

    /** Drops a context with the device reference and the client use it held. */
    private static void release(CoreDevice dev, ClientEntry c) {
        dev.dropContext(c.client);
        c.put();
    }

    private void postClientEvent(String topic, CoreDevice dev, ClientEntry c) {
        EventAdmin ea = eventAdmin;
        if (ea != null) {
            Map<String, Object> props = new HashMap<>();
            props.put(EVENT_DEVICE, dev.name());
            props.put(RdmaNotifyEvent.PROP_DEV_INDEX, dev.index());
            props.put(EVENT_CLIENT, c.name);
            ea.postEvent(new Event(topic, props));
        }
    }

    /** {@code ib_register_client()}: the client's id and its adds, under the registration lock. */
    private ClientEntry registerClient(IbClient client, long serviceId) {
        registration.lock();
        try {
            String name;
            try {
                name = client.name();
            } catch (RuntimeException e) {
                name = null;
            }
            if (name == null || name.isBlank()) {
                FailedDTO f = new FailedDTO();
                f.serviceId = serviceId;
                f.name = name;
                f.failureReason = FailedDTO.FAILURE_REASON_BAD_CLIENT;
                f.message = "EINVAL: the client has no name";
                synchronized (lock) {
                    failedClients.put(serviceId, f);
                }
                ClientEntry unusable = new ClientEntry(client, -1, serviceId, name);
                unusable.registered = false;
                return unusable;
            }
            ClientEntry c;
            synchronized (lock) {
                c = new ClientEntry(client, nextClientId++, serviceId, name);
                clients.put(c.id, c);
            }
            for (CoreDevice d : deviceSnapshot()) {
                addClient(d, c);
            }
            return c;
        } finally {
            registration.unlock();
        }
    }

    /**
     * {@code ib_unregister_client()}: a fence; no callback of the client runs after it returns,
     * except the one that called it. Removes run with no registry lock held.
     */
    private void unregisterClient(ClientEntry c) {
        registration.lock();
        try {
            if (!c.registered) {
                synchronized (lock) {
                    failedClients.remove(c.serviceId);
                }
                return;
            }
            c.registered = false;
        } finally {
            registration.unlock();
        }
        for (CoreDevice d : deviceSnapshot()) {
            removeClient(d, c);
        }
        c.awaitUnused();
        synchronized (lock) {
            clients.remove(c.id);
        }
    }

    private List<ClientEntry> clientSnapshot() {
        synchronized (lock) {
            return new ArrayList<>(clients.values());
        }
    }

    private List<CoreDevice> deviceSnapshot() {
        synchronized (lock) {
            return new ArrayList<>(devices);
        }
    }

    // ------------------------------------------------------------------ IbCore

    private CoreDevice own(IbDevice device) {
        if (device instanceof CoreDevice) {
            synchronized (lock) {
                if (devices.contains(device) || ((CoreDevice) device).state() == CoreDevice.State.UNREGISTERED) {
                    return (CoreDevice) device;
                }
            }
        }
        throw new RdmaException(Errno.ENODEV, device + " is not a device of this core");
    }

    @Override
    public IbDevice getByName(String name, String driverId) {
        for (CoreDevice d : deviceSnapshot()) {
            if (d.name().equals(name) && (driverId == null || driverId.equals(d.driverId()))) {
                return d.tryGet() ? d : null;
            }
        }
        return null;
    }

    @Override
    public IbDevice getByNetdev(String netdev, String driverId) {
        for (CoreDevice d : deviceSnapshot()) {
            if (driverId != null && !driverId.equals(d.driverId())) {
                continue;
            }
            for (int p = d.startPort(); p <= Math.max(d.startPort(), d.endPort()); p++) {
                if (netdev.equals(d.netdev(p)) && d.tryGet()) {
                    return d;
                }
            }
        }
        return null;
    }

    @Override
    public List<IbDevice> devices() {
        List<IbDevice> out = new ArrayList<>();
        for (CoreDevice d : deviceSnapshot()) {
            if (d.isRegistered()) {
                out.add(d);
            }
        }
        return out;
    }

    @Override
    public void unregisterDevice(IbDevice device) {
        CoreDevice dev = own(device);
        ProviderEntry entry = null;
        synchronized (lock) {
            Long id = providerIds.get(dev);
            if (id != null) {
                entry = providers.get(id);
            }
        }
        unregister(dev);
        if (entry != null && entry.device == dev) {
            entry.device = null;
            fail(entry, dev.info().nameTemplate, FailedDTO.FAILURE_REASON_UNREGISTERED,
                    "ENODEV: " + dev.name() + " was unregistered through ib_unregister_device");
        }
    }

    @Override
    public void unregisterDeviceAndPut(IbDevice device) {
        CoreDevice dev = own(device);
        dev.put();
        unregisterDevice(dev);
    }

    @Override
    public void unregisterDeviceQueued(IbDevice device) {
        CoreDevice dev = own(device);
        unregWq.execute(() -> unregisterDevice(dev));
    }

    @Override
    public void unregisterDriver(String driverId) {
        while (true) {
            List<CoreDevice> mine = new ArrayList<>();
            for (CoreDevice d : deviceSnapshot()) {
                if (d.driverId().equals(driverId)) {
                    mine.add(d);
                }
            }
            for (CoreDevice d : mine) {
                unregisterDevice(d);
            }
            flushUnregWq();
            if (mine.isEmpty()) {
                return;
            }
        }
    }

    /** {@code flush_workqueue(ib_unreg_wq)}: every queued unregistration before this call is done. */
    private void flushUnregWq() {
        try {
            unregWq.submit(() -> { }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.RejectedExecutionException e) {
            LOG.log(Level.WARNING, "unregistration queue flush failed", e);
        }
    }

    // ------------------------------------------------------------------ DeviceServices

    @Override
    public Executor compWorkqueue() {
        return compWq;
    }

    @Override
    public Executor compUnboundWorkqueue() {
        return compUnboundWq;
    }

    @Override
    public void postEvent(IbEvent event) {
        EventAdmin ea = eventAdmin;
        if (ea == null) {
            return;
        }
        Map<String, Object> props = new HashMap<>();
        props.put(EVENT_DEVICE, event.device().name());
        if (event.device() instanceof CoreDevice) {
            props.put(RdmaNotifyEvent.PROP_DEV_INDEX, ((CoreDevice) event.device()).index());
        }
        props.put(EVENT_TYPE, event.type().name());
        props.put(EVENT_MESSAGE, event.type().message());
        if (event.type().isPortEvent()) {
            props.put(EVENT_PORT, event.portNum());
        }
        if (event.qp() != null) {
            props.put("qpn", event.qp().qpNum());
        }
        ea.postEvent(new Event(event.type().topic(), props));
    }

    @Override
    public void postNotify(RdmaNotifyEvent type, CoreDevice dev, int port, String netdev) {
        EventAdmin ea = eventAdmin;
        if (ea == null) {
            return;
        }
        Map<String, Object> props = new HashMap<>();
        props.put(EVENT_DEVICE, dev.name());
        props.put(RdmaNotifyEvent.PROP_DEV_INDEX, dev.index());
        if (port != 0) {
            props.put(EVENT_PORT, port);
        }
        if (netdev != null) {
            props.put(RdmaNotifyEvent.PROP_NETDEV, netdev);
        }
        ea.postEvent(new Event(type.topic(), props));
    }

    // ------------------------------------------------------------------ IbRuntime

    @Override
    public RuntimeDTO getRuntimeDTO() {
        RuntimeDTO r = new RuntimeDTO();
        List<DeviceDTO> ds = new ArrayList<>();
        for (CoreDevice d : deviceSnapshot()) {
            ds.add(deviceDTO(d));
        }
        r.devices = ds.toArray(new DeviceDTO[0]);
        List<ClientDTO> cs = new ArrayList<>();
        for (ClientEntry c : clientSnapshot()) {
            ClientDTO dto = new ClientDTO();
            dto.name = c.name;
            dto.serviceId = c.serviceId;
            dto.clientId = c.id;
            List<String> names = new ArrayList<>();
            for (CoreDevice d : deviceSnapshot()) {
                CoreDevice.ClientContext ctx = d.context(c.client);
                if (ctx != null && ctx.added()) {
                    names.add(d.name());
                }
            }
            dto.devices = names.toArray(new String[0]);
            cs.add(dto);
        }
        r.clients = cs.toArray(new ClientDTO[0]);
        synchronized (lock) {
            r.failedProviders = providers.values().stream().map(p -> p.failure).filter(f -> f != null)
                    .toArray(FailedDTO[]::new);
            r.failedClients = failedClients.values().toArray(new FailedDTO[0]);
        }
        return r;
    }

    private DeviceDTO deviceDTO(CoreDevice d) {
        DeviceDTO dto = new DeviceDTO();
        dto.index = d.index();
        dto.name = d.name();
        dto.driverId = d.driverId();
        synchronized (lock) {
            dto.providerServiceId = providerIds.getOrDefault(d, -1L);
        }
        dto.nodeType = d.nodeType().name();
        dto.nodeGuid = d.nodeGuid();
        dto.nodeDesc = d.nodeDesc();
        var attrs = d.attrs();
        dto.sysImageGuid = attrs.sysImageGuid;
        dto.fwVer = attrs.fwVer;
        dto.vendorId = attrs.vendorId;
        dto.vendorPartId = attrs.vendorPartId;
        dto.hwVer = attrs.hwVer;
        dto.state = d.state().name();
        dto.refCount = d.refCount();
        dto.clients = d.clientNames().toArray(new String[0]);
        List<PortDTO> ports = new ArrayList<>();
        if (d.state() == CoreDevice.State.REGISTERED) {
            int last = d.nodeType() == NodeType.SWITCH ? 0 : d.endPort();
            for (int p = d.startPort(); p <= last; p++) {
                ports.add(portDTO(d, p));
            }
        }
        dto.ports = ports.toArray(new PortDTO[0]);
        return dto;
    }

    private static PortDTO portDTO(CoreDevice d, int p) {
        PortAttr a = d.queryPort(p);
        PortDTO dto = new PortDTO();
        dto.port = p;
        dto.state = a.state.name();
        dto.physState = a.physState.name();
        dto.linkLayer = a.linkLayer.displayName();
        dto.lid = a.lid;
        dto.smLid = a.smLid;
        dto.lmc = a.lmc;
        dto.maxMtu = a.maxMtu.bytes;
        dto.activeMtu = a.activeMtu.bytes;
        dto.width = a.activeWidth.lanes + "X";
        dto.speed = a.activeSpeed.name();
        dto.capabilityMask = a.portCapFlags;
        dto.netdev = d.netdev(p);
        dto.gids = d.cache().gidStrings(p);
        dto.pkeys = d.cache().pkeys(p);
        return dto;
    }

    @Override
    public ResourceDTO[] resources(String device, String type) {
        Restrack.Type t = null;
        if (type != null) {
            t = Restrack.Type.of(type);
            RdmaException.check(t != null, Errno.EINVAL, "unknown resource type " + type);
        }
        List<ResourceDTO> out = new ArrayList<>();
        for (CoreDevice d : deviceSnapshot()) {
            if (device == null || device.equals(d.name())) {
                out.addAll(d.restrack().dtos(t));
            }
        }
        return out.toArray(new ResourceDTO[0]);
    }

    @Override
    public Map<String, Integer> resourceCounts(String device) {
        for (CoreDevice d : deviceSnapshot()) {
            if (d.name().equals(device)) {
                return d.restrack().counts();
            }
        }
        throw new RdmaException(Errno.ENODEV, "no device " + device);
    }

    @Override
    public Map<String, Long> hwStats(String device, int port) {
        for (CoreDevice d : deviceSnapshot()) {
            if (d.name().equals(device)) {
                return d.hwStats(port);
            }
        }
        throw new RdmaException(Errno.ENODEV, "no device " + device);
    }
}
