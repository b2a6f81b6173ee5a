package org.rdma.bench;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * ib_write_bw between the two devices of an {@link RxeLo} over {@code 127.0.0.1} (RoCEv2 GID
 * {@code ::ffff:127.0.0.1}, path MTU the port's active MTU): one RC QP per side, one registered
 * buffer per side, up to {@code depth} WRITEs posted, every {@code signalEvery}-th signalled;
 * one message per {@link #next()}, nothing allocated per message. A full send queue waits for a
 * completion event (perftest's {@code -e}).
 */
final class RxeWriter implements AutoCloseable {
    private static final String IP = "::ffff:127.0.0.1";

    final RxeLo lo = new RxeLo();
    final RcConn.End a = new RcConn.End();
    final RcConn.End b = new RcConn.End();
    final int size;
    final int depth;
    final int signalEvery;
    final Mtu mtu;
    private final SendWr wr = new SendWr();
    private final SendWr[] bad = new SendWr[1];
    private final Wc[] wc = Wc.array(16);
    private final Semaphore events = new Semaphore(0);
    private long posted;
    private long completed;

    RxeWriter(int size, int depth, int signalEvery) {
        if (depth % signalEvery != 0) {
            throw new IllegalArgumentException("depth must be a multiple of the signalling interval");
        }
        this.size = size;
        this.depth = depth;
        this.signalEvery = signalEvery;
        try {
            mtu = lo.devA.queryPort(1).activeMtu;
            open(lo.devA, a);
            open(lo.devB, b);
            connect(lo.devA, a, b.qp.qpNum(), 0x3a3f1e, 0x0c4d2b);
            connect(lo.devB, b, a.qp.qpNum(), 0x0c4d2b, 0x3a3f1e);
        } catch (RuntimeException e) {
            lo.close();
            throw e;
        }
        for (int i = 0; i < a.buf.capacity(); i++) {
            a.buf.put(i, (byte) (i * 31 + 7));
        }
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.sg(new Sge(a.mr.iova(), size, a.mr.lkey()));
        wr.remoteAddr = b.mr.iova();
        wr.rkey = b.mr.rkey();
    }

    private void open(IbDevice dev, RcConn.End e) {
        RcConn.open(dev, e, depth, Math.max(size, 64), 0x7f3a_0000_0000L,
                AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, AccessFlags.REMOTE_WRITE, cq -> events.release());
    }

    private void connect(CoreDevice dev, RcConn.End e, int remoteQpn, int psn, int remotePsn) {
        RcConn.connect(e, mtu, remoteQpn, psn, remotePsn, 0,
                av -> av.setGrh(Gid.parse(IP), 0, RxeLo.gidIndex(dev, IP), 64, 0, null));
    }

    /** Posts one WRITE, first reaping completions while the send queue is full. */
    void next() {
        while (posted - completed >= depth) {
            completed += (long) await() * signalEvery;
        }
        posted++;
        wr.wrId = posted;
        wr.sendFlags = posted % signalEvery == 0 ? SendFlags.SIGNALED : 0;
        int rc = a.qp.postSend(wr, bad);
        if (rc != 0) {
            throw new IllegalStateException("postSend " + rc + " after " + posted);
        }
    }

    /**
     * perftest's {@code -e}: polls, and when the CQ is empty arms it ({@code ib_req_notify_cq()}
     * with missed-event reporting) and sleeps until the completion handler runs, so a full send
     * queue leaves the CPU to the device's threads instead of spinning on it.
     */
    private int await() {
        while (true) {
            int n = poll();
            if (n > 0) {
                return n;
            }
            if (a.cq.reqNotifyCq(CqNotifyFlags.NEXT_COMP | CqNotifyFlags.REPORT_MISSED_EVENTS) > 0) {
                continue;
            }
            try {
                if (!events.tryAcquire(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no completion event for 10 s after " + posted + " WRITEs");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            events.drainPermits();
        }
    }

    private int poll() {
        int n = a.cq.pollCq(wc.length, wc);
        if (n < 0) {
            throw new IllegalStateException("poll CQ " + n);
        }
        for (int i = 0; i < n; i++) {
            if (wc[i].status != WcStatus.SUCCESS) {
                throw new IllegalStateException("completion " + wc[i]);
            }
        }
        return n;
    }

    /** Waits (10 s at most) for every signalled WRITE posted so far. */
    void drain() {
        long want = posted - posted % signalEvery;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (completed < want) {
            completed += (long) poll() * signalEvery;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion for 10 s: " + completed + " of " + want);
            }
        }
    }

    /** The destination holds what the source holds (the WRITEs really moved the bytes). */
    void verify() {
        for (int i = 0; i < size; i++) {
            if (b.buf.get(i) != a.buf.get(i)) {
                throw new IllegalStateException("destination differs at byte " + i);
            }
        }
    }

    @Override
    public void close() {
        try {
            b.close();
            a.close();
        } finally {
            lo.close();
        }
    }
}
