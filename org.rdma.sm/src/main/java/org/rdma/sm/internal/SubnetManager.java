package org.rdma.sm.internal;

import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.mad.MadService;
import org.rdma.sm.internal.Subnet.EndPort;
import org.rdma.sm.internal.Subnet.Node;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.QpType;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.MulticastForwardingTable;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SmInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * The subnet manager of one port: OpenSM's {@code osm_sm_t} with its state manager
 * ({@code osm_state_mgr.c}), the VL15 send tracking ({@code osm_vl15.c}, here {@link Batch}),
 * the discovery receivers ({@code osm_node_info_rcv.c}, {@code osm_port_info_rcv.c},
 * {@code osm_sw_info_rcv.c}), the LID manager ({@code osm_lid_mgr.c}), the link manager's port
 * state walk ({@code osm_link_mgr.c}) and the trap receiver ({@code osm_trap_rcv.c}).
 *
 * <p>A sweep is a chain of phases, each a {@link Batch} of directed-route SMPs that ends when
 * its last response (or timeout) is in: DISCOVER (NodeInfo, NodeDescription, PortInfo of every
 * port, SwitchInfo, breadth-first), then LIDs, unicast and multicast routing computed and
 * PROGRAM (PortInfo Set of LID, master SM LID and subnet prefix, in the same Set as the move to
 * ARMED for ports in INIT; LFT blocks that changed; SwitchInfo with LinearFDBTop, clearing
 * PortStateChange; MFT blocks that changed), then ACTIVATE (ports in ARMED). Traps 128 (link
 * state) and 144 (a port's capabilities) and the sweep timer ask for another sweep, run once the
 * current one is done.
 *
 * <p>Threading: every method runs on {@link #executor}, which must run one task at a time; MAD
 * handlers only queue work onto it. No lock is needed and none is held when calling the MAD
 * layer.
 */
public final class SubnetManager {
    private static final Logger LOG = Logger.getLogger(SubnetManager.class.getName());
    /** Response timeout of one SMP ({@code OSM_DEFAULT_TRANS_TIMEOUT_MILLISEC} is 200). */
    static final int SMP_TIMEOUT_MS = 200;
    /** Retries of one SMP ({@code OSM_DEFAULT_RETRY_COUNT}). */
    static final int SMP_RETRIES = 3;
    /** The SM's own LID. */
    static final int SM_LID = 1;

    /** The sweep's phases ({@code osm_sm_state_t} reduced to what this SM does). */
    enum Phase { IDLE, DISCOVER, PROGRAM, ACTIVATE }

    final MadService mad;
    final IbDevice device;
    final int portNum;
    final IbClock clock;
    final Executor executor;
    final int priority;
    final long periodMs;
    final long subnetPrefix = Gid.DEFAULT_SUBNET_PREFIX;
    private final SaServer sa;
    private MadAgent smAgent;
    private MadAgent trapAgent;
    private IbClock.Timer timer;
    private volatile boolean closed;

    // sweep state
    private volatile Phase phase = Phase.IDLE;
    private volatile boolean sweepWanted;
    private Subnet current = new Subnet();
    private Subnet next;
    private long sweepStart;
    private int tidLo;
    /** LIDs by port GUID, kept across sweeps ({@code osm_lid_mgr}'s guid2lid). */
    private final Map<Long, Integer> lidOf = new HashMap<>();
    private final BitSet usedLids = new BitSet();
    /** LFTs as last programmed, by switch GUID. */
    private final Map<Long, int[]> lftCache = new HashMap<>();
    /** MFT port masks as last programmed: switch GUID to MLID to mask. */
    private final Map<Long, Map<Integer, Long>> mftCache = new HashMap<>();

    // counters
    private volatile int sweeps;
    private volatile long smpsSent;
    private long smpsFailed;
    private long traps;
    private long lastSweepNanos;
    private long lastSweepSmps;
    private final List<Runnable> sweepListeners = new CopyOnWriteArrayList<>();

    /**
     * @param executor runs one task at a time; everything of this SM and its SA runs there
     * @param periodMs sweep period; 0 disables periodic sweeps
     */
    public SubnetManager(MadService mad, IbDevice device, int portNum, IbClock clock, Executor executor, int priority,
            long periodMs) {
        this.mad = mad;
        this.device = device;
        this.portNum = portNum;
        this.clock = clock;
        this.executor = executor;
        this.priority = priority;
        this.periodMs = periodMs;
        this.sa = new SaServer(this);
    }

    // ================================================================== life cycle

    /**
     * Announces IsSM on the port (what opening {@code /dev/infiniband/issmN} does for OpenSM:
     * {@code ib_umad_sm_open()}), registers the SMI agents (requests out, traps and SMInfo in)
     * and the SA's GSI agent, then asks for the first sweep.
     *
     * @throws org.rdma.verbs.RdmaException when the port has no MAD QPs (yet)
     */
    public void start() {
        setIsSm(true);
        smAgent = mad.registerMadAgent(device, portNum, QpType.SMI, null, 0, this::sendDone,
                (a, sb, wc) -> run(() -> smpResponse(sb, wc)), this, 0);
        try {
            trapAgent = mad.registerMadAgent(device, portNum, QpType.SMI,
                    MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED, Smp.IB_SMP_CLASS_VERSION,
                            MadHdr.IB_MGMT_METHOD_TRAP, MadHdr.IB_MGMT_METHOD_GET),
                    0, (a, wc) -> mad.freeSendMad(wc.sendBuf()), (a, sb, wc) -> run(() -> smRequest(a, wc)), this, 0);
            sa.start();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        if (periodMs > 0) {
            timer = clock.schedule(this::tick, periodMs, TimeUnit.MILLISECONDS);
        }
        run(this::requestSweep);
    }

    /** Unregisters the agents (fences: no handler runs afterwards), stops the timer and withdraws IsSM. */
    public void close() {
        closed = true;
        setIsSm(false);
        IbClock.Timer t = timer;
        if (t != null) {
            t.cancel();
        }
        sa.close();
        for (MadAgent a : new MadAgent[] {trapAgent, smAgent}) {
            if (a != null) {
                try {
                    mad.unregisterMadAgent(a);
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "unregister", e);
                }
            }
        }
        trapAgent = null;
        smAgent = null;
    }

    /** {@code ib_umad_sm_open()}/{@code ib_umad_sm_close()}: IsSM in the port's CapabilityMask. */
    private void setIsSm(boolean on) {
        try {
            device.modifyPort(portNum, 0, PortModify.capability(PortCapFlags.SM, on));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, () -> device.name() + "/" + portNum + ": IsSM not changed: " + e.getMessage());
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        run(this::requestSweep);
        timer = clock.schedule(this::tick, periodMs, TimeUnit.MILLISECONDS);
    }

    void run(Runnable r) {
        if (!closed) {
            executor.execute(() -> {
                if (!closed) {
                    r.run();
                }
            });
        }
    }

    // ================================================================== observation (tests, shell)

    /** The last complete sweep's subnet. */
    Subnet subnet() {
        return current;
    }

    SaServer sa() {
        return sa;
    }

    /** Sweeps completed. */
    public int sweeps() {
        return sweeps;
    }

    /** Whether a sweep is running or wanted. */
    public boolean busy() {
        return phase != Phase.IDLE || sweepWanted;
    }

    public long smpsSent() {
        return smpsSent;
    }

    public long smpsFailed() {
        return smpsFailed;
    }

    public long trapsReceived() {
        return traps;
    }

    /** Wall-clock nanoseconds of the last sweep (start to last ACTIVE response). */
    public long lastSweepNanos() {
        return lastSweepNanos;
    }

    /** SMPs of the last sweep. */
    public long lastSweepSmps() {
        return lastSweepSmps;
    }

    /** LID of a port GUID, 0 if none. */
    public int lidOf(long portGuid) {
        return lidOf.getOrDefault(portGuid, 0);
    }

    /** Runs {@code r} on the SM's executor after each complete sweep. */
    void onSweepDone(Runnable r) {
        sweepListeners.add(r);
    }

    /**
     * Waits until the subnet is up: a sweep has completed and none is running or wanted
     * (the shell's {@code sminfo -w}).
     *
     * @return whether it is up before {@code deadlineNanos} ({@link System#nanoTime()})
     */
    public boolean awaitUp(long deadlineNanos) throws InterruptedException {
        Object lock = new Object();
        Runnable wake = () -> {
            synchronized (lock) {
                lock.notifyAll();
            }
        };
        sweepListeners.add(wake);
        try {
            synchronized (lock) {
                long left;
                while ((sweeps == 0 || busy()) && (left = deadlineNanos - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.timedWait(lock, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
                }
                return sweeps > 0 && !busy();
            }
        } finally {
            sweepListeners.remove(wake);
        }
    }

    // ================================================================== VL15 sends (osm_vl15)

    /** A group of SMPs whose completion moves the SM on: {@code osm_sm_t.p_subn->qp0_mads_outstanding}. */
    final class Batch {
        private int outstanding;
        private final Runnable done;
        private boolean started;

        Batch(Runnable done) {
            this.done = done;
        }

        /** Call after the last initial send: a batch with nothing outstanding is done at once. */
        void seal() {
            started = true;
            check();
        }

        private void check() {
            if (started && outstanding == 0) {
                started = false;
                done.run();
            }
        }
    }

    /** Context of one SMP in flight. */
    private static final class Sent {
        final Batch batch;
        final Consumer<Smp> onResponse;
        boolean finished;

        Sent(Batch batch, Consumer<Smp> onResponse) {
            this.batch = batch;
            this.onResponse = onResponse;
        }
    }

    /** Sends a directed-route SMP; {@code onResponse} runs with a good response only. */
    void send(Batch b, Smp req, Consumer<Smp> onResponse) {
        MadAgent ag = smAgent;
        if (ag == null) {
            return;
        }
        req.tid = ag.tid(++tidLo);
        MadSendBuf buf;
        try {
            buf = mad.createSendMad(ag, 0, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                    MadHdr.IB_MGMT_BASE_VERSION);
        } catch (RuntimeException e) {
            smpsFailed++;
            return;
        }
        req.pack(buf.mad(), 0);
        buf.setTimeoutMs(SMP_TIMEOUT_MS);
        buf.setRetries(SMP_RETRIES);
        buf.setContext(0, new Sent(b, onResponse));
        b.outstanding++;
        smpsSent++;
        int rc = mad.postSendMad(buf);
        if (rc != 0) {
            b.outstanding--;
            smpsFailed++;
            mad.freeSendMad(buf);
        }
    }

    private void sendDone(MadAgent a, MadSendWc wc) {
        run(() -> {
            Sent s = (Sent) wc.sendBuf().context(0);
            mad.freeSendMad(wc.sendBuf());
            if (s != null && !s.finished) {
                s.finished = true;
                if (wc.status() != WcStatus.SUCCESS) {
                    smpsFailed++;
                    LOG.fine(() -> "SMP " + new Smp().unpack(wc.sendBuf().mad(), 0) + ": " + wc.status());
                }
                s.batch.outstanding--;
                s.batch.check();
            }
        });
    }

    private void smpResponse(MadSendBuf sb, MadRecvWc wc) {
        Sent s = sb == null ? null : (Sent) sb.context(0);
        if (s == null || s.finished) {
            return;
        }
        s.finished = true;
        Smp r = new Smp().unpack(wc.mad(), 0);
        if (r.statusCode() == 0) {
            s.onResponse.accept(r);
        } else {
            smpsFailed++;
        }
        s.batch.outstanding--;
        s.batch.check();
    }

    private Smp get(int attrId, int attrMod, int[] path) {
        return Smp.directed(MadHdr.IB_MGMT_METHOD_GET, attrId, attrMod, 0, path);
    }

    private Smp set(org.rdma.verbs.wire.MadAttribute attr, int attrMod, int[] path) {
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, attr.attrId(), attrMod, 0, path);
        s.setData(attr);
        return s;
    }

    // ================================================================== traps and SMInfo (osm_trap_rcv, osm_sminfo_rcv)

    private void smRequest(MadAgent a, MadRecvWc wc) {
        MadHdr h = wc.hdr();
        if (h.method == MadHdr.IB_MGMT_METHOD_TRAP && h.attrId == Notice.ATTR_ID) {
            traps++;
            Notice n = new Notice().unpackSmp(new Smp().unpack(wc.mad(), 0).data, 0);
            reply(a, wc, MadHdr.IB_MGMT_METHOD_TRAP_REPRESS, null);
            if (n.isGeneric && (n.trapNumberOrDeviceId == Notice.TRAP_LINK_STATE_CHANGE
                    || n.trapNumberOrDeviceId == Notice.TRAP_CAP_MASK_CHG
                    || n.trapNumberOrDeviceId == Notice.TRAP_GID_IN_SERVICE)) {
                requestSweep();
            }
        } else if (h.method == MadHdr.IB_MGMT_METHOD_GET && h.attrId == SmInfo.ATTR_ID) {
            SmInfo si = new SmInfo();
            si.guid = device.queryGid(portNum, 0).interfaceId();
            si.actCount = (int) smpsSent;
            si.priority = priority;
            si.smState = SmInfo.SM_STATE_MASTER;
            reply(a, wc, MadHdr.IB_MGMT_METHOD_GET_RESP, si);
        }
    }

    private void reply(MadAgent a, MadRecvWc wc, int method, SmInfo data) {
        try {
            MadSendBuf r = mad.createResponse(a, wc, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA);
            byte[] m = r.mad();
            m[3] = (byte) method;
            if (data != null) {
                data.pack(m, Smp.IB_SMP_DATA_OFFSET);
            }
            if (mad.postSendMad(r) != 0) {
                mad.freeSendMad(r);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "SMP reply", e);
        }
    }

    // ================================================================== the state machine (osm_state_mgr)

    /** Asks for a sweep: now if idle, else once the running one is done. On the executor only. */
    void requestSweep() {
        if (phase != Phase.IDLE) {
            sweepWanted = true;
            return;
        }
        sweepWanted = false;
        sweepStart = System.nanoTime();
        long smpsBefore = smpsSent;
        next = new Subnet();
        phase = Phase.DISCOVER;
        Batch b = new Batch(() -> afterDiscovery(smpsBefore));
        probe(b, new int[0], null, 0);
        b.seal();
    }

    /** Sweep-time entry for tests and the shell, run on the executor. */
    public void sweepNow() {
        run(this::requestSweep);
    }

    private void probe(Batch b, int[] path, Node parent, int parentPort) {
        send(b, get(NodeInfo.ATTR_ID, 0, path), r -> nodeInfo(b, path, parent, parentPort, new NodeInfo().unpack(r.data, 0)));
    }

    /** {@code osm_ni_rcv_process()}: a node found, or found again by another cable. */
    private void nodeInfo(Batch b, int[] path, Node parent, int parentPort, NodeInfo ni) {
        Subnet s = next;
        Node n = s.nodes.get(ni.nodeGuid);
        int arrival = parent == null ? portNum : ni.localPortNum;
        if (n == null) {
            n = new Node(ni, path);
            s.nodes.put(ni.nodeGuid, n);
            Node node = n;
            send(b, get(NodeDescription.ATTR_ID, 0, path), r -> node.desc = new NodeDescription().unpack(r.data, 0));
            if (n.isSwitch()) {
                send(b, get(SwitchInfo.ATTR_ID, 0, path), r -> node.switchInfo = new SwitchInfo().unpack(r.data, 0));
                for (int p = 0; p <= ni.numPorts; p++) {
                    int port = p;
                    send(b, get(PortInfo.ATTR_ID, p, path), r -> switchPortInfo(b, node, port, arrival,
                            new PortInfo().unpack(r.data, 0)));
                }
            }
        }
        if (parent != null) {
            Subnet.link(parent, parentPort, n, arrival);
        }
        if (!n.isSwitch() && !s.ports.containsKey(ni.portGuid)) {
            EndPort ep = new EndPort(ni.portGuid, n, arrival, path);
            s.ports.put(ni.portGuid, ep);
            Node node = n;
            send(b, get(PortInfo.ATTR_ID, arrival, path), r -> {
                PortInfo pi = new PortInfo().unpack(r.data, 0);
                node.ports[arrival] = pi;
                if (parent == null && Subnet.linkUp(pi)) {
                    probe(b, new int[] {portNum}, node, arrival);
                }
            });
        }
    }

    /** {@code osm_pi_rcv_process()} for a switch port: port 0 is an end port, others lead on. */
    private void switchPortInfo(Batch b, Node sw, int port, int arrival, PortInfo pi) {
        sw.ports[port] = pi;
        if (port == 0) {
            next.ports.put(sw.info.portGuid, new EndPort(sw.info.portGuid, sw, 0, sw.path));
        } else if (port != arrival && Subnet.linkUp(pi) && sw.path.length < Smp.IB_SMP_MAX_PATH_HOPS - 1) {
            probe(b, Subnet.append(sw.path, port), sw, port);
        }
    }

    /** Discovery is complete: LIDs, routes, then the programming phase. */
    private void afterDiscovery(long smpsBefore) {
        Subnet s = next;
        long own = device.queryGid(portNum, 0).interfaceId();
        if (!s.ports.containsKey(own)) {
            LOG.warning(() -> "SM on " + device.name() + "/" + portNum + ": own port not discovered");
            finish(smpsBefore, false);
            return;
        }
        LOG.fine(() -> "discovered in " + (System.nanoTime() - sweepStart) / 1000 + " us");
        assignLids(s, own);
        Routing.computeLfts(s);
        phase = Phase.PROGRAM;
        Batch b = new Batch(() -> activate(smpsBefore));
        // ports in INIT get their LID with the move to ARMED (one Set), the others alone
        walkStates(b, PortInfo.PORT_STATE_INIT, PortInfo.PORT_STATE_ARMED);
        for (EndPort ep : s.ports.values()) {
            PortInfo pi = ep.portInfo();
            boolean armed = !ep.node.isSwitch() && pi != null && pi.portState == PortInfo.PORT_STATE_INIT;
            if (pi != null && !armed && (pi.lid != ep.lid || pi.masterSmLid != SM_LID || pi.gidPrefix != subnetPrefix)) {
                setPort(b, ep.node, ep.portNum, ep.path, ep.lid, PortInfo.PORT_STATE_NOP);
            }
        }
        for (Node sw : s.switches()) {
            programLft(b, sw, s);
            if (sw.switchInfo != null) {
                SwitchInfo si = sw.switchInfo.copy();
                si.linearFdbTop = s.maxLid;
                si.portStateChange = true;
                send(b, set(si, 0, sw.path), r -> { });
            }
        }
        programMfts(b, s);
        b.seal();
    }

    /** {@code osm_lid_mgr_process_sm()} and {@code osm_lid_mgr_process_subnet()}: LID 1 to the SM's port. */
    private void assignLids(Subnet s, long own) {
        if (!lidOf.containsKey(own)) {
            if (usedLids.get(SM_LID)) {
                // another port held LID 1 (never: the SM's port is always assigned first)
                lidOf.values().remove(SM_LID);
            }
            lidOf.put(own, SM_LID);
            usedLids.set(SM_LID);
        }
        for (EndPort ep : s.ports.values()) {
            Integer lid = lidOf.get(ep.guid);
            if (lid == null) {
                lid = usedLids.nextClearBit(SM_LID + 1);
                lidOf.put(ep.guid, lid);
                usedLids.set(lid);
            }
            ep.lid = lid;
            s.byLid.put(lid, ep);
            s.maxLid = Math.max(s.maxLid, lid);
        }
    }

    /** A PortInfo Set keeping everything but LID, master SM and state; updates the stored copy. */
    private void setPort(Batch b, Node n, int port, int[] path, int lid, int state) {
        PortInfo pi = n.ports[port].copy();
        if (lid > 0) {
            pi.lid = lid;
            pi.gidPrefix = subnetPrefix;
        }
        pi.masterSmLid = SM_LID;
        pi.portState = state;
        pi.portPhysState = 0;
        pi.linkSpeedEnabled = 0;
        pi.linkWidthEnabled = 0;
        send(b, set(pi, port, path), r -> n.ports[port] = new PortInfo().unpack(r.data, 0));
    }

    /** {@code osm_ucast_mgr_set_fwd_tables()}: only the LFT blocks that changed. */
    private void programLft(Batch b, Node sw, Subnet s) {
        int[] want = s.lfts.get(sw);
        int[] had = lftCache.get(sw.guid());
        int blocks = s.maxLid / LinearForwardingTable.IB_LFT_BLOCK_SIZE + 1;
        for (int blk = 0; blk < blocks; blk++) {
            LinearForwardingTable t = new LinearForwardingTable();
            boolean changed = had == null;
            for (int i = 0; i < LinearForwardingTable.IB_LFT_BLOCK_SIZE; i++) {
                int lid = blk * LinearForwardingTable.IB_LFT_BLOCK_SIZE + i;
                t.ports[i] = lid < want.length ? want[lid] : LinearForwardingTable.IB_LFT_NO_PATH;
                int old = had != null && lid < had.length ? had[lid] : LinearForwardingTable.IB_LFT_NO_PATH;
                changed |= old != t.ports[i];
            }
            if (changed) {
                send(b, set(t, blk, sw.path), r -> { });
            }
        }
        lftCache.put(sw.guid(), want.clone());
    }

    /**
     * {@code osm_mcast_mgr_process()}: every group's tree into the switches' MFTs, only the
     * (block, position) pieces that changed.
     */
    private void programMfts(Batch b, Subnet s) {
        Map<Node, Map<Integer, Long>> want = new HashMap<>();
        for (Map.Entry<Integer, Collection<EndPort>> g : sa.mcastMembers(s).entrySet()) {
            for (Map.Entry<Node, Long> m : Routing.mcastMasks(g.getValue()).entrySet()) {
                want.computeIfAbsent(m.getKey(), k -> new HashMap<>()).put(g.getKey(), m.getValue());
            }
        }
        for (Node sw : s.switches()) {
            Map<Integer, Long> w = want.getOrDefault(sw, Map.of());
            Map<Integer, Long> had = mftCache.getOrDefault(sw.guid(), Map.of());
            java.util.TreeSet<Integer> blocks = new java.util.TreeSet<>();
            for (Integer mlid : w.keySet()) {
                blocks.add((mlid - MulticastForwardingTable.IB_LID_MCAST_START) / MulticastForwardingTable.IB_MCAST_BLOCK_SIZE);
            }
            for (Integer mlid : had.keySet()) {
                blocks.add((mlid - MulticastForwardingTable.IB_LID_MCAST_START) / MulticastForwardingTable.IB_MCAST_BLOCK_SIZE);
            }
            int positions = sw.info.numPorts / MulticastForwardingTable.IB_MCAST_MASK_SIZE + 1;
            for (int blk : blocks) {
                for (int pos = 0; pos < positions; pos++) {
                    MulticastForwardingTable t = new MulticastForwardingTable();
                    boolean changed = false;
                    for (int i = 0; i < MulticastForwardingTable.IB_MCAST_BLOCK_SIZE; i++) {
                        int mlid = MulticastForwardingTable.IB_LID_MCAST_START + blk * MulticastForwardingTable.IB_MCAST_BLOCK_SIZE + i;
                        int shift = pos * MulticastForwardingTable.IB_MCAST_MASK_SIZE;
                        int nw = (int) (w.getOrDefault(mlid, 0L) >>> shift) & 0xffff;
                        int old = (int) (had.getOrDefault(mlid, 0L) >>> shift) & 0xffff;
                        t.portMasks[i] = nw;
                        changed |= nw != old;
                    }
                    if (changed) {
                        send(b, set(t, MulticastForwardingTable.attrMod(pos, blk), sw.path), r -> { });
                    }
                }
            }
            if (w.isEmpty()) {
                mftCache.remove(sw.guid());
            } else {
                mftCache.put(sw.guid(), new HashMap<>(w));
            }
        }
    }

    /** Reprograms multicast forwarding outside a sweep (an SA join or leave); then {@code done}. */
    void updateMulticast(Runnable done) {
        Batch b = new Batch(done);
        if (smAgent != null) {
            programMfts(b, current);
        }
        b.seal();
    }

    /** {@code osm_link_mgr_process()} to ACTIVE: every port in ARMED (those in INIT were armed while programming). */
    private void activate(long smpsBefore) {
        LOG.fine(() -> "programmed and armed at " + (System.nanoTime() - sweepStart) / 1000 + " us");
        phase = Phase.ACTIVATE;
        Batch b = new Batch(() -> finish(smpsBefore, true));
        walkStates(b, PortInfo.PORT_STATE_ARMED, PortInfo.PORT_STATE_ACTIVE);
        b.seal();
    }

    private void walkStates(Batch b, int from, int to) {
        // CA ports and switch port 0 (the switch's management port: its SMA, PMA, LID), as
        // osm_link_mgr does for every end port
        for (EndPort ep : next.ports.values()) {
            if (ep.portInfo() != null && ep.portInfo().portState == from) {
                setPort(b, ep.node, ep.portNum, ep.path, ep.lid, to);
            }
        }
        for (Node sw : next.switches()) {
            for (int p = 1; p <= sw.info.numPorts; p++) {
                if (sw.ports[p] != null && sw.ports[p].portState == from) {
                    setPort(b, sw, p, sw.path, 0, to);
                }
            }
        }
    }

    private void finish(long smpsBefore, boolean ok) {
        boolean changed = ok && (current.nodes.size() != next.nodes.size() || current.ports.size() != next.ports.size());
        if (ok) {
            current = next;
            sweeps++;
        }
        next = null;
        lastSweepNanos = System.nanoTime() - sweepStart;
        lastSweepSmps = smpsSent - smpsBefore;
        phase = Phase.IDLE;
        if (ok) {
            // osm_state_mgr's "SUBNET UP" (FINE: the runtime's console stays quiet; rdma:sminfo shows the SM)
            LOG.log(changed ? Level.FINE : Level.FINER, () -> "SUBNET UP on " + device.name() + "/" + portNum
                    + ": sweep " + sweeps + ", " + current.nodes.size() + " nodes, " + current.ports.size()
                    + " LIDs, " + lastSweepSmps + " SMPs, " + lastSweepNanos / 1_000_000 + " ms");
            for (Runnable r : sweepListeners) {
                r.run();
            }
        }
        if (sweepWanted) {
            requestSweep();
        }
    }
}
