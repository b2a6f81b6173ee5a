package org.rdma.hca.mlx4sim.itest.support;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * One RC QP under traffic, and the books on it: every request and receive posted with return
 * code 0 is outstanding until its completion arrives at this {@code wr_cqe}; completions are
 * counted by kind and status, and one that matches nothing outstanding (lost books or a
 * duplicate) is recorded as an error. Posting is fenced by {@link #close()}.
 *
 * <p>A completion is counted before its request leaves the outstanding set: a test that waits
 * for "nothing outstanding" then reads the counts must find every completion in them.
 */
public final class Endpoint implements IbCqe {
    /** Requests kept in flight by {@link #pump}. */
    public static final int SENDS_IN_FLIGHT = 16;
    /** Receives kept posted by {@link #pump}. */
    public static final int RECVS_POSTED = 32;
    static final int RECV_AREA = 0;
    static final int WRITE_AREA = 1 << 18;
    static final int SRC_AREA = 1 << 19;

    public final String label;
    public final Side side;
    public final IbQp qp;
    private Endpoint peer;

    private final ReentrantLock postLock = new ReentrantLock();
    private boolean closed;
    private volatile String stopped;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, Wr> outstanding = new ConcurrentHashMap<>();
    private final AtomicInteger sendsInFlight = new AtomicInteger();
    private final AtomicInteger recvsPosted = new AtomicInteger();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final AtomicInteger postedSends = new AtomicInteger();
    private final AtomicInteger postedRecvs = new AtomicInteger();
    private final List<String> errors = new ArrayList<>();
    private final SendWr swr = new SendWr();
    private final RecvWr rwr = new RecvWr();
    private final Sge ssge = new Sge();
    private final Sge rsge = new Sge();

    Endpoint(String label, Side side, IbQp qp) {
        this.label = label;
        this.side = side;
        this.qp = qp;
        swr.sg(ssge);
        rwr.sg(rsge);
    }

    // ------------------------------------------------------------------ connection

    /** Connects {@code a} and {@code b} over RoCEv2 (RESET -> INIT -> RTR -> RTS on both). */
    public static void connect(Endpoint a, String aIp, Endpoint b, String bIp, int timeout, int retryCnt) {
        a.peer = b;
        b.peer = a;
        a.toRts(b.qp.qpNum(), aIp, bIp, timeout, retryCnt);
        b.toRts(a.qp.qpNum(), bIp, aIp, timeout, retryCnt);
    }

    private void toRts(int dqpn, String ownIp, String peerIp, int timeout, int retryCnt) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = 0;
        at.portNum = 1;
        at.qpAccessFlags = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
        qp.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
        at = new QpAttr();
        at.qpState = QpState.RTR;
        at.ahAttr.portNum = 1;
        at.ahAttr.setGrh(Gid.fromIp(ip(peerIp)), 0, sgidIndex(side.device, ownIp), 64, 0, null);
        at.pathMtu = Mtu.MTU_1024;
        at.destQpNum = dqpn;
        at.rqPsn = 0x10;
        at.maxDestRdAtomic = 4;
        at.minRnrTimer = 1;
        qp.modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
        at = new QpAttr();
        at.qpState = QpState.RTS;
        at.sqPsn = 0x10;
        at.timeout = timeout;
        at.retryCnt = retryCnt;
        at.rnrRetry = 7;
        at.maxRdAtomic = 4;
        qp.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT
                | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC);
        if (qp.state() != QpState.RTS) {
            throw new AssertionError(label + " is " + qp.state() + " after modify to RTS");
        }
    }

    static InetAddress ip(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(s, e);
        }
    }

    /** The GID index of {@code ip} on port 1 ({@code rdma_find_gid}). */
    static int sgidIndex(IbDevice d, String ip) {
        Gid want = Gid.fromIp(ip(ip));
        for (int i = 0; i < 16; i++) {
            try {
                if (want.equals(d.queryGid(1, i))) {
                    return i;
                }
            } catch (RuntimeException emptySlot) {
                // keep looking
            }
        }
        throw new AssertionError(d.name() + " has no GID for " + ip);
    }

    // ------------------------------------------------------------------ traffic

    /**
     * Tops the QP up to {@link #RECVS_POSTED} receives and {@link #SENDS_IN_FLIGHT} requests
     * (RDMA WRITEs and SENDs of 1..4096 bytes). Returns false once the QP refuses work (a
     * non-zero return code or an exception, both recorded) or was closed.
     */
    public boolean pump(Random rnd) {
        postLock.lock();
        try {
            if (closed || stopped != null) {
                return false;
            }
            while (recvsPosted.get() < RECVS_POSTED) {
                long id = nextId.getAndIncrement();
                rwr.wrId = id;
                rwr.wrCqe = this;
                rsge.set(Side.IOVA + RECV_AREA, 4096, side.mr.lkey());
                int rc = post(id, false, () -> qp.postRecv(rwr, null));
                if (rc != 0) {
                    stopped = "postRecv returned " + rc;
                    return false;
                }
            }
            while (sendsInFlight.get() < SENDS_IN_FLIGHT) {
                long id = nextId.getAndIncrement();
                int len = 1 + rnd.nextInt(4096);
                swr.wrId = id;
                swr.wrCqe = this;
                swr.sendFlags = SendFlags.SIGNALED;
                ssge.set(Side.IOVA + SRC_AREA + rnd.nextInt(1 << 16), len, side.mr.lkey());
                if ((id & 1) == 0) {
                    swr.opcode = WrOpcode.RDMA_WRITE;
                    swr.remoteAddr = Side.IOVA + WRITE_AREA + rnd.nextInt(1 << 16);
                    swr.rkey = peer.side.mr.rkey();
                } else {
                    swr.opcode = WrOpcode.SEND;
                }
                int rc = post(id, true, () -> qp.postSend(swr, null));
                if (rc != 0) {
                    stopped = "postSend returned " + rc;
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            stopped = "post threw " + e;
            return false;
        } finally {
            postLock.unlock();
        }
    }

    /** Posts one RDMA WRITE now; returns the return code (0: it is outstanding until completed). */
    public int postOneWrite() {
        postLock.lock();
        try {
            long id = nextId.getAndIncrement();
            swr.wrId = id;
            swr.wrCqe = this;
            swr.sendFlags = SendFlags.SIGNALED;
            swr.opcode = WrOpcode.RDMA_WRITE;
            ssge.set(Side.IOVA + SRC_AREA, 64, side.mr.lkey());
            swr.remoteAddr = Side.IOVA + WRITE_AREA;
            swr.rkey = peer.side.mr.rkey();
            return post(id, true, () -> qp.postSend(swr, null));
        } finally {
            postLock.unlock();
        }
    }

    /**
     * Posts one work request under {@code postLock}: it is on the books before the post, since
     * its completion may arrive before the post returns, and off them again if the QP refused
     * it (a non-zero return code, or an exception, which is rethrown).
     */
    private int post(long id, boolean send, IntSupplier post) {
        AtomicInteger inFlight = send ? sendsInFlight : recvsPosted;
        outstanding.put(id, new Wr(send));
        inFlight.incrementAndGet();
        boolean accepted = false;
        try {
            int rc = post.getAsInt();
            accepted = rc == 0;
            return rc;
        } finally {
            if (accepted) {
                (send ? postedSends : postedRecvs).incrementAndGet();
            } else {
                outstanding.remove(id);
                inFlight.decrementAndGet();
            }
        }
    }

    /** Fences posting: when this returns, no post is running or will run on this QP. */
    public void close() {
        postLock.lock();
        try {
            closed = true;
        } finally {
            postLock.unlock();
        }
    }

    @Override
    public void done(IbCq cq, Wc wc) {
        Wr wr = outstanding.get(wc.wrId);
        if (wr == null || !wr.completed.compareAndSet(false, true)) {
            synchronized (errors) {
                errors.add("completion for nothing outstanding (duplicate or unknown): " + wc);
            }
            return;
        }
        if (wc.byteLen > 4096 && !wr.send) {
            synchronized (errors) {
                errors.add("receive longer than any send: " + wc);
            }
        }
        counts.computeIfAbsent((wr.send ? "send " : "recv ") + wc.status, k -> new AtomicInteger()).incrementAndGet();
        (wr.send ? sendsInFlight : recvsPosted).decrementAndGet();
        // Last: whoever sees nothing outstanding must find this completion counted.
        outstanding.remove(wc.wrId);
    }

    /** A request or receive on the books; claimed once by its first completion. */
    private static final class Wr {
        final boolean send;
        final AtomicBoolean completed = new AtomicBoolean();

        Wr(boolean send) {
            this.send = send;
        }
    }

    // ------------------------------------------------------------------ the books

    /** For messages: the next wrId to be used and the outstanding wrIds with their kind, as of now. */
    public String snapshot() {
        Map<Long, String> m = new TreeMap<>();
        outstanding.forEach((k, v) -> m.put(k, v.send ? "s" : "r"));
        return "next=" + nextId.get() + " qp=" + qp.state() + " outstanding=" + m;
    }

    /** Requests and receives posted and not completed. */
    public int outstanding() {
        return outstanding.size();
    }

    /** Completions of one kind ("send"/"recv") and status. */
    public int count(String kind, WcStatus status) {
        AtomicInteger n = counts.get(kind + " " + status);
        return n == null ? 0 : n.get();
    }

    /** Every completion count, by "kind STATUS". */
    public Map<String, Integer> counts() {
        Map<String, Integer> m = new TreeMap<>();
        counts.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    /** Completions of any status. */
    public int completed() {
        return counts.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    public int postedSends() {
        return postedSends.get();
    }

    public int postedRecvs() {
        return postedRecvs.get();
    }

    /** Why posting stopped, or null. */
    public String stopped() {
        return stopped;
    }

    /** Completions that matched nothing outstanding. */
    public List<String> errors() {
        synchronized (errors) {
            return new ArrayList<>(errors);
        }
    }

    @Override
    public String toString() {
        return label + "[qp " + qp.qpNum() + " posted " + postedSends.get() + "+" + postedRecvs.get() + "r, outstanding "
                + outstanding.size() + ", " + counts() + (stopped == null ? "" : ", stopped: " + stopped) + "]";
    }
}
