package org.rdma.shell.internal.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
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
import org.rdma.verbs.SigType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;

/**
 * Two ends of reliable-connected traffic inside one runtime: on each of two local device ports
 * a PD, a polled CQ, one registered buffer and {@code qps} RC QPs, connected pairwise. It is the
 * resource setup of rdma-core's {@code libibverbs/examples/rc_pingpong.c}
 * ({@code pp_init_ctx()}, {@code pp_connect_ctx()}) and perftest's {@code src/write_bw.c}
 * ({@code ctx_init()}, {@code ctx_connect()}), shared by {@link Pingpong} and {@link WriteBw};
 * what the tools send over a TCP socket (LID, QPN, PSN, GID: {@link Dest}) is handed over in
 * memory.
 *
 * <p>{@link #open} builds everything and moves each QP RESET &rarr; INIT; {@link #connect}
 * moves both ends INIT &rarr; RTR &rarr; RTS with an address vector to the other (a GRH with the
 * chosen source GID index when the peer has a GID: with {@code -g}, and always on RoCE ports,
 * where GID index 0 is used if none was chosen). {@link #close} tears down in reverse order
 * (QPs, MRs, CQs, PDs, device references), also after a failure half way through {@code open}.
 */
public final class RcPair implements AutoCloseable {
    /** IOVA of the first side's buffer; the second's is {@link #IOVA_STRIDE} higher. */
    static final long IOVA_BASE = 0x7f3a_0000_0000L;
    static final long IOVA_STRIDE = 0x10_0000_0000L;

    /** What to build. */
    public static final class Config {
        /** The first (client) device and port. */
        public String deviceA;
        /** Port of {@link #deviceA}. */
        public int portA = 1;
        /** The second (server) device; may equal {@link #deviceA} with another port. */
        public String deviceB;
        /** Port of {@link #deviceB}. */
        public int portB = 1;
        /** The source GID index ({@code -g}); -1 for none (IB without GRH). */
        public int gidIndex = -1;
        /** Path MTU; {@code null}: the smaller active MTU of the two ports. */
        public Mtu mtu;
        /** QPs per side. */
        public int qps = 1;
        /** Send queue depth per QP. */
        public int sendDepth = 1;
        /** Receive queue depth per QP. */
        public int recvDepth = 1;
        /**
         * {@code sq_sig_all}: every send request completes with an entry, as rc_pingpong's QPs
         * ({@code true}); perftest's ({@code false}) signal only the requests that ask for it,
         * which its CQ moderation relies on.
         */
        public boolean sqSigAll = true;
        /** Bytes of each side's registered buffer. */
        public int bufferSize = 4096;
        /** Seed of the initial PSNs ({@code lrand48()} in the tools). */
        public long seed = System.nanoTime();
        /** The client that disassociates each side when its device goes; {@code null}: the core reaps. */
        public Uverbs uverbs;
    }

    /**
     * What one end tells the other ({@code struct pingpong_dest}): LID, QP number, initial PSN
     * and GID (zero when no GID index is used).
     */
    public record Dest(int lid, int qpn, int psn, Gid gid) {
        /**
         * rc_pingpong's line: {@code   local address:  LID 0x0001, QPN 0x000011, PSN 0x3a3f1e, GID ::}
         * ({@code which} is {@code "local"} or {@code "remote"}).
         */
        public String pingpongLine(String which) {
            return PerfFormat.f("  %-16sLID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s", which + " address:", lid, qpn, psn,
                    PerfFormat.inetNtop(gid));
        }
    }

    /**
     * One end: a device port and its objects. Building ({@link #open}), {@link #release} and
     * {@link #disassociate} exclude each other; the run uses the objects without a lock, and
     * after a disassociation finds them destroyed (as a process's objects after
     * {@code ib_uverbs_remove_one()}).
     */
    public static final class Side implements Uverbs.Context {
        final String name;
        final int port;
        IbDevice device;
        /** Whether this end still holds the reference {@code getByName} took. */
        boolean held;
        private Uverbs uverbs;
        /** Whether the objects have been destroyed, by {@link #release} or {@link #disassociate}. */
        private boolean destroyed;
        PortAttr portAttr;
        Gid gid = Gid.ZERO;
        IbPd pd;
        IbCq cq;
        IbMr mr;
        ByteBuffer buffer;
        final List<IbQp> qps = new ArrayList<>();
        final List<Dest> dests = new ArrayList<>();

        Side(String name, int port) {
            this.name = name;
            this.port = port;
        }

        /** One end on its own (the other end in another process): nothing built yet. */
        public static Side of(String name, int port) {
            return new Side(name, port);
        }

        /**
         * Holds the device and builds the PD, the CQ, the buffer and its MR at {@code iova}, and
         * {@code config.qps} RC QPs moved to INIT ({@code pp_init_ctx()}, perftest's
         * {@code ctx_init()}); {@code config}'s device and port fields are not used. Fails with
         * {@code ENODEV} for an unknown device, {@code EINVAL} for a bad port or GID index; the
         * caller releases what was built ({@link #release}).
         */
        public synchronized void open(IbCore core, Config config, long iova, Random psn) {
            device = core.getByName(name, null);
            if (device == null) {
                throw new RdmaException(Errno.ENODEV, "IB device " + name + " not found");
            }
            held = true;
            if (config.uverbs != null) {
                RdmaException.check(config.uverbs.attach(device, this), Errno.ENODEV, name + " is going away");
                uverbs = config.uverbs;
            }
            RdmaException.check(port >= 1 && port <= device.endPort(), Errno.EINVAL, name + " has no port " + port);
            portAttr = device.queryPort(port);
            boolean roce = portAttr.linkLayer == LinkLayer.ETHERNET;
            RdmaException.check(roce || portAttr.lid != 0, Errno.EINVAL,
                    "Couldn't get local LID of " + name + "/" + port + " (port " + portAttr.state.displayName() + ")");
            int gidIndex = config.gidIndex >= 0 ? config.gidIndex : roce ? 0 : -1;
            if (gidIndex >= 0) {
                try {
                    gid = device.queryGid(port, gidIndex);
                } catch (RdmaException e) {
                    throw new RdmaException(Errno.EINVAL, "can't read sgid of index " + gidIndex + " on " + name, e);
                }
            }
            pd = device.allocPd(0);
            int cqe = config.qps * (config.sendDepth + config.recvDepth) + 1;
            cq = device.createCq(null, null, this, CqInitAttr.of(cqe, 0));
            buffer = ByteBuffer.allocateDirect(config.bufferSize);
            mr = pd.regMr(buffer.duplicate().clear(), iova,
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
            for (int i = 0; i < config.qps; i++) {
                QpInitAttr init = new QpInitAttr();
                init.qpType = QpType.RC;
                init.sendCq = cq;
                init.recvCq = cq;
                init.sqSigType = config.sqSigAll ? SigType.ALL_WR : SigType.REQ_WR;
                init.cap.maxSendWr = config.sendDepth;
                init.cap.maxRecvWr = config.recvDepth;
                init.cap.maxSendSge = 1;
                init.cap.maxRecvSge = 1;
                IbQp qp = pd.createQp(init);
                qps.add(qp);
                QpAttr attr = new QpAttr();
                attr.qpState = QpState.INIT;
                attr.pkeyIndex = 0;
                attr.portNum = port;
                attr.qpAccessFlags = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
                qp.modify(attr, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
                dests.add(new Dest(portAttr.lid, qp.qpNum(), psn.nextInt() & 0xffffff, gid));
            }
            // Like a process's uverbs context, a run does not hold off the device's removal:
            // Uverbs then flushes and destroys these objects, and the run reports the flushed work.
            held = false;
            device.put();
        }

        /**
         * {@code pp_connect_ctx()} / perftest's {@code ctx_connect()} for QP {@code i}: RTR with
         * the peer's address (a GRH with {@code sgidIndex} and {@code hopLimit} when the peer
         * announced a GID), then, if {@code toRts}, RTS with this end's PSN (perftest leaves the
         * passive side of a one-way test in RTR).
         */
        public void connect(int i, Dest remote, Mtu mtu, int sgidIndex, int hopLimit, boolean toRts) {
            QpAttr attr = new QpAttr();
            attr.qpState = QpState.RTR;
            attr.pathMtu = mtu;
            attr.destQpNum = remote.qpn();
            attr.rqPsn = remote.psn();
            attr.maxDestRdAtomic = 1;
            attr.minRnrTimer = 12;
            attr.ahAttr.portNum = port;
            attr.ahAttr.dlid = remote.lid();
            attr.ahAttr.sl = 0;
            attr.ahAttr.srcPathBits = 0;
            if (remote.gid().interfaceId() != 0) {
                attr.ahAttr.setGrh(remote.gid(), 0, sgidIndex, hopLimit, 0, null);
            }
            IbQp qp = qps.get(i);
            qp.modify(attr, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                    | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
            if (!toRts) {
                return;
            }
            QpAttr rts = new QpAttr();
            rts.qpState = QpState.RTS;
            rts.timeout = 14;
            rts.retryCnt = 7;
            rts.rnrRetry = 7;
            rts.sqPsn = dests.get(i).psn();
            rts.maxRdAtomic = 1;
            qp.modify(rts, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                    | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC);
        }

        /**
         * Destroys the QPs, deregisters the MR, destroys the CQ, deallocates the PD (unless
         * {@link #disassociate} did) and puts the device if still held; every step is tried, the
         * first failure is kept in {@code t} (later ones suppressed).
         */
        synchronized void release(Teardown t) {
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
        }

        @Override
        public synchronized void disassociate() {
            if (destroyed) {
                return;
            }
            for (IbQp qp : qps) {
                Uverbs.flush(qp);
            }
            Teardown t = new Teardown();
            destroyObjects(t);
            t.rethrow();
        }

        /** The objects, newest first; once. */
        private void destroyObjects(Teardown t) {
            if (destroyed) {
                return;
            }
            destroyed = true;
            for (int i = qps.size() - 1; i >= 0; i--) {
                t.step(qps.get(i)::destroy);
            }
            if (mr != null) {
                t.step(mr::dereg);
            }
            if (cq != null) {
                t.step(cq::destroy);
            }
            if (pd != null) {
                t.step(pd::dealloc);
            }
        }

        /** The GID this end announces ({@link Gid#ZERO} without a GID index). */
        public Gid gid() {
            return gid;
        }

        /** The device name. */
        public String deviceName() {
            return name;
        }

        /** The port number. */
        public int port() {
            return port;
        }

        /** The port's attributes as queried at open. */
        public PortAttr portAttr() {
            return portAttr;
        }

        /** The registered buffer (its whole capacity is registered). */
        public ByteBuffer buffer() {
            return buffer;
        }

        /** The buffer's MR. */
        public IbMr mr() {
            return mr;
        }

        /** How many QPs this end has. */
        public int qpCount() {
            return qps.size();
        }

        /** QP {@code i}. */
        public IbQp qp(int i) {
            return qps.get(i);
        }

        /** What this end announces for QP {@code i}. */
        public Dest dest(int i) {
            return dests.get(i);
        }

        /**
         * {@code ibv_poll_cq()}: up to {@code wc.length} completions. A completion in error is
         * {@code EIO} with rc_pingpong's text ({@code Failed status ... for wr_id ...}).
         */
        public int poll(Wc[] wc) {
            int n = pollAny(wc);
            for (int i = 0; i < n; i++) {
                if (wc[i].status != WcStatus.SUCCESS) {
                    throw new RdmaException(Errno.EIO, PerfFormat.f("Failed status %s (%d) for wr_id %d on %s/%d",
                            wc[i].status.message(), wc[i].status.ordinal(), wc[i].wrId, name, port));
                }
            }
            return n;
        }

        /** {@code ibv_poll_cq()}: up to {@code wc.length} completions, in error or not. */
        public int pollAny(Wc[] wc) {
            int n = cq.pollCq(wc.length, wc);
            if (n < 0) {
                Errno e = Errno.of(n);
                throw new RdmaException(e == null ? Errno.EIO : e, "poll CQ failed " + n + " on " + name);
            }
            return n;
        }
    }

    private final Config config;
    private final Side a;
    private final Side b;
    private Mtu mtu;

    private RcPair(Config config) {
        this.config = config;
        this.a = new Side(config.deviceA, config.portA);
        this.b = new Side(config.deviceB, config.portB);
    }

    /**
     * Holds both devices and builds PDs, CQs, MRs and QPs (moved to INIT) on both sides. Fails
     * with {@code ENODEV} for an unknown device, {@code EINVAL} for a bad port or GID index, or
     * whatever the verbs report; everything built so far is released first.
     */
    public static RcPair open(IbCore core, Config config) {
        RdmaException.check(config.deviceA != null && config.deviceB != null, Errno.EINVAL, "two devices are needed");
        RdmaException.check(!(config.deviceA.equals(config.deviceB) && config.portA == config.portB), Errno.EINVAL,
                "both ends are " + config.deviceA + "/" + config.portA + ": use another device or port");
        RcPair pair = new RcPair(config);
        try {
            Random psn = new Random(config.seed);
            pair.build(core, pair.a, psn);
            pair.build(core, pair.b, psn);
            Mtu active = pair.a.portAttr.activeMtu.value <= pair.b.portAttr.activeMtu.value
                    ? pair.a.portAttr.activeMtu : pair.b.portAttr.activeMtu;
            pair.mtu = config.mtu != null ? config.mtu : active;
            return pair;
        } catch (RuntimeException e) {
            pair.closeQuietly(e);
            throw e;
        }
    }

    private void build(IbCore core, Side s, Random psn) {
        s.open(core, config, IOVA_BASE + (s == a ? 0 : IOVA_STRIDE), psn);
    }

    /** Moves every QP of both sides to RTS, each connected to its peer's {@link Dest}. */
    public void connect() {
        int sgidIndex = config.gidIndex >= 0 ? config.gidIndex : 0;
        for (int i = 0; i < config.qps; i++) {
            a.connect(i, b.dests.get(i), mtu, sgidIndex, 1, true);
            b.connect(i, a.dests.get(i), mtu, sgidIndex, 1, true);
        }
    }

    /** The first (client) side. */
    public Side a() {
        return a;
    }

    /** The second (server) side. */
    public Side b() {
        return b;
    }

    /** QPs per side. */
    public int qps() {
        return config.qps;
    }

    /** The path MTU the QPs use. */
    public Mtu mtu() {
        return mtu;
    }

    /** The GID index asked for ({@code -g}), or -1. */
    public int gidIndex() {
        return config.gidIndex;
    }

    /**
     * Destroys the QPs, deregisters the MRs, destroys the CQs, deallocates the PDs and puts the
     * devices, side B first; every step is tried even if an earlier one failed, and the first
     * failure is thrown at the end.
     */
    @Override
    public void close() {
        RuntimeException first = closeQuietly(null);
        if (first != null) {
            throw first;
        }
    }

    private RuntimeException closeQuietly(RuntimeException pending) {
        Teardown t = new Teardown();
        b.release(t);
        a.release(t);
        if (pending != null && t.failure() != null) {
            pending.addSuppressed(t.failure());
        }
        return t.failure();
    }
}
