package org.rdma.core.internal.verbs;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.rdma.core.internal.cache.DeviceCache;
import org.rdma.core.internal.dma.DmaMapper;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.DeviceModify;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.HwStats;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbCompHandler;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventHandler;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortIndex;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RestrackEntry;
import org.rdma.verbs.runtime.RdmaNotifyEvent;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.DmaSpace;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The core's {@code struct ib_device}: mediates every verb to the driver and is the driver's
 * {@link DeviceContext}.
 *
 * <p>Lifecycle and locking (the registration contract is in {@code org.rdma.verbs}'s package
 * documentation). The registry moves {@link #state} REGISTERING -> REGISTERED -> UNREGISTERING
 * -> UNREGISTERED. {@link #refcount} starts at 1 for the registration itself; each
 * {@link #tryGet()} (only while REGISTERED) and each client context adds one, and
 * {@link #unregCompletion} opens when the count reaches 0, so unregistration waits for holders
 * and for client callbacks still running on other threads. Client contexts
 * ({@code client_data}) are guarded by {@code this}; event handlers by {@link #handlersLock},
 * whose read side is held while handlers run so that unregistering a handler is a fence. No
 * core lock is held while driver code runs, except the handlers' read lock.
 */
public final class CoreDevice implements IbDevice, DeviceContext {
    private static final System.Logger LOG = System.getLogger(CoreDevice.class.getName());

    /** Registration states. */
    public enum State { REGISTERING, REGISTERED, UNREGISTERING, UNREGISTERED }

    /** One client's context on this device: its data and whether its add completed. */
    public static final class ClientContext {
        final int clientId;
        final String clientName;
        volatile Object data;
        volatile boolean added;

        ClientContext(int clientId, String clientName) {
            this.clientId = clientId;
            this.clientName = clientName;
        }

        /** {@code client->client_id}. */
        public int clientId() {
            return clientId;
        }

        /** The data set with {@code ib_set_client_data()}. */
        public Object data() {
            return data;
        }

        /** Whether add completed with 0. */
        public boolean added() {
            return added;
        }

    }

    final IbDeviceProvider provider;
    private final DeviceInfo info;
    private final String name;
    private final int index;
    private final DeviceServices services;
    private final DeviceAttr attrs;
    private final LinkLayer[] linkLayers;
    private final AtomicReferenceArray<String> netdevs;
    final DeviceCache cache;
    final Restrack restrack;
    private final DmaMapper dma = new DmaMapper();
    /** Per port, the driver's counters once allocated ({@code port->hw_stats_data}); guarded by itself. */
    private final Map<Integer, HwStats> hwStats = new java.util.HashMap<>();

    private volatile State state = State.REGISTERING;
    private final AtomicInteger refcount = new AtomicInteger(1);
    private final CountDownLatch unregCompletion = new CountDownLatch(1);

    private final Map<IbClient, ClientContext> clientData = new IdentityHashMap<>();
    private final ReentrantLock unregistrationLock = new ReentrantLock();

    private final List<IbEventHandler> handlers = new CopyOnWriteArrayList<>();
    private final ReentrantReadWriteLock handlersLock = new ReentrantReadWriteLock();

    private final ExecutorService[] softirq;
    private final AtomicInteger anyCqCounter = new AtomicInteger();

    /**
     * {@code ib_register_device()} outside any registry (a test harness, a benchmark): wraps
     * {@code provider} in a device named {@code name}, attaches it and marks it registered; no
     * client is told and no service is published.
     */
    public static CoreDevice register(IbDeviceProvider provider, String name, int index, DeviceServices services) {
        CoreDevice d = new CoreDevice(provider, provider.info(), name, index, services);
        provider.attach(d);
        d.setState(State.REGISTERED);
        return d;
    }

    /**
     * Builds the device from what the driver reports: attributes, port link layers and the
     * caches. Driver exceptions propagate (the registry records them).
     */
    public CoreDevice(IbDeviceProvider provider, DeviceInfo info, String name, int index, DeviceServices services) {
        this.provider = provider;
        this.info = info;
        this.name = name;
        this.index = index;
        this.services = services;
        this.attrs = provider.queryDevice().copy();
        int ports = info.nodeType == NodeType.SWITCH ? 1 : info.physPortCnt;
        this.linkLayers = new LinkLayer[ports];
        for (int i = 0; i < ports; i++) {
            linkLayers[i] = provider.queryPort(startPort() + i).linkLayer;
        }
        this.netdevs = new AtomicReferenceArray<>(ports);
        this.cache = new DeviceCache(this, provider, startPort(), linkLayers);
        for (int p = startPort(); p <= lastPort(); p++) {
            cache.refresh(p);
        }
        this.restrack = new Restrack(name);
        this.softirq = new ExecutorService[Math.max(1, attrs.numCompVectors)];
    }

    // ------------------------------------------------------------------ identity

    @Override
    public String name() {
        return name;
    }

    /** {@code ib_device.index}: unique while registered, never reused (allocated cyclically). */
    public int index() {
        return index;
    }

    @Override
    public String driverId() {
        return info.driverId;
    }

    @Override
    public NodeType nodeType() {
        return info.nodeType;
    }

    @Override
    public long nodeGuid() {
        return info.nodeGuid;
    }

    @Override
    public String nodeDesc() {
        return info.nodeDesc;
    }

    @Override
    public int startPort() {
        return info.nodeType == NodeType.SWITCH ? 0 : 1;
    }

    @Override
    public int endPort() {
        return info.nodeType == NodeType.SWITCH ? 0 : info.physPortCnt;
    }

    private int lastPort() {
        return startPort() + linkLayers.length - 1;
    }

    @Override
    public DeviceAttr attrs() {
        return attrs.copy();
    }

    DeviceAttr attrsRef() {
        return attrs;
    }

    /** The driver info this device was registered with. */
    public DeviceInfo info() {
        return info;
    }

    @Override
    public boolean isRegistered() {
        return state == State.REGISTERED;
    }

    /** The registration state. */
    public State state() {
        return state;
    }

    /** Set by the registry only. */
    public void setState(State s) {
        state = s;
    }

    void checkPort(int port) {
        if (port < startPort() || port > lastPort()) {
            throw new RdmaException(Errno.EINVAL, name + ": no port " + port + " (ports "
                    + startPort() + ".." + lastPort() + ")");
        }
    }

    /** Control-path verbs need a device that is not being removed. */
    void checkAlive() {
        State s = state;
        if (s != State.REGISTERED && s != State.REGISTERING) {
            throw new RdmaException(Errno.ENODEV, name + " is being unregistered");
        }
    }

    // ------------------------------------------------------------------ references

    /** {@code ib_device_try_get()}. */
    public boolean tryGet() {
        if (state != State.REGISTERED) {
            return false;
        }
        int c;
        do {
            c = refcount.get();
            if (c == 0) {
                return false;
            }
        } while (!refcount.compareAndSet(c, c + 1));
        return true;
    }

    @Override
    public void put() {
        int c = refcount.decrementAndGet();
        if (c == 0) {
            unregCompletion.countDown();
        } else if (c < 0) {
            refcount.incrementAndGet();
            throw new RdmaException(Errno.EINVAL, name + ": ib_device_put without a reference");
        }
    }

    /** References held, the registration's included. */
    public int refCount() {
        return refcount.get();
    }

    /** Waits until every reference is put ({@code wait_for_completion(&unreg_completion)}). */
    public void awaitUnreferenced() {
        boolean interrupted = false;
        while (true) {
            try {
                if (unregCompletion.await(10, TimeUnit.SECONDS)) {
                    break;
                }
                LOG.log(Level.WARNING, "{0}: unregistration waits for {1} reference(s) to be put", name, refcount.get());
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ clients

    /** Serialises unregistrations of this device ({@code unregistration_lock}). */
    public ReentrantLock unregistrationLock() {
        return unregistrationLock;
    }

    /** The driver's provider. */
    public IbDeviceProvider provider() {
        return provider;
    }

    /**
     * {@code add_client_context()}, first half: creates the client's context before its add runs
     * and takes a device reference for it, so that unregistering the device waits for a
     * callback another thread is still running; null if a context exists.
     */
    public synchronized ClientContext beginAdd(IbClient client, int clientId, String clientName) {
        if (clientData.containsKey(client)) {
            return null;
        }
        ClientContext ctx = new ClientContext(clientId, clientName);
        clientData.put(client, ctx);
        refcount.incrementAndGet();
        return ctx;
    }

    /** The context of {@code client}, or null. */
    public synchronized ClientContext context(IbClient client) {
        return clientData.get(client);
    }

    /** Sets the {@code CLIENT_DATA_REGISTERED} mark: add completed with 0. */
    public synchronized void addCompleted(ClientContext ctx) {
        ctx.added = true;
    }

    /**
     * {@code remove_client_context()}, first half: clears the mark and returns the context whose
     * remove the caller now runs, or null if add never completed or another caller got it first;
     * so remove runs once per successful add, whoever asks.
     */
    public synchronized ClientContext beginRemove(IbClient client) {
        ClientContext ctx = clientData.get(client);
        if (ctx == null || !ctx.added) {
            return null;
        }
        ctx.added = false;
        return ctx;
    }

    /** Drops the client's context after remove ran or add declined, and its device reference. */
    public void dropContext(IbClient client) {
        synchronized (this) {
            clientData.remove(client);
        }
        put();
    }

    @Override
    public void setClientData(IbClient client, Object data) {
        ClientContext ctx = context(client);
        if (ctx == null) {
            throw new RdmaException(Errno.EINVAL, "client " + client.name() + " is not added to " + name);
        }
        ctx.data = data;
    }

    @Override
    public Object getClientData(IbClient client) {
        ClientContext ctx = context(client);
        return ctx == null ? null : ctx.data;
    }

    @Override
    public synchronized List<String> clientNames() {
        List<ClientContext> added = new ArrayList<>();
        for (ClientContext c : clientData.values()) {
            if (c.added) {
                added.add(c);
            }
        }
        added.sort(Comparator.comparingInt(c -> c.clientId));
        List<String> names = new ArrayList<>();
        for (ClientContext c : added) {
            names.add(c.clientName);
        }
        return names;
    }

    // ------------------------------------------------------------------ ports, caches

    /**
     * {@code ib_get_hw_stats()} as netlink's {@code rdma statistic} reads it: the port's
     * counters by name, empty if the driver has none. The counter object is allocated on the
     * first read ({@code alloc_hw_port_stats}) and reused.
     */
    public Map<String, Long> hwStats(int port) {
        checkPort(port);
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        synchronized (hwStats) {
            HwStats st = hwStats.computeIfAbsent(port, provider::allocHwPortStats);
            if (st == null) {
                hwStats.remove(port);
                return out;
            }
            int n = provider.getHwStats(st, port, st.numCounters());
            if (n < 0) {
                Errno e = Errno.of(n);
                throw new RdmaException(e != null ? e : Errno.EIO, name + "/" + port + ": get_hw_stats failed");
            }
            for (int i = 0; i < st.numCounters(); i++) {
                out.put(st.name(i), st.value[i]);
            }
        }
        return out;
    }

    @Override
    public PortAttr queryPort(int port) {
        checkPort(port);
        PortAttr a = provider.queryPort(port).copy();
        if (a.linkLayer == LinkLayer.INFINIBAND && a.gidTblLen > 0) {
            try {
                a.subnetPrefix = cache.queryGid(port, 0).subnetPrefix();
            } catch (RdmaException e) {
                a.subnetPrefix = 0;
            }
        }
        return a;
    }

    @Override
    public LinkLayer getLinkLayer(int port) {
        checkPort(port);
        return linkLayers[port - startPort()];
    }

    @Override
    public Gid queryGid(int port, int index) {
        return cache.queryGid(port, index);
    }

    @Override
    public GidAttr getGidAttr(int port, int index) {
        return cache.getGidAttr(port, index);
    }

    @Override
    public GidAttr findGidAttr(Gid gid, GidType gidType, String netdev) {
        return cache.findGidAttr(gid, gidType, netdev);
    }

    @Override
    public PortIndex findGid(Gid gid) {
        return cache.findGid(gid);
    }

    @Override
    public int queryPkey(int port, int index) {
        checkPort(port);
        return cache.queryPkey(port, index);
    }

    @Override
    public int findPkey(int port, int pkey) {
        checkPort(port);
        return cache.findPkey(port, pkey);
    }

    /** The cache, for DTOs. */
    public DeviceCache cache() {
        return cache;
    }

    @Override
    public void modifyDevice(int mask, DeviceModify modify) {
        RdmaException.check((mask & ~(DeviceModify.SYS_IMAGE_GUID | DeviceModify.NODE_DESC)) == 0,
                Errno.EOPNOTSUPP, "unsupported ib_modify_device mask 0x" + Integer.toHexString(mask));
        if ((mask & DeviceModify.NODE_DESC) != 0) {
            RdmaException.check(modify.nodeDesc.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 64,
                    Errno.EINVAL, "node description longer than 64 bytes");
        }
        provider.modifyDevice(mask, modify);
        if ((mask & DeviceModify.NODE_DESC) != 0) {
            info.nodeDesc = modify.nodeDesc;
        }
        if ((mask & DeviceModify.SYS_IMAGE_GUID) != 0) {
            attrs.sysImageGuid = modify.sysImageGuid;
        }
    }

    @Override
    public void modifyPort(int port, int mask, PortModify modify) {
        checkPort(port);
        provider.modifyPort(port, mask, modify);
    }

    @Override
    public String netdev(int port) {
        checkPort(port);
        return netdevs.get(port - startPort());
    }

    @Override
    public void setNetdev(int port, String netdev) {
        checkPort(port);
        String old = netdevs.getAndSet(port - startPort(), netdev);
        if (Objects.equals(old, netdev)) {
            return;
        }
        if (old != null) {
            services.postNotify(RdmaNotifyEvent.NETDEV_DETACH, this, port, old);
        }
        if (netdev != null) {
            services.postNotify(RdmaNotifyEvent.NETDEV_ATTACH, this, port, netdev);
        }
    }

    // ------------------------------------------------------------------ events

    @Override
    public void registerEventHandler(IbEventHandler handler) {
        handlersLock.writeLock().lock();
        try {
            handlers.add(handler);
        } finally {
            handlersLock.writeLock().unlock();
        }
    }

    @Override
    public void unregisterEventHandler(IbEventHandler handler) {
        handlersLock.writeLock().lock();
        try {
            handlers.remove(handler);
        } finally {
            handlersLock.writeLock().unlock();
        }
    }

    @Override
    public void dispatchEvent(IbEvent event) {
        Object element = event.qp() != null ? event.qp() : event.cq() != null ? event.cq()
                : event.srq() != null ? event.srq() : event.wq();
        if (element != null) {
            ((CoreObject<?>) element).event(event);
        } else {
            if (refreshesCache(event.type()) && event.portNum() >= startPort() && event.portNum() <= lastPort()) {
                cache.refresh(event.portNum());
            }
            handlersLock.readLock().lock();
            try {
                for (IbEventHandler h : handlers) {
                    try {
                        h.handle(event);
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, name + ": event handler failed on " + event, e);
                    }
                }
            } finally {
                handlersLock.readLock().unlock();
            }
        }
        services.postEvent(event);
    }

    /** The events after which {@code ib_cache_update()} runs. */
    private static boolean refreshesCache(IbEventType t) {
        switch (t) {
            case PORT_ERR: case PORT_ACTIVE: case LID_CHANGE: case PKEY_CHANGE: case CLIENT_REREGISTER:
            case GID_CHANGE:
                return true;
            default:
                return false;
        }
    }

    @Override
    public void cqComplete(IbCq cq) {
        ((CoreCq) cq).complete();
    }

    @Override
    public DmaSpace dma() {
        return dma;
    }

    @Override
    public IbDevice device() {
        return this;
    }

    @Override
    public <T> T providerOf(Object coreObject, Class<T> type) {
        if (!(coreObject instanceof CoreObject) || ((CoreObject<?>) coreObject).dev != this) {
            throw new RdmaException(Errno.EINVAL, coreObject + " was not created on " + name);
        }
        return type.cast(((CoreObject<?>) coreObject).provider);
    }

    // ------------------------------------------------------------------ verbs

    @Override
    public IbPd allocPd(int flags) {
        return allocPd(flags, CallerName.find());
    }

    @Override
    public IbPd allocPd(int flags, String caller) {
        checkAlive();
        return CorePd.alloc(this, flags, caller);
    }

    @Override
    public IbCq allocCq(Object context, int nrCqe, int compVector, PollContext pollCtx) {
        return allocCq(context, nrCqe, compVector, pollCtx, CallerName.find());
    }

    @Override
    public IbCq allocCq(Object context, int nrCqe, int compVector, PollContext pollCtx, String caller) {
        checkAlive();
        RdmaException.check(pollCtx != null, Errno.EINVAL, "ib_alloc_cq needs a poll context");
        return CoreCq.create(this, context, CqInitAttr.of(nrCqe, compVector), pollCtx, null, null, caller);
    }

    @Override
    public IbCq allocCqAny(Object context, int nrCqe, PollContext pollCtx) {
        int vectors = Math.min(Math.max(1, attrs.numCompVectors), Runtime.getRuntime().availableProcessors());
        int vector = vectors > 1 ? Math.floorMod(anyCqCounter.incrementAndGet(), vectors) : 0;
        return allocCq(context, nrCqe, vector, pollCtx, CallerName.find());
    }

    @Override
    public IbCq createCq(IbCompHandler compHandler, IbEventHandler eventHandler, Object context, CqInitAttr attr) {
        checkAlive();
        return CoreCq.create(this, context, attr, null, compHandler, eventHandler, CallerName.find());
    }

    @Override
    public long dmaMapSingle(ByteBuffer buffer) {
        checkAlive();
        return dma.map(buffer);
    }

    @Override
    public void dmaUnmapSingle(long dmaAddr) {
        dma.unmap(dmaAddr);
    }

    /** The softirq-like polling thread of a completion vector, started on first use. */
    synchronized ExecutorService softirq(int vector) {
        ExecutorService e = softirq[vector];
        if (e == null) {
            String thread = "rdma-softirq/" + name + "/" + vector;
            e = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, thread);
                t.setDaemon(true);
                return t;
            });
            softirq[vector] = e;
        }
        return e;
    }

    DeviceServices services() {
        return services;
    }

    /** Restrack counts of this device. */
    public Restrack restrack() {
        return restrack;
    }

    /**
     * Destroys what the clients left behind, in dependency order (QPs are moved to ERR first so
     * their work requests flush through the CQs), then stops the polling threads and drops the
     * DMA mappings and cache references.
     */
    public void destroyLeftovers() {
        List<CoreObject<?>> left = new ArrayList<>();
        for (Object o : restrack.objects()) {
            if (o instanceof CoreObject<?> c) {
                left.add(c);
            }
        }
        if (!left.isEmpty()) {
            LOG.log(Level.WARNING, "{0}: destroying {1} object(s) left by clients", name, left.size());
        }
        for (CoreObject<?> o : left) {
            if (o instanceof CoreQp) {
                ((CoreQp) o).flushForRemoval();
            }
        }
        left.sort(Comparator.comparingInt(CoreObject::cleanupRank));
        for (CoreObject<?> o : left) {
            try {
                o.forceDestroy();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, name + ": cleanup of " + o + " failed", e);
            }
        }
        synchronized (this) {
            for (int i = 0; i < softirq.length; i++) {
                if (softirq[i] != null) {
                    softirq[i].shutdown();
                    try {
                        softirq[i].awaitTermination(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    softirq[i] = null;
                }
            }
        }
        dma.clear();
        cache.clear();
    }

    /** Whether the driver reports {@code IBK_LOCAL_DMA_LKEY}. */
    boolean hasLocalDmaLkey() {
        return (attrs.kernelCapFlags & DeviceCapFlags.IBK_LOCAL_DMA_LKEY) != 0;
    }

    @Override
    public RestrackEntry restrackAdd(String type, String owner, Supplier<Map<String, String>> attrs) {
        RdmaException.check(Restrack.Type.CM_ID.resName().equals(type), Errno.EINVAL,
                name + ": only cm_id objects are tracked for consumers, not '" + type + "'");
        Restrack.Entry e = restrack.add(Restrack.Type.CM_ID, owner != null ? owner : CallerName.find(), attrs);
        return new RestrackEntry() {
            @Override
            public long id() {
                return e.id();
            }

            @Override
            public void del() {
                restrack.del(e);
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
