package org.rdma.shell.internal.perf;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * One end of rdma-core's {@code ibv_rc_pingpong} or {@code ibv_ud_pingpong}
 * ({@code libibverbs/examples/rc_pingpong.c}, {@code ud_pingpong.c}) whose peer may be another
 * process or host, running the tools' own algorithm so that either end may be the C tool:
 *
 * <ul>
 *   <li>{@link #open} ({@code pp_init_ctx()}): one buffer of {@code size} bytes (UD: 40 more,
 *       the room for the GRH in front of every received message), a CQ of {@code rx_depth + 1},
 *       a QP with one send and {@code rx_depth} receive WRs moved to INIT (UD with the tools'
 *       Q_Key 0x11111111), all {@code rx_depth} receives posted, a random PSN;</li>
 *   <li>{@link #connect} ({@code pp_connect_ctx()}): RC to RTR and RTS with the peer's QPN and
 *       PSN (GRH hop limit 1); UD to RTR and RTS and an address handle to the peer (hop limit
 *       64); a GRH only when the peer announced a GID;</li>
 *   <li>{@link #run}: the tools' loop. Both ends use the one buffer for sending and receiving,
 *       so the server sends back what it just received; the client posts the first send, and
 *       each end posts its next send once its previous send and receive have both completed;
 *       receives are re-posted when fewer than two are left.</li>
 * </ul>
 *
 * <p>With {@code validate} ({@code -c}): the client fills its message with a pattern and checks
 * every echo byte for byte (the tool checks one byte per page at the end); the server checks that
 * every message equals the first one it received; both check every receive's length. A
 * difference is {@code EIO}. A completion in error is {@code EIO} with the tools' text;
 * {@code ETIMEDOUT} when nothing completes for 10 s.
 *
 * <p>Building, connecting (which makes the UD address handle), {@link #close} and
 * {@link #disassociate} exclude each other; the loop uses the objects without a lock.
 */
public final class PingpongEnd implements AutoCloseable, Uverbs.Context {
    /** Room in front of a UD receive for the GRH (the tools' 40). */
    public static final int GRH_ROOM = 40;
    /** The tools' Q_Key. */
    public static final int QKEY = 0x11111111;
    /** rc_pingpong's {@code min_rnr_timer}. */
    static final int MIN_RNR_TIMER = 12;
    static final long IOVA = 0x7f3a_5000_0000L;

    /** What to build (the tools' options). */
    public static final class Config {
        /** RC or UD. */
        public QpType transport = QpType.RC;
        /** {@code -d}. */
        public String device;
        /** {@code -i}. */
        public int port = 1;
        /** {@code -s}. */
        public int size = 4096;
        /** {@code -r}. */
        public int rxDepth = 500;
        /** {@code -n}. */
        public int iters = 1000;
        /** {@code -m} (RC). */
        public Mtu mtu = Mtu.MTU_1024;
        /** {@code -l}. */
        public int sl;
        /** {@code -g}: the local GID index, -1 for none. */
        public int gidIndex = -1;
        /** {@code -e}: sleep on completion events instead of polling. */
        public boolean events;
        /** {@code -c}: validate the received data. */
        public boolean validate;
        /** Seed of the PSN ({@code lrand48()} in the tools). */
        public long seed = System.nanoTime();
        /** The client that disassociates this end when its device goes; {@code null}: the core reaps. */
        public Uverbs uverbs;
    }

    private final Config config;
    private final boolean ud;
    private IbDevice device;
    private boolean held;
    private Uverbs uverbs;
    /** Whether the objects have been destroyed, by {@link #close} or {@link #disassociate}. */
    private boolean destroyed;
    private PortAttr portAttr;
    private Gid gid = Gid.ZERO;
    private IbPd pd;
    private IbCq cq;
    private IbMr mr;
    private IbQp qp;
    private IbAh ah;
    private ByteBuffer buf;
    private RcPair.Dest local;
    private RcPair.Dest remote;
    private final Semaphore cqEvents = new Semaphore(0);
    private final Wc[] wc = Wc.array(2);
    private final RecvWr recvWr = new RecvWr();
    private final SendWr sendWr = new SendWr();
    private byte[] firstMessage;

    private PingpongEnd(Config config) {
        this.config = config;
        this.ud = config.transport == QpType.UD;
    }

    /**
     * Builds one end on {@code config.device} (ENODEV if unknown; EINVAL for a bad port, GID
     * index, or a UD size above the port's MTU) and posts its receives. Everything built is
     * released again on failure.
     */
    public static PingpongEnd open(IbCore core, Config config) {
        RdmaException.check(config.transport == QpType.RC || config.transport == QpType.UD, Errno.EINVAL,
                "pingpong runs over RC or UD, not " + config.transport);
        PingpongEnd e = new PingpongEnd(config);
        try {
            e.init(core);
            return e;
        } catch (RuntimeException x) {
            try {
                e.close();
            } catch (RuntimeException y) {
                x.addSuppressed(y);
            }
            throw x;
        }
    }

    private synchronized void init(IbCore core) {
        device = core.getByName(config.device, null);
        if (device == null) {
            throw new RdmaException(Errno.ENODEV, "IB device " + config.device + " not found");
        }
        held = true;
        if (config.uverbs != null) {
            RdmaException.check(config.uverbs.attach(device, this), Errno.ENODEV, config.device + " is going away");
            uverbs = config.uverbs;
        }
        RdmaException.check(config.port >= 1 && config.port <= device.endPort(), Errno.EINVAL,
                config.device + " has no port " + config.port);
        portAttr = device.queryPort(config.port);
        if (ud) {
            RdmaException.check(config.size <= portAttr.activeMtu.bytes, Errno.EINVAL,
                    "Requested size larger than port MTU (" + portAttr.activeMtu.bytes + ")");
        }
        RdmaException.check(portAttr.linkLayer == LinkLayer.ETHERNET || portAttr.lid != 0, Errno.EINVAL,
                "Couldn't get local LID");
        if (config.gidIndex >= 0) {
            try {
                gid = device.queryGid(config.port, config.gidIndex);
            } catch (RdmaException e) {
                throw new RdmaException(Errno.EINVAL, "can't read sgid of index " + config.gidIndex, e);
            }
        }
        pd = device.allocPd(0);
        buf = ByteBuffer.allocateDirect(config.size + (ud ? GRH_ROOM : 0));
        for (int i = 0; i < buf.capacity(); i++) {
            buf.put(i, (byte) 0x7b);
        }
        mr = pd.regMr(buf.duplicate().clear(), IOVA, AccessFlags.LOCAL_WRITE);
        cq = device.createCq(config.events ? c -> cqEvents.release() : null, null, this,
                CqInitAttr.of(config.rxDepth + 1, 0));
        QpInitAttr init = new QpInitAttr();
        init.qpType = config.transport;
        init.sendCq = cq;
        init.recvCq = cq;
        init.cap.maxSendWr = 1;
        init.cap.maxRecvWr = config.rxDepth;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        qp = pd.createQp(init);
        QpAttr attr = new QpAttr();
        attr.qpState = QpState.INIT;
        attr.pkeyIndex = 0;
        attr.portNum = config.port;
        int mask = QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT;
        if (ud) {
            attr.qkey = QKEY;
            mask |= QpAttrMask.QKEY;
        } else {
            attr.qpAccessFlags = 0;
            mask |= QpAttrMask.ACCESS_FLAGS;
        }
        qp.modify(attr, mask);
        recvWr.wrId = Pingpong.RECV_WRID;
        recvWr.sg(new Sge(IOVA, config.size + (ud ? GRH_ROOM : 0), mr.lkey()));
        sendWr.wrId = Pingpong.SEND_WRID;
        sendWr.opcode = WrOpcode.SEND;
        sendWr.sendFlags = SendFlags.SIGNALED;
        sendWr.sg(new Sge(IOVA + (ud ? GRH_ROOM : 0), config.size, mr.lkey()));
        int posted = postRecv(config.rxDepth);
        if (posted < config.rxDepth) {
            throw new RdmaException(Errno.ENOMEM, "Couldn't post receive (" + posted + ")");
        }
        local = new RcPair.Dest(portAttr.lid, qp.qpNum(), new Random(config.seed).nextInt() & 0xffffff, gid);
        if (config.events) {
            cq.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
        }
        // As in RcPair: a run does not hold off the device's removal (Uverbs then flushes and
        // destroys these objects, and the run fails with the flushed completions).
        held = false;
        device.put();
    }

    /** What this end announces. */
    public RcPair.Dest local() {
        return local;
    }

    /** The line the tool prints for its own address (ud_pingpong's has a colon before "GID"). */
    public String localLine() {
        String line = local.pingpongLine("local");
        return ud ? line.replace(", GID ", ": GID ") : line;
    }

    /** {@code pp_connect_ctx()}: connects the QP (RC) or creates the address handle (UD) to {@code peer}. */
    public synchronized void connect(RcPair.Dest peer) {
        RdmaException.check(!destroyed, Errno.ENODEV, config.device + " is gone");
        this.remote = peer;
        AhAttr av = new AhAttr();
        av.portNum = config.port;
        av.dlid = peer.lid();
        av.sl = config.sl;
        av.srcPathBits = 0;
        if (peer.gid().interfaceId() != 0) {
            av.setGrh(peer.gid(), 0, Math.max(config.gidIndex, 0), ud ? 64 : 1, 0, null);
        }
        QpAttr attr = new QpAttr();
        attr.qpState = QpState.RTR;
        try {
            if (ud) {
                qp.modify(attr, QpAttrMask.STATE);
            } else {
                attr.pathMtu = config.mtu;
                attr.destQpNum = peer.qpn();
                attr.rqPsn = peer.psn();
                attr.maxDestRdAtomic = 1;
                attr.minRnrTimer = MIN_RNR_TIMER;
                AhAttr.copy(attr.ahAttr, av);
                qp.modify(attr, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                        | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
            }
        } catch (RdmaException e) {
            throw new RdmaException(e.errno(), "Failed to modify QP to RTR: " + e.getMessage()
                    + (peer.gid().isZero() && portAttr.linkLayer == LinkLayer.ETHERNET ? " (RoCE needs -g on both ends)" : ""),
                    e);
        }
        QpAttr rts = new QpAttr();
        rts.qpState = QpState.RTS;
        rts.sqPsn = local.psn();
        if (ud) {
            qp.modify(rts, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
            ah = pd.createAh(av, 0);
            sendWr.ah = ah;
            sendWr.remoteQpn = peer.qpn();
            sendWr.remoteQkey = QKEY;
        } else {
            rts.timeout = 14;
            rts.retryCnt = 7;
            rts.rnrRetry = 7;
            rts.maxRdAtomic = 1;
            qp.modify(rts, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                    | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC);
        }
    }

    /**
     * The tools' loop: {@code iters} messages each way, the client sending first. Returns the
     * measurement (what the tools print at the end).
     */
    public Pingpong.Result run(boolean client) {
        RdmaException.check(remote != null, Errno.EINVAL, "not connected");
        int iters = config.iters;
        int routs = config.rxDepth;
        int pending = (int) Pingpong.RECV_WRID;
        int off = ud ? GRH_ROOM : 0;
        if (client) {
            if (config.validate) {
                for (int k = 0; k < config.size; k++) {
                    buf.put(off + k, pattern(local.psn(), k));
                }
            }
            postSend();
            pending |= (int) Pingpong.SEND_WRID;
        }
        int rcnt = 0;
        int scnt = 0;
        long start = System.nanoTime();
        long last = start;
        while (rcnt < iters || scnt < iters) {
            if (config.events) {
                awaitEvent(last);
                cq.reqNotifyCq(CqNotifyFlags.NEXT_COMP);
            }
            int n = cq.pollCq(wc.length, wc);
            if (n < 0) {
                throw new RdmaException(Pingpong.errno(n), "poll CQ failed " + n);
            }
            if (n == 0) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new RdmaException(Errno.EINTR, "interrupted (sent " + scnt + ", received " + rcnt + ")");
                }
                if (System.nanoTime() - last > Pingpong.STALL_NANOS) {
                    throw new RdmaException(Errno.ETIMEDOUT, "no completion for 10 s (sent " + scnt + ", received "
                            + rcnt + " of " + iters + ")");
                }
                Thread.onSpinWait();
                continue;
            }
            last = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Wc w = wc[i];
                if (w.status != WcStatus.SUCCESS) {
                    throw new RdmaException(Errno.EIO, PerfFormat.f("Failed status %s (%d) for wr_id %d",
                            w.status.message(), w.status.ordinal(), (int) w.wrId));
                }
                if (w.wrId == Pingpong.SEND_WRID) {
                    scnt++;
                } else if (w.wrId == Pingpong.RECV_WRID) {
                    if (--routs <= 1) {
                        routs += postRecv(config.rxDepth - routs);
                        if (routs < config.rxDepth) {
                            throw new RdmaException(Errno.ENOMEM, "Couldn't post receive (" + routs + ")");
                        }
                    }
                    if (config.validate) {
                        check(client, w, rcnt);
                    }
                    rcnt++;
                } else {
                    throw new RdmaException(Errno.EIO, "Completion for unknown wr_id " + (int) w.wrId);
                }
                pending &= ~(int) w.wrId;
                if (scnt < iters && pending == 0) {
                    postSend();
                    pending = (int) (Pingpong.RECV_WRID | Pingpong.SEND_WRID);
                }
            }
        }
        return new Pingpong.Result(config.size, iters, System.nanoTime() - start);
    }

    /** The byte at {@code offset} of a validating client's message. */
    static byte pattern(int psn, int offset) {
        int x = psn * 0x9e3779b1 + offset * 0x85ebca6b;
        return (byte) (x ^ (x >>> 13) ^ (offset >>> 8));
    }

    private void check(boolean client, Wc w, int iter) {
        int off = ud ? GRH_ROOM : 0;
        int want = config.size + off;
        if (w.byteLen != want) {
            throw new RdmaException(Errno.EIO, "message " + iter + " has " + w.byteLen + " bytes, expected " + want);
        }
        if (!client && firstMessage == null) {
            firstMessage = new byte[config.size];
            buf.get(off, firstMessage);
            return;
        }
        for (int k = 0; k < config.size; k++) {
            byte expect = client ? pattern(local.psn(), k) : firstMessage[k];
            byte got = buf.get(off + k);
            if (got != expect) {
                throw new RdmaException(Errno.EIO, PerfFormat.f(
                        "invalid data at byte %d of message %d: 0x%02x, expected 0x%02x", k, iter, got & 0xff,
                        expect & 0xff));
            }
        }
    }

    private void awaitEvent(long last) {
        long left = Pingpong.STALL_NANOS - (System.nanoTime() - last);
        try {
            if (left <= 0 || !cqEvents.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                throw new RdmaException(Errno.ETIMEDOUT, "no completion event for 10 s");
            }
            cqEvents.drainPermits();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException(Errno.EINTR, "interrupted while waiting for a completion event");
        }
    }

    private int postRecv(int n) {
        for (int i = 0; i < n; i++) {
            if (qp.postRecv(recvWr, null) != 0) {
                return i;
            }
        }
        return n;
    }

    private void postSend() {
        int rc = qp.postSend(sendWr, null);
        if (rc != 0) {
            throw new RdmaException(Pingpong.errno(rc), "Couldn't post send");
        }
    }

    /**
     * {@code pp_close_ctx()}: QP, CQ, MR, AH, PD (unless {@link #disassociate} destroyed them),
     * then the device reference; the first failure is thrown.
     */
    @Override
    public synchronized void close() {
        Teardown t = new Teardown();
        destroyObjects(t);
        if (device != null && held) {
            held = false;
            t.step(device::put);
        }
        if (uverbs != null) {
            uverbs.detach(device, this);
            uverbs = null;
        }
        device = null;
        t.rethrow();
    }

    @Override
    public synchronized void disassociate() {
        if (destroyed) {
            return;
        }
        if (qp != null) {
            Uverbs.flush(qp);
        }
        Teardown t = new Teardown();
        destroyObjects(t);
        t.rethrow();
    }

    /** The objects in {@code pp_close_ctx()}'s order; once. */
    private void destroyObjects(Teardown t) {
        if (destroyed) {
            return;
        }
        destroyed = true;
        if (qp != null) {
            t.step(qp::destroy);
        }
        if (cq != null) {
            t.step(cq::destroy);
        }
        if (mr != null) {
            t.step(mr::dereg);
        }
        if (ah != null) {
            t.step(ah::destroy);
        }
        if (pd != null) {
            t.step(pd::dealloc);
        }
    }
}
