package org.rdma.itest.driver;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.MrType;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.MwType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortState;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.spi.IbDeviceProvider;
import org.rdma.verbs.spi.MrMapTarget;
import org.rdma.verbs.spi.ProviderAh;
import org.rdma.verbs.spi.ProviderCq;
import org.rdma.verbs.spi.ProviderMr;
import org.rdma.verbs.spi.ProviderMw;
import org.rdma.verbs.spi.ProviderPd;
import org.rdma.verbs.spi.ProviderQp;
import org.rdma.verbs.spi.ProviderSrq;
import org.rdma.verbs.spi.SgToPages;

/**
 * A test-only RDMA driver: one device instance with the identity, ports, GID and P_Key tables of
 * a {@link DeviceConfig}, and software PD, CQ, QP, SRQ, MR, MW and AH objects (see
 * {@link TestCq}, {@link TestQp}, {@link TestSrq}). Tests publish it as an
 * {@link IbDeviceProvider} service and drive it: change tables, raise events, complete receives.
 *
 * <p>The driver checks the core as a real driver would suffer from it: calls before
 * {@link #attach} or after {@link #detach}, objects destroyed twice or while other objects still
 * use them, objects left alive at detach. Each is recorded in {@link #violations()}.
 */
public final class TestProvider implements IbDeviceProvider {
    /** Every object type the driver counts, in {@code rdma res} spelling. */
    public static final List<String> TYPES = List.of("pd", "cq", "qp", "srq", "mr", "mw", "ah");

    /** The local DMA lkey announced with {@code IBK_LOCAL_DMA_LKEY}. */
    public static final int LOCAL_DMA_LKEY = 0x0000_0100;

    private final DeviceConfig cfg;
    private final DeviceInfo info = new DeviceInfo();
    private final PortState[] portStates;
    private final GidEntry[][] gids;
    private final int[][] pkeys;
    private final AtomicInteger nextQpn = new AtomicInteger(2);
    private final AtomicInteger nextKeyIndex = new AtomicInteger(1);
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final CountDownLatch attachedLatch = new CountDownLatch(1);
    private final CountDownLatch detachedLatch = new CountDownLatch(1);
    private final AtomicInteger attachCount = new AtomicInteger();
    private final AtomicInteger detachCount = new AtomicInteger();
    private final Map<Object, String> live = new IdentityHashMap<>();
    private final Map<Object, Object> owner = new IdentityHashMap<>();
    private final List<TestQp> qps = new ArrayList<>();
    private final List<TestCq> cqs = new ArrayList<>();
    private volatile DeviceContext ctx;
    private volatile boolean detached;
    private volatile Map<String, Integer> liveAtDetach = Map.of();

    /** A driver for the device {@code cfg} describes. */
    public TestProvider(DeviceConfig cfg) {
        this.cfg = cfg;
        info.nameTemplate = cfg.nameTemplate;
        info.driverId = cfg.driverId;
        info.nodeGuid = cfg.nodeGuid;
        info.nodeDesc = "itest " + cfg.driverId;
        info.physPortCnt = cfg.ports;
        info.localDmaLkey = LOCAL_DMA_LKEY;
        portStates = new PortState[cfg.ports + 1];
        gids = new GidEntry[cfg.ports + 1][];
        pkeys = new int[cfg.ports + 1][];
        for (int p = 1; p <= cfg.ports; p++) {
            portStates[p] = PortState.ACTIVE;
            gids[p] = cfg.gids.get(p - 1).clone();
            pkeys[p] = cfg.pkeys.get(p - 1).clone();
        }
    }

    /** The configuration. */
    public DeviceConfig config() {
        return cfg;
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    public DeviceInfo info() {
        return info;
    }

    @Override
    public void attach(DeviceContext context) {
        if (attachCount.incrementAndGet() != 1) {
            violation("attach called " + attachCount.get() + " times");
        }
        this.ctx = context;
        attachedLatch.countDown();
    }

    @Override
    public void detach() {
        if (detachCount.incrementAndGet() != 1) {
            violation("detach called " + detachCount.get() + " times");
        }
        if (attachCount.get() == 0) {
            violation("detach without attach");
        }
        Map<String, Integer> left = liveCounts();
        liveAtDetach = left;
        if (left.values().stream().anyMatch(n -> n > 0)) {
            violation("detach while objects are still alive: " + left);
        }
        detached = true;
        detachedLatch.countDown();
    }

    /** The core's context; fails if the device was never attached. */
    public DeviceContext context() {
        DeviceContext c = ctx;
        if (c == null) {
            throw new IllegalStateException(cfg.nameTemplate + " is not attached");
        }
        return c;
    }

    /** The core's device object (after attach). */
    public IbDevice device() {
        return context().device();
    }

    /** Waits for {@link #attach}; false on timeout. */
    public boolean awaitAttached(long timeout, TimeUnit unit) throws InterruptedException {
        return attachedLatch.await(timeout, unit);
    }

    /** Waits for {@link #detach}; false on timeout. */
    public boolean awaitDetached(long timeout, TimeUnit unit) throws InterruptedException {
        return detachedLatch.await(timeout, unit);
    }

    public boolean isAttached() {
        return attachCount.get() > 0;
    }

    public boolean isDetached() {
        return detached;
    }

    public int attachCount() {
        return attachCount.get();
    }

    public int detachCount() {
        return detachCount.get();
    }

    /** Objects alive when {@link #detach} ran (all zero when the core cleaned up first). */
    public Map<String, Integer> liveAtDetach() {
        return liveAtDetach;
    }

    /** Everything the core did that a driver must not suffer; empty when all is well. */
    public List<String> violations() {
        return new ArrayList<>(violations);
    }

    void violation(String what) {
        violations.add(info.driverId + "/" + Long.toHexString(info.nodeGuid) + ": " + what);
    }

    /** Queries may run while the core registers the device (before attach), as in the kernel. */
    private void checkQuery(String op) {
        if (detached) {
            violation(op + " after detach");
        }
    }

    /** Verbs objects need the context (completions, events): only between attach and detach. */
    private void checkLive(String op) {
        if (ctx == null) {
            violation(op + " before attach");
        }
        checkQuery(op);
    }

    // ---------------------------------------------------------------- test controls

    /** Raises an event through the core ({@code ib_dispatch_event}). */
    public void dispatch(IbEvent event) {
        context().dispatchEvent(event);
    }

    /** Raises a port event. */
    public void raise(IbEventType type, int port) {
        dispatch(IbEvent.port(device(), type, port));
    }

    /** Changes a GID table slot ({@code null} empties it); the core sees it after GID_CHANGE. */
    public synchronized void setGid(int port, int index, GidEntry entry) {
        gids[port][index] = entry;
    }

    /** Changes a P_Key table slot; the core sees it after PKEY_CHANGE. */
    public synchronized void setPkey(int port, int index, int pkey) {
        pkeys[port][index] = pkey;
    }

    /** Changes a port's state as {@code query_port} reports it. */
    public synchronized void setPortState(int port, PortState state) {
        portStates[port] = state;
    }

    /** Live objects per type ({@link #TYPES}), all types present. */
    public synchronized Map<String, Integer> liveCounts() {
        Map<String, Integer> m = new TreeMap<>();
        for (String t : TYPES) {
            m.put(t, 0);
        }
        for (String t : live.values()) {
            m.merge(t, 1, Integer::sum);
        }
        return m;
    }

    /** Live objects of every type. */
    public synchronized int liveTotal() {
        return live.size();
    }

    /** Live QPs, oldest first. */
    public synchronized List<TestQp> qps() {
        return new ArrayList<>(qps);
    }

    /** Live CQs, oldest first. */
    public synchronized List<TestCq> cqs() {
        return new ArrayList<>(cqs);
    }

    /** The live driver QP behind a core QP. */
    public synchronized TestQp qpOf(IbQp core) {
        for (TestQp q : qps) {
            if (q.core() == core) {
                return q;
            }
        }
        throw new IllegalStateException("no live driver QP for " + core);
    }

    /** The live driver CQ behind a core CQ. */
    public synchronized TestCq cqOf(IbCq core) {
        for (TestCq c : cqs) {
            if (c.core() == core) {
                return c;
            }
        }
        throw new IllegalStateException("no live driver CQ for " + core);
    }

    private synchronized void created(Object o, String type, Object parent) {
        live.put(o, type);
        if (parent != null) {
            owner.put(o, parent);
        }
        if (o instanceof TestQp) {
            qps.add((TestQp) o);
        } else if (o instanceof TestCq) {
            cqs.add((TestCq) o);
        }
    }

    synchronized void destroyed(Object o, String type) {
        checkLive("destroy " + type);
        if (live.remove(o) == null) {
            violation(type + " destroyed twice or never created");
            return;
        }
        List<String> users = new ArrayList<>();
        for (Map.Entry<Object, Object> e : owner.entrySet()) {
            if (e.getValue() == o && live.containsKey(e.getKey())) {
                users.add(live.get(e.getKey()));
            }
        }
        if (o instanceof TestCq || o instanceof TestSrq) {
            for (TestQp q : qps) {
                if (q != o && q.uses(o)) {
                    users.add("qp");
                }
            }
        }
        if (!users.isEmpty()) {
            Collections.sort(users);
            violation(type + " destroyed while still used by " + users);
        }
        owner.remove(o);
        qps.remove(o);
        cqs.remove(o);
    }

    // ---------------------------------------------------------------- queries

    @Override
    public DeviceAttr queryDevice() {
        checkQuery("query_device");
        DeviceAttr a = new DeviceAttr();
        a.fwVer = 0x0001_0002_0003L;
        a.sysImageGuid = cfg.nodeGuid;
        a.maxMrSize = 1L << 40;
        a.pageSizeCap = ~0xfffL;
        a.vendorId = 0x02c9;
        a.vendorPartId = 0x1003;
        a.hwVer = 1;
        a.maxQp = 4096;
        a.maxQpWr = 16384;
        a.deviceCapFlags = DeviceCapFlags.MEM_MGT_EXTENSIONS | DeviceCapFlags.MEM_WINDOW
                | DeviceCapFlags.MEM_WINDOW_TYPE_2B | DeviceCapFlags.SYS_IMAGE_GUID
                | DeviceCapFlags.PORT_ACTIVE_EVENT | DeviceCapFlags.RC_RNR_NAK_GEN;
        a.kernelCapFlags = DeviceCapFlags.IBK_LOCAL_DMA_LKEY | DeviceCapFlags.IBK_SG_GAPS_REG;
        a.maxSendSge = 16;
        a.maxRecvSge = 16;
        a.maxSgeRd = 16;
        a.maxCq = 4096;
        a.maxCqe = 65536;
        a.maxMr = 65536;
        a.maxPd = 4096;
        a.maxQpRdAtom = 16;
        a.maxResRdAtom = 4096;
        a.maxQpInitRdAtom = 16;
        a.maxMw = 4096;
        a.maxAh = 4096;
        a.maxSrq = 1024;
        a.maxSrqWr = 16384;
        a.maxSrqSge = 16;
        a.maxFastRegPageListLen = 512;
        a.maxPkeys = DeviceConfig.PKEY_TABLE_LEN;
        a.localCaAckDelay = 15;
        a.maxInlineData = 256;
        a.numCompVectors = cfg.numCompVectors;
        return a;
    }

    @Override
    public synchronized PortAttr queryPort(int port) {
        checkQuery("query_port");
        checkPort(port);
        PortAttr a = new PortAttr();
        a.state = portStates[port];
        a.physState = portStates[port] == PortState.DOWN ? PhysPortState.DISABLED : PhysPortState.LINK_UP;
        a.maxMtu = Mtu.MTU_4096;
        a.activeMtu = cfg.linkLayer == LinkLayer.ETHERNET ? Mtu.MTU_1024 : Mtu.MTU_4096;
        a.gidTblLen = DeviceConfig.GID_TABLE_LEN;
        a.pkeyTblLen = DeviceConfig.PKEY_TABLE_LEN;
        a.linkLayer = cfg.linkLayer;
        a.ipGids = cfg.linkLayer == LinkLayer.ETHERNET;
        a.portCapFlags = cfg.linkLayer == LinkLayer.ETHERNET ? PortCapFlags.IP_BASED_GIDS
                : PortCapFlags.CM_SUP | PortCapFlags.SYS_IMAGE_GUID_SUP;
        a.lid = cfg.linkLayer == LinkLayer.ETHERNET ? 0 : (int) (cfg.nodeGuid >>> 8 & 0xfff) + port;
        a.smLid = cfg.linkLayer == LinkLayer.ETHERNET ? 0 : 1;
        a.maxVlNum = 4;
        a.subnetTimeout = 18;
        return a;
    }

    @Override
    public synchronized GidEntry queryGid(int port, int index) {
        checkQuery("query_gid");
        checkPort(port);
        RdmaException.check(index >= 0 && index < DeviceConfig.GID_TABLE_LEN, Errno.EINVAL, "GID index " + index);
        return gids[port][index];
    }

    @Override
    public synchronized int queryPkey(int port, int index) {
        checkQuery("query_pkey");
        checkPort(port);
        RdmaException.check(index >= 0 && index < DeviceConfig.PKEY_TABLE_LEN, Errno.EINVAL, "P_Key index " + index);
        return pkeys[port][index];
    }

    private void checkPort(int port) {
        RdmaException.check(port >= 1 && port <= cfg.ports, Errno.EINVAL, "port " + port);
    }

    // ---------------------------------------------------------------- objects

    /** A protection domain. */
    final class Pd implements ProviderPd {
        final IbPd core;

        Pd(IbPd core) {
            this.core = core;
        }

        @Override
        public void dealloc() {
            destroyed(this, "pd");
        }
    }

    /** An address handle. */
    final class Ah implements ProviderAh {
        final int port;
        final int dlid;

        Ah(AhAttr attr) {
            this.port = attr.portNum;
            this.dlid = attr.dlid;
        }

        @Override
        public void modify(AhAttr attr) {
            checkLive("modify_ah");
        }

        @Override
        public void destroy() {
            destroyed(this, "ah");
        }
    }

    /** A memory region: user memory, all DMA memory, or a fast-registration page list. */
    public final class Mr implements ProviderMr {
        private final MrType type;
        private final int lkey;
        private final long[] pages;
        private int npages;
        private final ByteBuffer buffer;
        private final long iova;

        Mr(MrType type, int maxPages, ByteBuffer buffer, long iova) {
            this.type = type;
            int index = nextKeyIndex.getAndIncrement();
            this.lkey = index << 8;
            this.pages = new long[maxPages];
            this.buffer = buffer;
            this.iova = iova;
        }

        @Override
        public int lkey() {
            return lkey;
        }

        @Override
        public int rkey() {
            return lkey;
        }

        public MrType type() {
            return type;
        }

        public long iova() {
            return iova;
        }

        public ByteBuffer buffer() {
            return buffer;
        }

        /** The page list of the last {@code map_mr_sg}. */
        public synchronized long[] pages() {
            long[] p = new long[npages];
            System.arraycopy(pages, 0, p, 0, npages);
            return p;
        }

        @Override
        public int mapMrSg(MrMapTarget mr, SgEntry[] sg, int nents, int[] sgOffset) {
            checkLive("map_mr_sg");
            if (type != MrType.MEM_REG && type != MrType.SG_GAPS) {
                return -Errno.EINVAL.value;
            }
            synchronized (this) {
                npages = 0;
                return SgToPages.sgToPages(mr, sg, nents, sgOffset, addr -> {
                    if (npages == pages.length) {
                        return -Errno.ENOMEM.value;
                    }
                    pages[npages++] = addr;
                    return 0;
                });
            }
        }

        @Override
        public void dereg() {
            destroyed(this, "mr");
        }
    }

    /** A memory window. */
    final class Mw implements ProviderMw {
        private final int rkey = nextKeyIndex.getAndIncrement() << 8;

        @Override
        public int rkey() {
            return rkey;
        }

        @Override
        public void dealloc() {
            destroyed(this, "mw");
        }
    }

    private Pd pd(ProviderPd pd) {
        if (!(pd instanceof Pd)) {
            violation("foreign or null PD " + pd);
            throw new RdmaException(Errno.EINVAL, "not a PD of this driver: " + pd);
        }
        return (Pd) pd;
    }

    @Override
    public ProviderPd allocPd(IbPd pd) {
        checkLive("alloc_pd");
        Pd p = new Pd(pd);
        created(p, "pd", null);
        return p;
    }

    @Override
    public ProviderAh createAh(IbAh ah, AhAttr attr, int flags) {
        checkLive("create_ah");
        RdmaException.check(attr.portNum >= 1 && attr.portNum <= cfg.ports, Errno.EINVAL, "AH port " + attr.portNum);
        Ah a = new Ah(attr);
        created(a, "ah", providerPd(ah.pd()));
        return a;
    }

    private Object providerPd(IbPd corePd) {
        if (corePd == null) {
            return null;
        }
        synchronized (this) {
            for (Object o : live.keySet()) {
                if (o instanceof Pd && ((Pd) o).core == corePd) {
                    return o;
                }
            }
        }
        return null;
    }

    @Override
    public ProviderCq createCq(IbCq cq, CqInitAttr attr) {
        checkLive("create_cq");
        RdmaException.check(attr.cqe >= 1 && attr.cqe <= 65536, Errno.EINVAL, "cqe " + attr.cqe);
        RdmaException.check(attr.compVector >= 0 && attr.compVector < cfg.numCompVectors, Errno.EINVAL,
                "comp_vector " + attr.compVector);
        TestCq c = new TestCq(this, cq, attr.cqe);
        created(c, "cq", null);
        return c;
    }

    @Override
    public ProviderQp createQp(IbQp qp, ProviderPd pd, QpInitAttr init) {
        checkLive("create_qp");
        Pd p = pd(pd);
        TestCq scq = context().providerOf(init.sendCq, TestCq.class);
        TestCq rcq = context().providerOf(init.recvCq, TestCq.class);
        TestSrq srq = init.srq == null ? null : context().providerOf(init.srq, TestSrq.class);
        RdmaException.check(scq != null && rcq != null, Errno.EINVAL, "QP without CQs");
        int qpn = init.qpType == QpType.SMI ? 0 : init.qpType == QpType.GSI ? 1 : nextQpn.getAndIncrement();
        if (init.cap.maxSendWr == 0) {
            init.cap.maxSendWr = 1;
        }
        if (init.cap.maxSendSge == 0) {
            init.cap.maxSendSge = 1;
        }
        if (srq == null && init.cap.maxRecvWr == 0) {
            init.cap.maxRecvWr = 1;
        }
        if (init.cap.maxRecvSge == 0) {
            init.cap.maxRecvSge = 1;
        }
        TestQp q = new TestQp(this, qp, qpn, init, scq, rcq, srq);
        created(q, "qp", p);
        return q;
    }

    @Override
    public ProviderSrq createSrq(IbSrq srq, ProviderPd pd, SrqInitAttr init) {
        checkLive("create_srq");
        Pd p = pd(pd);
        TestSrq s = new TestSrq(this, srq, init.attr);
        created(s, "srq", p);
        return s;
    }

    @Override
    public ProviderMr getDmaMr(IbMr mr, ProviderPd pd, int access) {
        checkLive("get_dma_mr");
        Mr m = new Mr(MrType.DMA, 0, null, 0);
        created(m, "mr", pd(pd));
        return m;
    }

    @Override
    public ProviderMr regUserMr(IbMr mr, ProviderPd pd, ByteBuffer buffer, long iova, int access) {
        checkLive("reg_user_mr");
        Mr m = new Mr(MrType.USER, 0, buffer, iova);
        created(m, "mr", pd(pd));
        return m;
    }

    @Override
    public ProviderMr allocMr(IbMr mr, ProviderPd pd, MrType type, int maxNumSg) {
        checkLive("alloc_mr");
        RdmaException.check(type == MrType.MEM_REG || type == MrType.SG_GAPS, Errno.EINVAL, "MR type " + type);
        RdmaException.check(maxNumSg >= 1 && maxNumSg <= 512, Errno.EINVAL, "max_num_sg " + maxNumSg);
        Mr m = new Mr(type, maxNumSg, null, 0);
        created(m, "mr", pd(pd));
        return m;
    }

    @Override
    public ProviderMw allocMw(IbMw mw, ProviderPd pd, MwType type) {
        checkLive("alloc_mw");
        Mw w = new Mw();
        created(w, "mw", pd(pd));
        return w;
    }

    @Override
    public String toString() {
        return "TestProvider[" + cfg.nameTemplate + " " + cfg.driverId + " " + Long.toHexString(cfg.nodeGuid) + "]";
    }
}
