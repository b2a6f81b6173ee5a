package org.rdma.mad.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvHandler;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendHandler;
import org.rdma.mad.MadService;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.MadHdr;

/**
 * The MAD layer: {@code ib_mad_init()}'s client. On {@code add(device)} every port gets its
 * special QPs ({@code ib_mad_port_open()}); on {@code remove} they go ({@code ib_mad_port_close()}).
 * Agents register through {@link MadService}.
 *
 * <p>Contexts: receive and send completions run in the MAD CQs' poll context
 * ({@link PollContext#UNBOUND_WORKQUEUE} by default, as the kernel's); response timeouts and
 * cancellations run on {@link #workqueue()} ({@code port_priv->wq}); timers use the injected
 * {@link IbClock}. Locks: {@link #devices} is a concurrent map; per-port and per-agent locks
 * are never held while handlers or verbs run.
 *
 * <p>The {@link IbClient} is registered by {@link #activate} and withdrawn first thing in
 * {@link #deactivate}, not as a service of the component: SCR unregisters {@link MadService}
 * before it calls {@code deactivate}, which deactivates every user of it (the SA client, umad,
 * the CM, the SM) and so removes them from each device first; they destroy the address handles
 * they made on the port's PD before the MAD layer closes the port. Registered together, the
 * framework would tell the core and SCR of their withdrawal in no defined order (in the kernel,
 * module references keep ib_mad loaded until ib_sa and ib_cm are gone).
 */
@Component(service = MadService.class, immediate = true)
public final class MadLayer implements IbClient, MadService {
    private static final System.Logger LOG = System.getLogger(MadLayer.class.getName());
    /** Size of an IB MAD. */
    static final int MAD_SIZE = MadHdr.IB_MGMT_MAD_SIZE;
    /** {@code mad_sendq_size}. */
    static final int SEND_QUEUE_SIZE = 128;
    /** {@code mad_recvq_size}. */
    static final int RECV_QUEUE_SIZE = 512;

    private final IbClock clock;
    private final Executor workqueue;
    private final ExecutorService ownedWorkqueue;
    private final PollContext pollContext;
    private final Map<IbDevice, MadPort[]> devices = new ConcurrentHashMap<>();
    /** {@code ib_mad_client_id}: the hi_tid of the next agent. */
    private final AtomicInteger nextHiTid = new AtomicInteger();
    private final SmaAgent sma = new SmaAgent();
    private ServiceRegistration<IbClient> clientRegistration;

    /** The DS constructor: real time, a private workqueue, unbound-workqueue CQs. */
    @Activate
    public MadLayer(@Reference IbClock clock) {
        this(clock, null, PollContext.UNBOUND_WORKQUEUE);
    }

    /**
     * For embedding and tests.
     *
     * @param clock       timers
     * @param workqueue   where timeouts and cancellations are reported; {@code null} for a private thread
     * @param pollContext the MAD CQs' poll context
     */
    public MadLayer(IbClock clock, Executor workqueue, PollContext pollContext) {
        this.clock = clock;
        if (workqueue == null) {
            this.ownedWorkqueue = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "ib_mad");
                t.setDaemon(true);
                return t;
            });
            this.workqueue = ownedWorkqueue;
        } else {
            this.ownedWorkqueue = null;
            this.workqueue = workqueue;
        }
        this.pollContext = pollContext;
    }

    /** Becomes a client of the core's devices once built (see the class comment). */
    @Activate
    void activate(BundleContext bc) {
        clientRegistration = bc.registerService(IbClient.class, this, null);
    }

    /** Leaves the devices, closes every port still open, then stops the private workqueue. */
    @Deactivate
    public void deactivate() {
        if (clientRegistration != null) {
            clientRegistration.unregister();
            clientRegistration = null;
        }
        for (IbDevice d : new ArrayList<>(devices.keySet())) {
            closeDevice(d);
        }
        if (ownedWorkqueue != null) {
            ownedWorkqueue.shutdown();
            try {
                ownedWorkqueue.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    IbClock clock() {
        return clock;
    }

    Executor workqueue() {
        return workqueue;
    }

    PollContext pollContext() {
        return pollContext;
    }

    SmaAgent sma() {
        return sma;
    }

    // ------------------------------------------------------------------ IbClient

    @Override
    public String name() {
        return "mad";
    }

    /** {@code ib_mad_init_device()}: opens every port; a port that fails unwinds the ones before. */
    @Override
    public int add(IbDevice device) {
        if (device.startPort() == 0) {
            return -Errno.EOPNOTSUPP.value;
        }
        try {
            openDevice(device);
        } catch (RdmaException e) {
            LOG.log(Level.WARNING, "{0}: MAD layer not available: {1}", device.name(), e.getMessage());
            return -e.errno().value;
        }
        return 0;
    }

    /** {@code ib_mad_remove_device()}. */
    @Override
    public void remove(IbDevice device, Object clientData) {
        closeDevice(device);
    }

    private MadPort[] openDevice(IbDevice device) {
        synchronized (devices) {
            MadPort[] ports = devices.get(device);
            if (ports != null) {
                return ports;
            }
            ports = new MadPort[device.endPort() + 1];
            List<MadPort> opened = new ArrayList<>();
            try {
                for (int p = device.startPort(); p <= device.endPort(); p++) {
                    MadPort mp = new MadPort(this, device, p);
                    mp.open();
                    opened.add(mp);
                    ports[p] = mp;
                }
            } catch (RuntimeException e) {
                for (int i = opened.size() - 1; i >= 0; i--) {
                    opened.get(i).close();
                }
                throw e;
            }
            devices.put(device, ports);
            return ports;
        }
    }

    private void closeDevice(IbDevice device) {
        MadPort[] ports;
        synchronized (devices) {
            ports = devices.remove(device);
        }
        if (ports == null) {
            return;
        }
        for (int p = ports.length - 1; p >= 0; p--) {
            if (ports[p] != null) {
                ports[p].close();
            }
        }
    }

    /** The open port, opening the device on first use ({@code ib_get_mad_port()}); ENODEV/EINVAL. */
    MadPort port(IbDevice device, int portNum) {
        // the messages are built only on failure: this runs for every agent and AH a consumer makes
        if (device == null || !device.isRegistered()) {
            throw new RdmaException(Errno.ENODEV, "no such device");
        }
        if (portNum < device.startPort() || portNum > device.endPort()) {
            throw new RdmaException(Errno.EINVAL, device.name() + ": no port " + portNum);
        }
        MadPort[] ports = devices.get(device);
        if (ports == null) {
            ports = openDevice(device);
        }
        MadPort mp = ports[portNum];
        if (mp == null || mp.isClosed()) {
            throw new RdmaException(Errno.ENODEV, device.name() + "/" + portNum + " has no MAD QPs");
        }
        return mp;
    }

    // ------------------------------------------------------------------ MadService

    @Override
    public MadAgent registerMadAgent(IbDevice device, int portNum, QpType qpType, MadRegRequest req,
            int rmppVersion, MadSendHandler sendHandler, MadRecvHandler recvHandler, Object context, int flags) {
        RdmaException.check(qpType == QpType.SMI || qpType == QpType.GSI, Errno.EINVAL,
                "MAD agents live on the SMI or GSI QP, not " + qpType);
        RdmaException.check(rmppVersion == 0 || rmppVersion == MadAgent.RMPP_VERSION, Errno.EINVAL,
                "unsupported RMPP version " + rmppVersion);
        RdmaException.check(sendHandler != null, Errno.EINVAL, "a MAD agent needs a send handler");
        if (req != null) {
            RdmaException.check(recvHandler != null, Errno.EINVAL, "an agent receiving requests needs a receive handler");
            RdmaException.check(req.mgmtClassVersion >= 0 && req.mgmtClassVersion < MadRegRequest.MAX_MGMT_VERSION,
                    Errno.EINVAL, "class version " + req.mgmtClassVersion + " out of range");
            if (req.mgmtClass >= MadPort.MAX_MGMT_CLASS) {
                RdmaException.check(req.mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, Errno.EINVAL,
                        String.format("invalid management class 0x%02x", req.mgmtClass));
            } else {
                RdmaException.check(req.mgmtClass != 0, Errno.EINVAL, "management class 0 is reserved");
            }
            RdmaException.check(rmppVersion == 0 || MadHdr.isClassRmpp(req.mgmtClass), Errno.EINVAL,
                    String.format("class 0x%02x does not use RMPP", req.mgmtClass));
            RdmaException.check(req.methodMask.length() <= MadRegRequest.MAX_METHODS, Errno.EINVAL,
                    "methods are 7 bits");
            boolean smp = req.mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED
                    || req.mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
            RdmaException.check(smp == (qpType == QpType.SMI), Errno.EINVAL, String.format(
                    "class 0x%02x does not belong on the %s QP", req.mgmtClass, qpType));
        } else {
            RdmaException.check((flags & MadAgent.FLAG_USER_RMPP) == 0, Errno.EINVAL,
                    "user RMPP needs a registration request");
        }
        MadPort mp = port(device, portNum);
        int qpIndex = qpType == QpType.SMI ? 0 : 1;
        RdmaException.check(mp.qp(qpIndex) != null, Errno.EOPNOTSUPP,
                device.name() + "/" + portNum + ": QP" + qpIndex + " is not supported on this port");
        AgentImpl agent = new AgentImpl(mp, qpIndex, nextHiTid.incrementAndGet(), rmppVersion, flags, context,
                sendHandler, recvHandler);
        mp.addAgent(agent, req);
        return agent;
    }

    @Override
    public void unregisterMadAgent(MadAgent agent) {
        impl(agent).unregister();
    }

    private static AgentImpl impl(MadAgent agent) {
        RdmaException.check(agent instanceof AgentImpl, Errno.EINVAL, "not an agent of this MAD layer");
        return (AgentImpl) agent;
    }

    private static SendBufImpl impl(MadSendBuf buf) {
        RdmaException.check(buf instanceof SendBufImpl, Errno.EINVAL, "not a send buffer of this MAD layer");
        return (SendBufImpl) buf;
    }

    @Override
    public MadSendBuf createSendMad(MadAgent agent, int remoteQpn, int pkeyIndex, boolean rmppActive,
            int hdrLen, int dataLen, int baseVersion) {
        AgentImpl a = impl(agent);
        // every MAD sent passes here: the messages are built only on failure
        if (baseVersion != MadHdr.IB_MGMT_BASE_VERSION) {
            throw new RdmaException(Errno.EINVAL, "only base version 1 MADs are supported");
        }
        if (hdrLen < MadHdr.IB_MGMT_MAD_HDR || hdrLen > MAD_SIZE || dataLen < 0) {
            throw new RdmaException(Errno.EINVAL, "bad header/data length " + hdrLen + "/" + dataLen);
        }
        if (rmppActive) {
            RdmaException.check(a.rmppVersion() != 0, Errno.EINVAL, "the agent has no RMPP version");
            if (hdrLen < MadHdr.IB_MGMT_RMPP_HDR || hdrLen >= MAD_SIZE) {
                throw new RdmaException(Errno.EINVAL, "an RMPP header needs at least " + MadHdr.IB_MGMT_RMPP_HDR + " bytes");
            }
        } else if (hdrLen + dataLen > MAD_SIZE) {
            throw new RdmaException(Errno.EINVAL, (hdrLen + dataLen) + " bytes do not fit one MAD without RMPP");
        }
        int qkey = a.qpIndex == 0 ? 0 : MadHdr.IB_QP1_QKEY;
        return new SendBufImpl(a, remoteQpn, pkeyIndex, rmppActive, hdrLen, dataLen, qkey);
    }

    @Override
    public void freeSendMad(MadSendBuf sendBuf) {
        SendBufImpl sb = impl(sendBuf);
        IbAh owned = sb.ownedAh;
        if (owned != null) {
            sb.ownedAh = null;
            try {
                owned.destroy();
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "destroying a response AH failed: {0}", e.getMessage());
            }
        }
    }

    @Override
    public int postSendMad(MadSendBuf sendBuf) {
        SendBufImpl sb = impl(sendBuf);
        if (sb.agent.port.isClosed()) {
            return -Errno.ENODEV.value;
        }
        return sb.agent.post(sb);
    }

    @Override
    public void cancelMad(MadSendBuf sendBuf) {
        modifyMad(sendBuf, 0);
    }

    @Override
    public int modifyMad(MadSendBuf sendBuf, int timeoutMs) {
        SendBufImpl sb = impl(sendBuf);
        return sb.agent.modify(sb, timeoutMs);
    }

    @Override
    public IbAh createAhFromWc(MadAgent agent, MadRecvWc wc) {
        return impl(agent).port.createAhFromWc(wc);
    }

    @Override
    public IbAh createAh(MadAgent agent, AhAttr attr) {
        return impl(agent).port.pd().createAh(attr, 0);
    }

    @Override
    public MadSendBuf createResponse(MadAgent agent, MadRecvWc request, boolean rmppActive, int hdrLen, int dataLen) {
        AgentImpl a = impl(agent);
        SendBufImpl sb = (SendBufImpl) createSendMad(agent, request.wc().srcQp, request.wc().pkeyIndex, rmppActive,
                hdrLen, dataLen, MadHdr.IB_MGMT_BASE_VERSION);
        System.arraycopy(request.mad(), 0, sb.mad, 0, Math.min(rmppActive ? hdrLen : MAD_SIZE, request.madLen()));
        IbAh ah = a.port.createAhFromWc(request);
        sb.ownedAh = ah;
        sb.setAh(ah);
        return sb;
    }

    @Override
    public long counter(IbDevice device, int portNum, MadCounter counter) {
        MadPort[] ports = devices.get(device);
        if (ports == null || portNum < 0 || portNum >= ports.length || ports[portNum] == null) {
            return 0;
        }
        return ports[portNum].counter(counter);
    }
}
