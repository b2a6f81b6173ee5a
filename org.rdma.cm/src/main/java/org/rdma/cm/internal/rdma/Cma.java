package org.rdma.cm.internal.rdma;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmService;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaCmHandler;
import org.rdma.cm.rdma.RdmaCmIdDTO;
import org.rdma.cm.rdma.RdmaCmState;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.mad.sa.SaClient;
import org.rdma.mad.sa.SaService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RestrackEntry;
import org.rdma.verbs.time.IbClock;

/**
 * The RDMA CM's engine (cma.c's globals and common machinery): the devices served
 * ({@code dev_list}), the wildcard listeners ({@code listen_any_list}), the port spaces, every id
 * alive, event delivery to handlers and channels, the work queue ({@code cma_wq}) address and
 * route results go through, id destruction and device removal. The protocol steps live in
 * {@link CmaResolver}, {@link CmaRoute}, {@link CmaConn}, {@link CmaListen}, {@link CmaQp} and
 * {@link CmaMulticast}.
 *
 * <p>Threads and locks: consumer calls run on the caller's thread; IB CM events arrive on the IB
 * CM's work queue; address, route and multicast results on {@link #wq}. Locks, outermost first:
 * an id's handler lock, then its monitor or {@link #lock} ({@code lock} in cma.c, for the device
 * list, the listen lists and the port spaces), never the other way round; handlers are called
 * with the id's handler lock held and no other CM lock.
 */
final class Cma {
    private static final System.Logger LOG = System.getLogger(Cma.class.getName());
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** The owner name of resources the CM allocates itself ({@code KBUILD_MODNAME}). */
    static final String MODNAME = "rdma_cm";

    final IbClock clock;
    final Executor wq;
    final IbCmService ibcm;
    final SaService sa;
    final SaClient saClient = new SaClient();
    /** {@code lock}: devices, listen lists, port spaces, ids' device and port bindings. */
    final Object lock = new Object();
    final Map<IbDevice, CmaDevice> devices = new LinkedHashMap<>();
    final List<CmaId> listenAny = new ArrayList<>();
    final CmaPorts ports = new CmaPorts();
    final Map<Long, CmaId> ids = new ConcurrentHashMap<>();
    /** Events handed out by {@code rdma_get_cm_event()} and not acknowledged, with their channel. */
    final Map<RdmaCmEvent, EventChannelImpl> readEvents = new ConcurrentHashMap<>();
    private final AtomicLong nextIdn = new AtomicLong();

    final CmaResolver resolver = new CmaResolver(this);
    final CmaRoute route = new CmaRoute(this);
    final CmaQp qp = new CmaQp(this);
    final CmaConn conn = new CmaConn(this);
    final CmaListen listen = new CmaListen(this);
    final CmaMulticast mc = new CmaMulticast(this);

    Cma(IbClock clock, Executor wq, IbCmService ibcm, SaService sa) {
        this.clock = clock;
        this.wq = wq;
        this.ibcm = ibcm;
        this.sa = sa;
        sa.registerClient(saClient);
    }

    /** Leaves the SA (waits for queries under way to call back). */
    void close() {
        sa.unregisterClient(saClient);
    }

    // ================================================================== ids

    /** {@code __rdma_create_id()}. */
    CmaId createId(RdmaCmHandler handler, EventChannelImpl channel, Object context, RdmaPortSpace ps, QpType qpType,
            String owner, CmaId parent) {
        RdmaException.check(ps != null, Errno.EINVAL, "rdma_create_id: a port space is required");
        Cma.check(qpType == QpType.RC || qpType == QpType.UC || qpType == QpType.UD, Errno.EINVAL,
                () -> "rdma_create_id: the RDMA CM connects RC, UC and UD QPs, not " + qpType);
        CmaId id = new CmaId(this, nextIdn.getAndIncrement(), ps, qpType, owner, parent, handler, channel, context,
                ThreadLocalRandom.current().nextInt() & 0xFF_FFFF);
        if (channel != null) {
            channel.attach(id);
        }
        ids.put(id.idn, id);
        return id;
    }

    /** The owner name of a class: its bundle's symbolic name, else its package (outside a framework). */
    private static final ClassValue<String> OWNER = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> c) {
            Bundle b = FrameworkUtil.getBundle(c);
            return b != null ? b.getSymbolicName() : c.getPackageName();
        }
    };

    /**
     * The owner of an id with callbacks ({@code KBUILD_MODNAME}): the bundle of its handler's
     * class, which is the consumer's, found without walking the stack.
     */
    static String ownerOf(Object handler) {
        return OWNER.get(handler.getClass());
    }

    /** The symbolic name of the bundle calling into the CM, as the kernel records {@code KBUILD_MODNAME}. */
    static String callerName() {
        Class<?> caller = WALKER.walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(c -> !c.getPackageName().startsWith("org.rdma.cm.internal.rdma"))
                .findFirst().orElse(null));
        return caller == null ? "unknown" : OWNER.get(caller);
    }

    List<RdmaCmIdDTO> dtos() {
        List<RdmaCmIdDTO> out = new ArrayList<>();
        for (CmaId id : ids.values()) {
            out.add(id.dto());
        }
        out.sort((a, b) -> Long.compare(a.cmIdn, b.cmIdn));
        return out;
    }

    // ================================================================== events

    /**
     * {@code cma_cm_event_handler()}: the consumer's handler, or the id's channel; the caller holds
     * the id's handler lock. A per-device listener hands nothing to a consumer: it asks to be
     * destroyed when its device goes ({@code cma_listen_handler()}).
     */
    int callHandler(CmaId id, RdmaCmEvent event) {
        if (id.isInternal()) {
            return event.event() == RdmaCmEventType.DEVICE_REMOVAL ? -1 : 0;
        }
        EventChannelImpl ch = id.channel;
        if (ch != null) {
            return ch.enqueue(id, event);
        }
        try {
            return id.handler.handle(id, event);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "RDMA CM handler of " + id + " threw on " + event.event(), e);
            return 0;
        }
    }

    /**
     * {@code cma_work_handler()}: later on the work queue, unless the id is being destroyed or
     * lost its device, and (when {@code from} is given) only if it is still in {@code from}: the
     * id moves to {@code to} and the handler gets {@code event}.
     */
    void queueWork(CmaId id, RdmaCmState from, RdmaCmState to, RdmaCmEvent event) {
        wq.execute(() -> runWork(id, from, to, event));
    }

    private void runWork(CmaId id, RdmaCmState from, RdmaCmState to, RdmaCmEvent event) {
        id.handlerLock.lock();
        RdmaCmState s = id.stateNow();
        if (s == RdmaCmState.DESTROYING || s == RdmaCmState.DEVICE_REMOVAL || from != null && !id.compExch(from, to)) {
            id.handlerLock.unlock();
            return;
        }
        if (callHandler(id, event) != 0) {
            destroyHandlerUnlock(id);
            return;
        }
        id.handlerLock.unlock();
    }

    /**
     * {@link RdmaException#check} with the message built only on failure: the checks sit on the
     * connection path, and an id's description costs more than the check.
     */
    static void check(boolean ok, Errno errno, java.util.function.Supplier<String> what) {
        if (!ok) {
            throw new RdmaException(errno, what.get());
        }
    }

    /** An event with no parameters. */
    static RdmaCmEvent event(CmaId id, RdmaCmEventType type, int status) {
        return new RdmaCmEvent(type, status, id, null, null, null);
    }

    // ================================================================== destroy

    /** {@code rdma_destroy_id()}. */
    void destroyId(CmaId id) {
        Cma.check(!id.handlerLock.isHeldByCurrentThread(), Errno.EINVAL, () -> "rdma_destroy_id: " + id
                + " is destroyed from its own handler; return non-zero from the handler instead");
        synchronized (id) {
            Cma.check(id.unacked == 0, Errno.EBUSY, () -> "rdma_destroy_id: " + id + " has " + id.unacked
                    + " event(s) read and not acknowledged (rdma_ack_cm_event)");
        }
        id.handlerLock.lock();
        destroyHandlerUnlock(id);
    }

    /**
     * {@code destroy_id_handler_unlock()}: the id becomes {@link RdmaCmState#DESTROYING} under its
     * handler lock, which fences every later handler call, then is torn down without the lock.
     */
    void destroyHandlerUnlock(CmaId id) {
        RdmaCmState s;
        synchronized (id) {
            s = id.state;
            id.state = RdmaCmState.DESTROYING;
        }
        id.handlerLock.unlock();
        if (s != RdmaCmState.DESTROYING) {
            destroyInternal(id, s);
        }
    }

    /** {@code _destroy_id()}: cancel, leave the connection and groups, free the QP, device and port. */
    private void destroyInternal(CmaId id, RdmaCmState state) {
        cancelOperation(id, state);
        ids.remove(id.idn);
        releaseDeviceResources(id);
        synchronized (lock) {
            ports.release(id);
        }
        EventChannelImpl ch = id.channel;
        if (ch != null) {
            for (CmaId orphan : ch.detach(id)) {
                orphan.handlerLock.lock();
                destroyHandlerUnlock(orphan);
            }
        }
    }

    /**
     * What an id holds on its device: the IB CM id (its destruction sends the REJ, DREQ or DREP
     * its state calls for), multicast groups, the QP of {@code rdma_create_qp()}, the device
     * binding and GID entry.
     */
    private void releaseDeviceResources(CmaId id) {
        IbCmId cm = id.cmId;
        id.cmId = null;
        if (cm != null) {
            destroyCmIdQuietly(cm);
        }
        mc.leaveAll(id);
        qp.destroyLeftover(id);
        releaseDev(id);
    }

    void destroyCmIdQuietly(IbCmId cm) {
        try {
            ibcm.destroyCmId(cm);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "ib_destroy_cm_id({0}): {1}", cm, e.getMessage());
        }
    }

    /** {@code cma_cancel_operation()}. */
    private void cancelOperation(CmaId id, RdmaCmState state) {
        switch (state) {
            case ADDR_QUERY -> resolver.cancel(id);
            case ROUTE_QUERY -> route.cancel(id);
            case LISTEN -> {
                boolean wildcard;
                synchronized (lock) {
                    wildcard = id.cmaDev == null;
                }
                if (wildcard) {
                    listen.cancelListens(id);
                }
            }
            default -> {
            }
        }
    }

    // ================================================================== devices

    /**
     * {@code cma_attach_to_dev()} with {@code rdma_restrack_add()}: binds the id to a device and
     * port with its source GID entry (already held by the caller, released here if the device is
     * gone); {@code rdma res show cm_id} lists it from now on.
     */
    void attachDev(CmaId id, CmaDevice cd, int port, GidAttr sgidAttr) {
        synchronized (lock) {
            if (devices.get(cd.device) != cd) {
                if (sgidAttr != null) {
                    sgidAttr.put();
                }
                throw new RdmaException(Errno.ENODEV, cd.device.name() + " is going away");
            }
            cd.ids.add(id);
            id.cmaDev = cd;
        }
        id.device = cd.device;
        id.port = port;
        id.sgidAttr = sgidAttr;
        try {
            id.res = cd.device.restrackAdd("cm_id", id.owner, id::resAttrs);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "{0}: cm_id not tracked: {1}", cd.device.name(), e.getMessage());
        }
    }

    /** {@code cma_release_dev()} with {@code rdma_restrack_del()}. */
    void releaseDev(CmaId id) {
        RestrackEntry res = id.res;
        id.res = null;
        if (res != null) {
            res.del();
        }
        synchronized (lock) {
            CmaDevice cd = id.cmaDev;
            if (cd != null) {
                cd.ids.remove(id);
                id.cmaDev = null;
            }
        }
        GidAttr a = id.sgidAttr;
        id.sgidAttr = null;
        if (a != null) {
            a.put();
        }
        id.device = null;
        id.port = 0;
    }

    CmaDevice cmaDevice(IbDevice d) {
        synchronized (lock) {
            return devices.get(d);
        }
    }

    List<CmaDevice> deviceList() {
        synchronized (lock) {
            return new ArrayList<>(devices.values());
        }
    }

    /** {@code cma_add_one()}: the device joins, and every wildcard listener listens on it. */
    int addDevice(IbDevice device) {
        CmaDevice cd = new CmaDevice(device);
        List<CmaId> any;
        synchronized (lock) {
            devices.put(device, cd);
            any = new ArrayList<>(listenAny);
        }
        for (CmaId l : any) {
            try {
                listen.listenOnDev(l, cd);
            } catch (RdmaException e) {
                LOG.log(Level.WARNING, "{0}: wildcard listen {1} not extended: {2}", device.name(), l, e.getMessage());
            }
        }
        return 0;
    }

    /**
     * {@code cma_remove_one()} and {@code cma_process_remove()}: every id bound to the device
     * gets {@link RdmaCmEventType#DEVICE_REMOVAL} (per-device listeners are destroyed); an id
     * whose handler returns non-zero is destroyed, any other loses what it holds on the device
     * (IB CM id, QP, groups, binding) and stays, in {@link RdmaCmState#DEVICE_REMOVAL}, until
     * its owner destroys it. When this returns nothing of the CM refers to the device.
     */
    void removeDevice(IbDevice device) {
        CmaDevice cd;
        synchronized (lock) {
            cd = devices.remove(device);
        }
        if (cd == null) {
            return;
        }
        while (true) {
            CmaId id;
            synchronized (lock) {
                if (cd.ids.isEmpty()) {
                    break;
                }
                id = cd.ids.iterator().next();
                cd.ids.remove(id);
                id.cmaDev = null;
                if (id.parent != null) {
                    id.parent.listenList.remove(id);
                }
            }
            sendDeviceRemoval(id);
        }
    }

    /** {@code cma_send_device_removal_put()}. */
    private void sendDeviceRemoval(CmaId id) {
        id.handlerLock.lock();
        RdmaCmState s;
        synchronized (id) {
            s = id.state;
            if (s == RdmaCmState.DESTROYING || s == RdmaCmState.DEVICE_REMOVAL) {
                id.handlerLock.unlock();
                return;
            }
            id.state = RdmaCmState.DEVICE_REMOVAL;
        }
        if (callHandler(id, event(id, RdmaCmEventType.DEVICE_REMOVAL, 0)) != 0) {
            synchronized (id) {
                id.state = s;
            }
            destroyHandlerUnlock(id);
            return;
        }
        id.handlerLock.unlock();
        cancelOperation(id, s);
        releaseDeviceResources(id);
    }
}
