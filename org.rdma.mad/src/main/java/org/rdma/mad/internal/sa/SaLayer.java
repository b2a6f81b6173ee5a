package org.rdma.mad.internal.sa;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.mad.MadService;
import org.rdma.mad.sa.GuidInfoRecord;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.McastMember;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaCallback;
import org.rdma.mad.sa.SaClient;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.sa.SaRecord;
import org.rdma.mad.sa.SaService;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbEventHandler;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.MadHdr;

/**
 * The SA client ({@code ib_sa} module): one send-only GSI agent per IB port, queries addressed
 * to the port's SM ({@code update_sm_ah()}: SM LID and SL from the port attributes), TIDs from
 * the agent's hi_tid, an id table for cancellation, and the multicast module on top.
 *
 * <p>Locking: {@link #queries} is concurrent; callbacks run in the MAD layer's contexts without
 * locks held.
 *
 * <p>The {@link IbClient} is registered by {@link #activate} and withdrawn by {@link #deactivate},
 * after SCR has unregistered {@link SaService} and so deactivated its users (the CMs), as
 * {@link org.rdma.mad.internal.MadLayer} does for the MAD layer's users.
 */
@Component(service = SaService.class, immediate = true)
public final class SaLayer implements IbClient, SaService {
    private static final System.Logger LOG = System.getLogger(SaLayer.class.getName());

    private final MadService mad;
    private final Executor workqueue;
    private final Map<IbDevice, MadAgent[]> agents = new ConcurrentHashMap<>();
    /** {@code sa_port->sm_ah} per device and port; guarded by itself. */
    private final Map<IbDevice, SmAh[]> smAhs = new ConcurrentHashMap<>();
    /** {@code sa_dev->event_handler} per device: drops the SM AH when the SM's address may change. */
    private final Map<IbDevice, IbEventHandler> smHandlers = new ConcurrentHashMap<>();
    private final Map<Integer, Query> queries = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger();
    private final AtomicInteger nextTid = new AtomicInteger((int) System.nanoTime());
    final Multicast multicast = new Multicast(this);
    private ServiceRegistration<IbClient> clientRegistration;

    /** The DS constructor. */
    @Activate
    public SaLayer(@Reference MadService mad) {
        this(mad, Runnable::run);
    }

    /**
     * @param mad       the MAD layer
     * @param workqueue where locally completed queries (RoCE paths, cached joins) call back
     */
    public SaLayer(MadService mad, Executor workqueue) {
        this.mad = mad;
        this.workqueue = workqueue;
    }

    /** Becomes a client of the core's devices once built. */
    @Activate
    void activate(BundleContext bc) {
        clientRegistration = bc.registerService(IbClient.class, this, null);
    }

    /** Leaves every device, after the users of {@link SaService} have gone. */
    @Deactivate
    void deactivate() {
        if (clientRegistration != null) {
            clientRegistration.unregister();
            clientRegistration = null;
        }
    }

    Executor workqueue() {
        return workqueue;
    }

    // ------------------------------------------------------------------ IbClient

    @Override
    public String name() {
        return "sa";
    }

    /** {@code ib_sa_add_one()}: a GSI agent on every IB port (send-only, kernel RMPP for GetTable). */
    @Override
    public int add(IbDevice device) {
        MadAgent[] a = new MadAgent[device.endPort() + 1];
        int count = 0;
        try {
            for (int p = device.startPort(); p <= device.endPort(); p++) {
                if (device.getLinkLayer(p) != LinkLayer.INFINIBAND) {
                    continue;
                }
                a[p] = mad.registerMadAgent(device, p, QpType.GSI, null, MadAgent.RMPP_VERSION, this::sendHandler,
                        this::recvHandler, this, 0);
                count++;
            }
        } catch (RdmaException e) {
            for (MadAgent x : a) {
                if (x != null) {
                    mad.unregisterMadAgent(x);
                }
            }
            return -e.errno().value;
        }
        agents.put(device, a);
        SmAh[] sm = new SmAh[device.endPort() + 1];
        smAhs.put(device, sm);
        IbEventHandler h = event -> {
            if (smAddressMayChange(event.type()) && event.portNum() > 0 && event.portNum() < sm.length) {
                dropSmAh(sm, event.portNum());
            }
        };
        smHandlers.put(device, h);
        device.registerEventHandler(h);
        return count == 0 && device.endPort() == 0 ? -Errno.EOPNOTSUPP.value : 0;
    }

    /**
     * {@code ib_sa_remove_one()}, undoing {@link #add} backwards: the event handler, the joins, the
     * agents (which flushes every query and its reference to the SM AH), then the SM AHs.
     */
    @Override
    public void remove(IbDevice device, Object clientData) {
        IbEventHandler h = smHandlers.remove(device);
        if (h != null) {
            device.unregisterEventHandler(h);
        }
        multicast.removeDevice(device);
        MadAgent[] a = agents.remove(device);
        if (a != null) {
            for (MadAgent x : a) {
                if (x != null) {
                    mad.unregisterMadAgent(x);
                }
            }
        }
        // every query has been flushed and released: the ports' own references are the last
        SmAh[] sm = smAhs.remove(device);
        if (sm != null) {
            for (int p = 0; p < sm.length; p++) {
                dropSmAh(sm, p);
            }
        }
    }

    /** The events after which {@code ib_sa_event()} calls {@code update_sm_ah()}. */
    private static boolean smAddressMayChange(IbEventType type) {
        switch (type) {
            case PORT_ERR:
            case PORT_ACTIVE:
            case LID_CHANGE:
            case PKEY_CHANGE:
            case SM_CHANGE:
            case CLIENT_REREGISTER:
                return true;
            default:
                return false;
        }
    }

    /** Drops the port's reference: the next query makes a new AH from the port's attributes. */
    private static void dropSmAh(SmAh[] sm, int port) {
        SmAh old;
        synchronized (sm) {
            old = sm[port];
            sm[port] = null;
        }
        if (old != null) {
            old.put();
        }
    }

    /**
     * A reference to the port's SM address handle ({@code ib_sa_query()} takes
     * {@code port->sm_ah} with {@code kref_get()}), made from the port's SM LID and SL when the
     * port has none: the events of {@link #smAddressMayChange} drop it, as {@code update_sm_ah()}
     * replaces it on them.
     */
    private SmAh smAh(MadAgent agent, IbDevice device, int portNum) {
        SmAh[] sm = smAhs.get(device);
        if (sm == null) {
            throw new RdmaException(Errno.ENODEV, device.name() + ": no SA client");
        }
        synchronized (sm) {
            SmAh cur = sm[portNum];
            if (cur == null) {
                PortAttr pa = device.queryPort(portNum);
                AhAttr av = new AhAttr();
                av.portNum = portNum;
                av.dlid = pa.smLid;
                av.sl = pa.smSl;
                cur = new SmAh(mad.createAh(agent, av));
                sm[portNum] = cur;
            }
            cur.get();
            return cur;
        }
    }

    // ------------------------------------------------------------------ queries

    /** {@code struct ib_sa_query}. */
    private final class Query {
        final int id;
        final SaClient client;
        final MadSendBuf buf;
        final SmAh ah;
        final SaCallback<byte[]> callback;

        Query(int id, SaClient client, MadSendBuf buf, SmAh ah, SaCallback<byte[]> callback) {
            this.id = id;
            this.client = client;
            this.buf = buf;
            this.ah = ah;
            this.callback = callback;
        }
    }

    @Override
    public void registerClient(SaClient client) {
        client.get();
    }

    @Override
    public void unregisterClient(SaClient client) {
        client.put();
        client.awaitIdle();
    }

    private MadAgent agent(IbDevice device, int portNum) {
        MadAgent[] a = agents.get(device);
        if (a == null || portNum < 0 || portNum >= a.length || a[portNum] == null) {
            return null;
        }
        return a[portNum];
    }

    /** {@code alloc_mad()} + {@code init_mad()} + {@code send_mad()}. */
    int send(SaClient client, IbDevice device, int portNum, int method, int attrId, SaRecord rec, long compMask,
            int timeoutMs, boolean table, SaCallback<byte[]> callback) {
        MadAgent agent = agent(device, portNum);
        if (agent == null) {
            return -Errno.ENODEV.value;
        }
        SmAh ah;
        MadSendBuf buf;
        try {
            ah = smAh(agent, device, portNum);
        } catch (RdmaException e) {
            return -e.errno().value;
        }
        try {
            buf = mad.createSendMad(agent, 1, 0, false, MadHdr.IB_MGMT_SA_HDR, SaMad.DATA_SIZE,
                    MadHdr.IB_MGMT_BASE_VERSION);
        } catch (RdmaException e) {
            ah.put();
            return -e.errno().value;
        }
        byte[] m = buf.mad();
        MadHdr h = MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, method, attrId, 0,
                agent.tid(nextTid.incrementAndGet()));
        h.pack(m, 0);
        SaMad.setCompMask(m, compMask);
        if (rec != null) {
            rec.pack(m, SaMad.DATA_OFFSET);
        }
        // the SA's response time is in the timeout; retries as the kernel's sa_query does not
        buf.setTimeoutMs(timeoutMs);
        buf.setRetries(0);
        buf.setAh(ah.ah);
        int id = nextId.incrementAndGet() & 0x7fff_ffff;
        Query q = new Query(id, client, buf, ah, callback);
        buf.setContext(0, q);
        if (client != null) {
            client.get();
        }
        queries.put(id, q);
        int rc = mad.postSendMad(buf);
        if (rc < 0) {
            queries.remove(id);
            release(q);
            return rc;
        }
        return id;
    }

    private void release(Query q) {
        mad.freeSendMad(q.buf);
        q.ah.put();
        if (q.client != null) {
            q.client.put();
        }
    }

    /** {@code send_handler()}. */
    private void sendHandler(MadAgent agent, MadSendWc wc) {
        Query q = (Query) wc.sendBuf().context(0);
        if (q == null) {
            return;
        }
        int status;
        switch (wc.status()) {
            case SUCCESS:
                status = 0;
                break;
            case RESP_TIMEOUT_ERR:
                status = -Errno.ETIMEDOUT.value;
                break;
            case WR_FLUSH_ERR:
                status = -Errno.EINTR.value;
                break;
            default:
                status = -Errno.EIO.value;
                break;
        }
        if (status != 0) {
            try {
                q.callback.done(status, null);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "SA callback failed", e);
            }
        }
        queries.remove(q.id);
        release(q);
    }

    /** {@code recv_handler()}: status 0, or -EINVAL when the SA answered with an error status. */
    private void recvHandler(MadAgent agent, MadSendBuf sendBuf, MadRecvWc wc) {
        if (sendBuf == null) {
            return;
        }
        Query q = (Query) sendBuf.context(0);
        if (q == null) {
            return;
        }
        // the MAD layer made the array for this receive: no copy unless RMPP left padding behind it
        byte[] m = wc.madLen() == wc.mad().length ? wc.mad() : wc.bytes();
        int status = MadHdr.status(m, 0) != 0 ? -Errno.EINVAL.value : 0;
        q.callback.done(status, m);
    }

    private static <T> SaCallback<byte[]> decode(SaCallback<T> cb, Function<byte[], T> unpack) {
        return (status, m) -> {
            if (cb != null) {
                cb.done(status, m == null ? null : unpack.apply(m));
            }
        };
    }

    @Override
    public int pathRecGet(SaClient client, IbDevice device, int portNum, PathRecord rec, long compMask, int timeoutMs,
            SaCallback<PathRecord> callback) {
        if (portNum < device.startPort() || portNum > device.endPort()) {
            return -Errno.EINVAL.value;
        }
        if (device.getLinkLayer(portNum) != LinkLayer.INFINIBAND) {
            return roceePath(client, device, portNum, rec, callback);
        }
        return send(client, device, portNum, MadHdr.IB_MGMT_METHOD_GET, SaMad.ATTR_PATH_REC, rec, compMask, timeoutMs,
                false, decode(callback, m -> new PathRecord().unpack(m, SaMad.DATA_OFFSET)));
    }

    /** RoCE: the path is the local port's (no SA): GIDs as given, MTU/rate from the port. */
    private int roceePath(SaClient client, IbDevice device, int portNum, PathRecord rec, SaCallback<PathRecord> cb) {
        PortAttr pa = device.queryPort(portNum);
        PathRecord r = new PathRecord();
        r.dgid = rec.dgid;
        r.sgid = rec.sgid.isZero() ? device.queryGid(portNum, 0) : rec.sgid;
        r.serviceId = rec.serviceId;
        r.roce = true;
        r.hopLimit = 64;
        r.trafficClass = rec.trafficClass;
        r.flowLabel = rec.flowLabel;
        r.reversible = 1;
        r.numbPath = 1;
        r.pkey = 0xffff;
        r.sl = rec.sl;
        r.mtuSelector = 2;
        r.mtu = pa.activeMtu.value;
        r.rateSelector = 2;
        r.rate = rec.rate != 0 ? rec.rate : 7;
        r.packetLifeTimeSelector = 2;
        r.packetLifeTime = 18;
        int id = nextId.incrementAndGet() & 0x7fff_ffff;
        if (client != null) {
            client.get();
        }
        workqueue.execute(() -> {
            try {
                if (cb != null) {
                    cb.done(0, r);
                }
            } finally {
                if (client != null) {
                    client.put();
                }
            }
        });
        return id;
    }

    @Override
    public int serviceRecQuery(SaClient client, IbDevice device, int portNum, int method, ServiceRecord rec,
            long compMask, int timeoutMs, SaCallback<ServiceRecord> callback) {
        if (method != MadHdr.IB_MGMT_METHOD_GET && method != MadHdr.IB_MGMT_METHOD_SET
                && method != MadHdr.IB_SA_METHOD_DELETE) {
            return -Errno.EINVAL.value;
        }
        return send(client, device, portNum, method, SaMad.ATTR_SERVICE_REC, rec, compMask, timeoutMs, false,
                decode(callback, m -> new ServiceRecord().unpack(m, SaMad.DATA_OFFSET)));
    }

    @Override
    public int guidInfoRecQuery(SaClient client, IbDevice device, int portNum, GuidInfoRecord rec, long compMask,
            int method, int timeoutMs, SaCallback<GuidInfoRecord> callback) {
        if (method != MadHdr.IB_MGMT_METHOD_GET && method != MadHdr.IB_MGMT_METHOD_SET
                && method != MadHdr.IB_SA_METHOD_DELETE) {
            return -Errno.EINVAL.value;
        }
        return send(client, device, portNum, method, SaMad.ATTR_GUID_INFO_REC, rec, compMask, timeoutMs, false,
                decode(callback, m -> new GuidInfoRecord().unpack(m, SaMad.DATA_OFFSET)));
    }

    @Override
    public int mcmemberRecQuery(SaClient client, IbDevice device, int portNum, int method, McMemberRecord rec,
            long compMask, int timeoutMs, SaCallback<McMemberRecord> callback) {
        return send(client, device, portNum, method, SaMad.ATTR_MC_MEMBER_REC, rec, compMask, timeoutMs, false,
                decode(callback, m -> new McMemberRecord().unpack(m, SaMad.DATA_OFFSET)));
    }

    @Override
    public int getTable(SaClient client, IbDevice device, int portNum, SaRecord template, long compMask,
            int timeoutMs, SaCallback<List<byte[]>> callback) {
        return send(client, device, portNum, MadHdr.IB_SA_METHOD_GET_TABLE, template.attrId(), template, compMask,
                timeoutMs, true, decode(callback, SaLayer::records));
    }

    /** The records of a GetTableResp: AttributeOffset * 8 bytes each, from the SA data. */
    static List<byte[]> records(byte[] m) {
        List<byte[]> out = new ArrayList<>();
        int size = SaMad.attrOffset(m) * 8;
        if (size <= 0) {
            return out;
        }
        for (int off = SaMad.DATA_OFFSET; off + size <= m.length; off += size) {
            byte[] r = new byte[size];
            System.arraycopy(m, off, r, 0, size);
            out.add(r);
        }
        return out;
    }

    @Override
    public void cancelQuery(int id) {
        Query q = queries.get(id);
        if (q != null) {
            mad.cancelMad(q.buf);
        }
    }

    @Override
    public void initAhAttrFromPath(IbDevice device, int portNum, PathRecord rec, AhAttr ah) {
        if (portNum < device.startPort() || portNum > device.endPort()) {
            throw new RdmaException(Errno.EINVAL, device.name() + ": no port " + portNum);
        }
        boolean roce = device.getLinkLayer(portNum) != LinkLayer.INFINIBAND;
        ah.portNum = portNum;
        ah.sl = rec.sl;
        ah.staticRate = rec.rate;
        if (!roce) {
            PortAttr pa = device.queryPort(portNum);
            ah.dlid = rec.dlid;
            ah.srcPathBits = rec.slid & ((1 << pa.lmc) - 1);
        }
        if (roce || rec.hopLimit > 1 || rec.dlid >= 0xC000) {
            int index = sgidIndex(device, portNum, rec.sgid);
            ah.setGrh(rec.dgid, rec.flowLabel, index, roce ? Math.max(rec.hopLimit, 1) : rec.hopLimit,
                    rec.trafficClass, null);
        }
    }

    /** {@code ib_find_cached_gid_by_port()}: the index of {@code sgid} on the port; ENOENT. */
    private static int sgidIndex(IbDevice device, int portNum, Gid sgid) {
        GidAttr a = null;
        try {
            a = device.findGidAttr(sgid, null, null);
            if (a.portNum() == portNum) {
                return a.index();
            }
        } catch (RdmaException e) {
            // not in the lookup: scan the port's table below
        } finally {
            if (a != null) {
                a.put();
            }
        }
        int len = device.queryPort(portNum).gidTblLen;
        for (int i = 0; i < len; i++) {
            try {
                if (sgid.equals(device.queryGid(portNum, i))) {
                    return i;
                }
            } catch (RdmaException e) {
                // empty slot
            }
        }
        throw new RdmaException(Errno.ENOENT, device.name() + "/" + portNum + ": source GID " + sgid + " not found");
    }

    @Override
    public McastMember joinMulticast(SaClient client, IbDevice device, int portNum, McMemberRecord rec,
            long compMask, SaCallback<McMemberRecord> callback, Object context) {
        return multicast.join(client, device, portNum, rec, compMask, callback, context);
    }

    @Override
    public void freeMulticast(McastMember member) {
        multicast.free(member);
    }

    @Override
    public McMemberRecord getMcmemberRec(IbDevice device, int portNum, Gid mgid) {
        return multicast.cached(device, portNum, mgid);
    }
}
