package org.rdma.cm.internal.ib;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmState;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.mad.MadService;
import org.rdma.mad.sa.SaService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.MadHdr;

/**
 * The CM's engine ({@code struct ib_cm} and cm.c's common machinery): devices and their GSI
 * agents, the work queue every received MAD, send completion and timer goes through
 * ({@code cm.wq}), event delivery to handlers, id destruction, timewait and send errors. The
 * message-specific state machines live in {@link CmConnection}, {@link CmDisconnect},
 * {@link CmSidr} and {@link CmLap}.
 *
 * <p>Threads and locks: consumer calls run on the caller's thread; everything the network or
 * a timer starts runs as work on {@link #wq}, one device's work counted so {@code remove} can
 * fence it. Locks, outermost first: an id's monitor, then {@link CmTables}. Handlers are called
 * with no lock held, one event at a time per id ({@link #deliver}).
 */
final class CmCore {
    private static final System.Logger LOG = System.getLogger(CmCore.class.getName());
    /** The work of which device the current thread runs, to let {@code remove} from inside it proceed. */
    private static final ThreadLocal<CmDevice> IN_WORK = new ThreadLocal<>();

    final IbClock clock;
    final Executor wq;
    final MadService mad;
    final SaService sa;
    final CmTables tables = new CmTables();
    final CmSender sender;
    final CmConnection conn;
    final CmDisconnect disc;
    final CmSidr sidr;
    final CmLap lap;
    private final Map<IbDevice, CmDevice> devices = new ConcurrentHashMap<>();

    CmCore(IbClock clock, Executor wq, MadService mad, SaService sa) {
        this.clock = clock;
        this.wq = wq;
        this.mad = mad;
        this.sa = sa;
        this.sender = new CmSender(mad);
        this.conn = new CmConnection(this);
        this.disc = new CmDisconnect(this);
        this.sidr = new CmSidr(this);
        this.lap = new CmLap(this);
    }

    // ================================================================== devices

    /**
     * {@code cm_add_one()}: a GSI agent for the CM class (Send for the protocol, Get for
     * ClassPortInfo) on every port, and {@code IsCM} in the ports' capability masks.
     *
     * @return 0, or a negative errno if no port could take the CM
     */
    int addDevice(IbDevice device) {
        CmDevice dev = new CmDevice(device);
        MadRegRequest req = MadRegRequest.of(MadHdr.IB_MGMT_CLASS_CM, IbCm.CLASS_VERSION, MadHdr.IB_MGMT_METHOD_SEND,
                MadHdr.IB_MGMT_METHOD_GET);
        List<CmPort> opened = new ArrayList<>();
        try {
            for (int p = device.startPort(); p <= device.endPort(); p++) {
                CmPort port = new CmPort(dev, p);
                port.agent = mad.registerMadAgent(device, p, QpType.GSI, req, 0, this::sendHandler, this::recvHandler,
                        port, 0);
                dev.ports[p] = port;
                opened.add(port);
                setCmSup(device, p, true);
            }
        } catch (RdmaException e) {
            LOG.log(Level.WARNING, "{0}: no IB CM: {1}", device.name(), e.getMessage());
            for (int i = opened.size() - 1; i >= 0; i--) {
                CmPort port = opened.get(i);
                setCmSup(device, port.portNum, false);
                mad.unregisterMadAgent(port.agent);
            }
            return -e.errno().value;
        }
        devices.put(device, dev);
        return 0;
    }

    private static void setCmSup(IbDevice device, int port, boolean on) {
        try {
            device.modifyPort(port, 0, PortModify.capability(PortCapFlags.CM_SUP, on));
        } catch (RdmaException e) {
            LOG.log(Level.DEBUG, "{0}/{1}: IsCM not changed: {2}", device.name(), port, e.getMessage());
        }
    }

    /**
     * {@code cm_remove_one()}: no new work for the device, work already running finishes, the
     * agents go (flushing every outstanding MAD), then every id still on the device is moved out:
     * each connection in progress or established ends as if its last MAD had been flushed
     * ({@code REQ_ERROR} on the active side of a connection being set up, {@code REP_ERROR} on the
     * passive side, {@code DREQ_ERROR} for an established or disconnecting one, with
     * {@link WcStatus#WR_FLUSH_ERR}; {@link IbCmEventType#TIMEWAIT_EXIT} in timewait), it
     * leaves every table and returns to idle, with no path. Listens stop. The ids stay valid
     * until their owners destroy them.
     */
    void removeDevice(IbDevice device) {
        CmDevice dev = devices.remove(device);
        if (dev == null) {
            return;
        }
        dev.fence(IN_WORK.get() == dev);
        for (CmPort port : dev.ports) {
            if (port == null) {
                continue;
            }
            setCmSup(device, port.portNum, false);
            MadAgent agent = port.agent;
            port.agent = null;
            if (agent != null) {
                mad.unregisterMadAgent(agent);
            }
        }
        for (CmIdImpl id : tables.ids()) {
            if (id.device == device) {
                evict(id);
            }
        }
    }

    private void evict(CmIdImpl id) {
        IbCmEvent ev = null;
        boolean free = false;
        synchronized (id) {
            CmTimewait pendingTw = id.pendingTimewait;
            if (pendingTw != null) {
                id.pendingTimewait = null;
                if (pendingTw.timer != null) {
                    pendingTw.timer.cancel();
                }
            }
            IbCmState s = id.state;
            id.msg = null;
            switch (s) {
                case REQ_SENT, MRA_REQ_RCVD, REP_RCVD, MRA_REP_SENT ->
                    ev = new IbCmEvent(IbCmEventType.REQ_ERROR, WcStatus.WR_FLUSH_ERR, null);
                case REQ_RCVD, MRA_REQ_SENT, REP_SENT, MRA_REP_RCVD ->
                    ev = new IbCmEvent(IbCmEventType.REP_ERROR, WcStatus.WR_FLUSH_ERR, null);
                case ESTABLISHED, DREQ_SENT, DREQ_RCVD ->
                    ev = new IbCmEvent(IbCmEventType.DREQ_ERROR, WcStatus.WR_FLUSH_ERR, null);
                case SIDR_REQ_SENT -> ev = new IbCmEvent(IbCmEventType.SIDR_REQ_ERROR, WcStatus.WR_FLUSH_ERR, null);
                case TIMEWAIT -> ev = new IbCmEvent(IbCmEventType.TIMEWAIT_EXIT, null, null);
                default -> {
                }
            }
            if (s == IbCmState.LISTEN) {
                while (!tables.releaseListen(id)) {
                    // every holder of a shared listen loses it with the device
                }
            }
            if (id.timewaitInfo != null) {
                tables.cleanupTimewait(id.timewaitInfo);
                id.timewaitInfo = null;
            }
            tables.removeRemoteSidr(id);
            id.state = IbCmState.IDLE;
            id.lapState = IbCmLapState.UNINIT;
            id.av.clear();
            id.altAv.clear();
            free = id.destroyed;
        }
        if (free) {
            tables.freeLocalId(id);
        } else if (ev != null) {
            deliver(id, ev);
        }
    }

    CmDevice device(IbDevice device) {
        return devices.get(device);
    }

    /** The CM device, or ENODEV. */
    CmDevice requireDevice(IbDevice device) {
        CmDevice d = device == null ? null : devices.get(device);
        if (d == null || d.goingDown) {
            throw new RdmaException(Errno.ENODEV,
                    (device == null ? "null device" : device.name()) + ": the IB CM does not serve this device");
        }
        return d;
    }

    long counter(IbDevice device, int portNum, IbCmCounterGroup group, int attrId) {
        CmDevice d = devices.get(device);
        CmPort p = d == null ? null : d.port(portNum);
        return p == null ? 0 : p.counter(group, attrId);
    }

    // ================================================================== work

    /** Runs {@code task} on the work queue as work of {@code dev}; dropped if the device is going away. */
    void queue(CmDevice dev, Runnable task) {
        if (dev.goingDown) {
            return;
        }
        try {
            wq.execute(() -> work(dev, task));
        } catch (RejectedExecutionException e) {
            LOG.log(Level.DEBUG, "IB CM work queue stopped; work for {0} dropped", dev.device.name());
        }
    }


    /** One work item of {@code dev}: counted for the removal fence; a failure is logged, not thrown. */
    private static void work(CmDevice dev, Runnable task) {
        if (!dev.enter()) {
            return;
        }
        CmDevice outer = IN_WORK.get();
        IN_WORK.set(dev);
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "IB CM work on " + dev.device.name() + " failed", e);
        } finally {
            IN_WORK.set(outer);
            dev.exit();
        }
    }

    /** {@code cm_recv_handler()}: queues the MAD for the work queue. */
    private void recvHandler(MadAgent agent, MadSendBuf sendBuf, MadRecvWc wc) {
        CmPort port = (CmPort) agent.context();
        queue(port.cmDev, () -> recv(port, wc));
    }

    /** {@code cm_work_handler()} for a received MAD: checks the header and runs the message's handler. */
    void recv(CmPort port, MadRecvWc wc) {
        if (wc.madLen() < MadHdr.IB_MGMT_MAD_SIZE) {
            port.dropped.incrementAndGet();
            return;
        }
        MadHdr h = wc.hdr();
        if (h.mgmtClass != MadHdr.IB_MGMT_CLASS_CM || h.classVersion != IbCm.CLASS_VERSION) {
            port.dropped.incrementAndGet();
            return;
        }
        if (h.method == MadHdr.IB_MGMT_METHOD_GET) {
            CmClassPortInfo.answer(this, port, wc, h);
            return;
        }
        if (h.method != MadHdr.IB_MGMT_METHOD_SEND) {
            port.dropped.incrementAndGet();
            return;
        }
        port.count(IbCmCounterGroup.RECV, h.attrId, 1);
        switch (h.attrId) {
            case IbCm.REQ_ATTR_ID -> conn.reqHandler(port, wc);
            case IbCm.MRA_ATTR_ID -> conn.mraHandler(port, wc);
            case IbCm.REJ_ATTR_ID -> conn.rejHandler(port, wc);
            case IbCm.REP_ATTR_ID -> conn.repHandler(port, wc);
            case IbCm.RTU_ATTR_ID -> conn.rtuHandler(port, wc);
            case IbCm.DREQ_ATTR_ID -> disc.dreqHandler(port, wc);
            case IbCm.DREP_ATTR_ID -> disc.drepHandler(port, wc);
            case IbCm.SIDR_REQ_ATTR_ID -> sidr.reqHandler(port, wc);
            case IbCm.SIDR_REP_ATTR_ID -> sidr.repHandler(port, wc);
            case IbCm.LAP_ATTR_ID -> lap.lapHandler(port, wc);
            case IbCm.APR_ATTR_ID -> lap.aprHandler(port, wc);
            default -> port.dropped.incrementAndGet();
        }
    }

    /** {@code cm_send_handler()}: counts the message and its retries, then frees it or reports the failure. */
    private void sendHandler(MadAgent agent, MadSendWc wc) {
        CmPort port = (CmPort) agent.context();
        MadSendBuf m = wc.sendBuf();
        int attrId = (m.mad()[16] & 0xFF) << 8 | m.mad()[17] & 0xFF;
        CmSender.Sent sent = m.context(1) instanceof CmSender.Sent s ? s : null;
        int retried = sent == null ? 0 : Math.max(0, m.retries() - sent.retries);
        port.count(IbCmCounterGroup.XMIT, attrId, 1 + retried);
        port.count(IbCmCounterGroup.XMIT_RETRIES, attrId, retried);
        // freed at once: the error work below only compares the buffer's identity, and is
        // dropped if the device goes away meanwhile
        sender.free(m);
        if (wc.status() != WcStatus.SUCCESS && wc.status() != WcStatus.WR_FLUSH_ERR && sent != null
                && m.context(0) instanceof CmIdImpl id) {
            queue(port.cmDev, () -> sendError(id, m, sent, wc.status()));
        }
    }

    /** {@code cm_process_send_error()}: an unanswered request fails the step it was sent for. */
    private void sendError(CmIdImpl id, MadSendBuf m, CmSender.Sent sent, WcStatus status) {
        IbCmEventType type = null;
        synchronized (id) {
            if (m == id.msg && sent.state == id.state) {
                switch (sent.state) {
                    case REQ_SENT, MRA_REQ_RCVD -> {
                        resetToIdle(id);
                        type = IbCmEventType.REQ_ERROR;
                    }
                    case REP_SENT, MRA_REP_RCVD -> {
                        resetToIdle(id);
                        type = IbCmEventType.REP_ERROR;
                    }
                    case DREQ_SENT -> {
                        enterTimewait(id);
                        type = IbCmEventType.DREQ_ERROR;
                    }
                    case SIDR_REQ_SENT -> {
                        id.state = IbCmState.IDLE;
                        type = IbCmEventType.SIDR_REQ_ERROR;
                    }
                    case ESTABLISHED -> {
                        if (sent.lapState == IbCmLapState.LAP_SENT && (id.lapState == IbCmLapState.LAP_SENT
                                || id.lapState == IbCmLapState.MRA_LAP_RCVD)) {
                            id.lapState = IbCmLapState.IDLE;
                            type = IbCmEventType.LAP_ERROR;
                        }
                    }
                    default -> {
                    }
                }
                if (type != null) {
                    id.msg = null;
                }
            }
        }
        if (type != null) {
            deliver(id, new IbCmEvent(type, status, null));
        }
    }

    // ================================================================== events

    /**
     * {@code cm_process_work()}: calls the id's handler with {@code event}, or queues the event
     * if a handler of the id runs already (that call delivers it next). A non-zero return
     * destroys the id. Events for a destroyed id are dropped.
     */
    void deliver(CmIdImpl id, IbCmEvent event) {
        synchronized (id) {
            if (id.destroyed) {
                return;
            }
            if (id.delivering) {
                id.pending.add(event);
                return;
            }
            id.delivering = true;
            id.handlerThread = Thread.currentThread();
        }
        IbCmEvent ev = event;
        while (true) {
            int ret;
            try {
                ret = id.handler.handle(id, ev);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "IB CM handler of " + id + " threw on " + ev.event(), e);
                ret = 0;
            }
            synchronized (id) {
                ev = ret != 0 || id.destroyed ? null : id.pending.poll();
                if (ev == null) {
                    id.pending.clear();
                    id.delivering = false;
                    id.handlerThread = null;
                    id.notifyAll();
                }
            }
            if (ev == null) {
                if (ret != 0) {
                    destroy(id, ret);
                }
                return;
            }
        }
    }

    /**
     * The held GID table entry an address vector sends from ({@code ah_attr.grh.sgid_attr}), for
     * event parameters that lend it to the handler; {@code null} without a GRH. The caller puts it.
     */
    static GidAttr sgidAttr(CmAv av) {
        if (av.port == null || !av.ahAttr.hasGrh()) {
            return null;
        }
        try {
            return av.port.device().getGidAttr(av.port.portNum, av.ahAttr.grh.sgidIndex);
        } catch (RdmaException e) {
            return null;
        }
    }

    /** Delivers an event whose parameters lend {@code attr}, then drops the reference. */
    void deliverLending(CmIdImpl id, IbCmEvent event, GidAttr attr) {
        try {
            deliver(id, event);
        } finally {
            if (attr != null) {
                attr.put();
            }
        }
    }

    // ================================================================== destroy

    /**
     * {@code cm_destroy_id()}: leaves the id's state the way the IBTA wants (REJ, DREQ, DREP or
     * SIDR_REP(REJECT) as due), takes it out of the tables and waits for a handler of it running
     * on another thread. The local ID stays reserved while the id waits out timewait.
     */
    void destroy(CmIdImpl id, int err) {
        synchronized (id) {
            if (id.destroyed) {
                return;
            }
            if (id.state == IbCmState.LISTEN) {
                if (!tables.releaseListen(id)) {
                    return;
                }
                id.state = IbCmState.IDLE;
            }
            id.destroyed = true;
        }
        leaveState(id, err);
        boolean keep;
        synchronized (id) {
            if (id.timewaitInfo != null) {
                tables.cleanupTimewait(id.timewaitInfo);
                id.timewaitInfo = null;
            }
            tables.removeRemoteSidr(id);
            keep = id.pendingTimewait != null;
            id.altAv.clear();
            boolean interrupted = false;
            while (id.delivering && id.handlerThread != Thread.currentThread()) {
                try {
                    id.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (!keep) {
            tables.freeLocalId(id);
        }
    }

    /** The state part of {@code cm_destroy_id()}; send failures do not stop the destruction. */
    private void leaveState(CmIdImpl id, int err) {
        for (int pass = 0; pass < 2; pass++) {
            IbCmState s;
            synchronized (id) {
                s = id.state;
                switch (s) {
                    case SIDR_REQ_SENT -> {
                        id.state = IbCmState.IDLE;
                        sender.cancel(id);
                        return;
                    }
                    case REQ_SENT, MRA_REQ_RCVD, REP_SENT, MRA_REP_RCVD -> sender.cancel(id);
                    case DREQ_SENT -> {
                        sender.cancel(id);
                        enterTimewait(id);
                        return;
                    }
                    case REQ_RCVD -> {
                        if (err == Errno.ENOMEM.negative()) {
                            resetToIdle(id);
                            return;
                        }
                    }
                    default -> {
                    }
                }
            }
            try {
                switch (s) {
                    case SIDR_REQ_RCVD -> sidr.reject(id);
                    case REQ_SENT, MRA_REQ_RCVD -> conn.sendRej(id, org.rdma.cm.ib.IbCmRejReason.TIMEOUT,
                            longBytes(id.device.nodeGuid()), null);
                    case REQ_RCVD, REP_SENT, MRA_REP_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT ->
                        conn.sendRej(id, org.rdma.cm.ib.IbCmRejReason.CONSUMER_DEFINED, null, null);
                    case ESTABLISHED -> {
                        if (id.qpType == QpType.XRC_TGT) {
                            return;
                        }
                        disc.sendDreq(id, null);
                        continue;
                    }
                    case DREQ_RCVD -> disc.sendDrep(id, null);
                    default -> {
                    }
                }
            } catch (RdmaException e) {
                LOG.log(Level.DEBUG, "{0}: leaving {1} on destroy: {2}", id, s, e.getMessage());
                synchronized (id) {
                    if (id.state == s && s == IbCmState.ESTABLISHED) {
                        enterTimewait(id);
                    } else if (id.state == s && s != IbCmState.TIMEWAIT) {
                        resetToIdle(id);
                    }
                }
            }
            return;
        }
    }

    static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    // ================================================================== idle and timewait

    /** {@code cm_reset_to_idle()}; caller holds the id's lock. */
    void resetToIdle(CmIdImpl id) {
        id.state = IbCmState.IDLE;
        if (id.timewaitInfo != null) {
            tables.cleanupTimewait(id.timewaitInfo);
            id.timewaitInfo = null;
        }
    }

    /**
     * {@code cm_enter_timewait()}: the peer's entries leave the tables and the id waits one
     * ACK timeout of its path before {@link IbCmEventType#TIMEWAIT_EXIT} (and before a destroyed
     * id's local ID is reused). Caller holds the id's lock.
     */
    void enterTimewait(CmIdImpl id) {
        CmTimewait tw = id.timewaitInfo != null ? id.timewaitInfo : new CmTimewait(id.localId);
        tables.cleanupTimewait(tw);
        id.timewaitInfo = null;
        id.state = IbCmState.TIMEWAIT;
        CmDevice dev = devices.get(id.device);
        if (dev == null || dev.goingDown) {
            return;
        }
        id.pendingTimewait = tw;
        tw.remoteQpn = id.remoteQpn;
        tw.timer = clock.schedule(() -> queue(dev, () -> timewaitExpired(id, tw)), CmTime.toMs(id.av.timeout),
                TimeUnit.MILLISECONDS);
    }

    /** {@code cm_timewait_handler()}. */
    private void timewaitExpired(CmIdImpl id, CmTimewait tw) {
        boolean destroyed;
        synchronized (id) {
            if (id.pendingTimewait != tw) {
                return;
            }
            id.pendingTimewait = null;
            destroyed = id.destroyed;
            if (id.state == IbCmState.TIMEWAIT) {
                id.state = IbCmState.IDLE;
            } else if (!destroyed) {
                return;
            }
        }
        if (destroyed) {
            tables.freeLocalId(id);
            return;
        }
        deliver(id, new IbCmEvent(IbCmEventType.TIMEWAIT_EXIT, null, null));
    }
}
