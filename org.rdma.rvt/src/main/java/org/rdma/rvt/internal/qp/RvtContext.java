package org.rdma.rvt.internal.qp;

import java.util.concurrent.atomic.AtomicLongArray;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.internal.mem.Mem;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.time.IbClock;

/**
 * What every QP of a device shares ({@code struct rvt_dev_info}): the driver, the clock, the core's
 * context, the key checks, the QP and multicast tables, a cache of each port's LID, MTU and P_Key
 * table (refreshed by {@link #refreshPort}), the device-wide atomic lock and the counters.
 */
public final class RvtContext {
    final DeviceInfo info;
    final DeviceAttr attr;
    final RvtDriver driver;
    final IbClock clock;
    final Mem mem;
    final QpTable qps;
    final McastTable mcast;
    final Object atomicLock = new Object();
    /** Number of {@link RvtCounter}s. */
    static final int COUNTERS = RvtCounter.values().length;
    /** The counts made outside a QP's task. */
    private final AtomicLongArray counters = new AtomicLongArray(COUNTERS);
    /** The counts of destroyed QPs; guarded by itself, as is the set of QPs a read sums over. */
    private final long[] retired = new long[COUNTERS];
    private final PortCache[] ports;
    volatile DeviceContext ctx;

    /** Per-port facts the datapath reads. */
    static final class PortCache {
        volatile int lid;
        volatile int lmc;
        volatile int mtu = 4096;
        volatile boolean roce;
        volatile int maxSegments = 1;
        volatile int[] pkeys = {0xffff};
        /** Unknown until the first refresh, so a port that starts down is not counted as downed. */
        volatile PortState state;
    }

    /** The shared state of one device. */
    public RvtContext(DeviceInfo info, DeviceAttr attr, RvtDriver driver, IbClock clock, Mem mem) {
        this.info = info;
        this.attr = attr;
        this.driver = driver;
        this.clock = clock;
        this.mem = mem;
        this.qps = new QpTable(Math.max(16, attr.maxQp), info.physPortCnt);
        this.mcast = new McastTable(driver, attr.maxMcastGrp, attr.maxMcastQpAttach);
        this.ports = new PortCache[info.physPortCnt + 1];
        for (int p = 0; p < ports.length; p++) {
            ports[p] = new PortCache();
        }
    }

    /** Sets the core's context (attach) or clears it (detach). */
    public void setDeviceContext(DeviceContext ctx) {
        this.ctx = ctx;
    }

    /** The core's context, or null before attach. */
    public DeviceContext deviceContext() {
        return ctx;
    }

    /** The key checks. */
    public Mem mem() {
        return mem;
    }

    /** The QP table. */
    public QpTable qps() {
        return qps;
    }

    /** The multicast table. */
    public McastTable mcast() {
        return mcast;
    }

    /** Re-reads a port's attributes and P_Key table from the driver. */
    public void refreshPort(int port) {
        if (port < 1 || port >= ports.length) {
            return;
        }
        PortAttr a = driver.queryPort(port);
        PortCache c = ports[port];
        if (c.state == PortState.ACTIVE && a.state != PortState.ACTIVE) {
            count(RvtCounter.LINK_DOWNED);
        }
        c.state = a.state;
        c.lid = a.lid;
        c.lmc = a.lmc;
        c.mtu = a.activeMtu.bytes;
        c.roce = a.linkLayer == LinkLayer.ETHERNET;
        c.maxSegments = Math.max(1, Math.min(driver.maxSegments(port), RvtQp.MAX_TRAIN));
        int n = Math.max(1, a.pkeyTblLen);
        int[] pk = new int[n];
        for (int i = 0; i < n; i++) {
            pk[i] = driver.queryPkey(port, i);
        }
        c.pkeys = pk;
    }

    boolean validPort(int port) {
        return port >= 1 && port < ports.length;
    }

    int portMtu(int port) {
        return validPort(port) ? ports[port].mtu : 256;
    }

    /** The longest train the driver takes on {@code port} (1: none). */
    int maxSegments(int port) {
        return validPort(port) ? ports[port].maxSegments : 1;
    }

    int portLid(int port) {
        return validPort(port) ? ports[port].lid : 0;
    }

    int portLmc(int port) {
        return validPort(port) ? ports[port].lmc : 0;
    }

    boolean isRoce(int port) {
        return validPort(port) && ports[port].roce;
    }

    /** The P_Key at {@code index} of {@code port}, 0 when out of range. */
    int pkey(int port, int index) {
        if (!validPort(port)) {
            return 0;
        }
        int[] pk = ports[port].pkeys;
        return index >= 0 && index < pk.length ? pk[index] : 0;
    }

    /** The index of a P_Key matching {@code pkey} on {@code port} (GSI), or -1. */
    int findPkey(int port, int pkey) {
        if (!validPort(port)) {
            return -1;
        }
        int[] pk = ports[port].pkeys;
        for (int i = 0; i < pk.length; i++) {
            if (pkeyMatch(pk[i], pkey)) {
                return i;
            }
        }
        return -1;
    }

    /** IBTA 10.9.3: the low 15 bits agree, are not 0, and at least one side is a full member. */
    static boolean pkeyMatch(int a, int b) {
        return (a & 0x7fff) == (b & 0x7fff) && (a & 0x7fff) != 0 && ((a | b) & 0x8000) != 0;
    }

    /** Adds to a counter. */
    void count(RvtCounter c) {
        counters.incrementAndGet(c.ordinal());
    }

    void count(RvtCounter c, int n) {
        counters.addAndGet(c.ordinal(), n);
    }

    /** A counter's value: the device's own counts, every live QP's and the destroyed QPs'. */
    public long counter(RvtCounter c) {
        int i = c.ordinal();
        long[] sum = new long[1];
        synchronized (retired) {
            sum[0] = counters.get(i) + retired[i];
            qps.forEach(qp -> sum[0] += qp.countOf(i));
        }
        return sum[0];
    }

    /**
     * Takes a destroyed QP (its task held, so it counts no more) out of the QP table and keeps its
     * counts, in one step for readers: each count is summed exactly once.
     */
    void retire(RvtQp qp) {
        synchronized (retired) {
            for (int i = 0; i < COUNTERS; i++) {
                retired[i] += qp.countOf(i);
            }
            qps.remove(qp, qp.qpn);
        }
    }
}
