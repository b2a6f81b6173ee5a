package org.rdma.shell.internal.perf;

import java.io.PrintStream;
import java.util.Random;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.RdmaException;

/**
 * A whole run of perftest's {@code ib_write_bw} (RC, one-way, without {@code -R}) against a peer
 * process that may be perftest itself, in the order of perftest's {@code src/write_bw.c}
 * {@code main()} over its TCP exchange ({@link PerftestMsg}, {@link OobChannel}):
 *
 * <ol>
 *   <li>versions: this side announces {@value #VERSION}, the last perftest version without the
 *       parameter-negotiation phase, which newer perftest skips for such peers; a peer older
 *       than 5.70 is refused as perftest refuses it;</li>
 *   <li>page size and cache line size (the larger of each side's is used); the MTU (the smaller
 *       of the two is used);</li>
 *   <li>the buffer: per QP a region of {@code BUFF_SIZE(size, page size)} bytes, announced at
 *       {@code buf + (qps + i) * BUFF_SIZE} as {@code set_up_connection()} does, so a perftest
 *       client cycling its writes through a page finds the whole page registered;</li>
 *   <li>the header ({@link WriteBw#testInfo}), each side with its own CQ moderation and post
 *       list ({@code -Q}, {@code -l}: perftest does not exchange them), the TX depth on the
 *       client only; the keys of each QP, twice (before and after connecting), then once more
 *       for QP 0; the QPs are connected in between (the server stays in RTR, as perftest's);</li>
 *   <li>the client writes ({@link WriteBw#write}) and prints its result row; a handshake; the
 *       client's report goes to the server (size, iterations, peak, average, message rate),
 *       which prints it as its own row; a last handshake closes the connection.</li>
 * </ol>
 *
 * Without {@code -x} on an Ethernet port the GID index is chosen as perftest's
 * {@code get_best_gid_index()} does: the IP family asked for ({@code --ipv6} or IPv4), then not
 * link-local, then RoCE v2.
 */
public final class WriteBwPeer {
    /** The version this side announces. */
    public static final String VERSION = "6.27";
    /** The oldest peer version perftest talks to. */
    static final double OLDEST_PEER = 5.70;
    /** This side's page size ({@code sysconf(_SC_PAGESIZE)}) and cache line size. */
    static final int PAGE_SIZE = 4096;
    static final int CACHE_LINE_SIZE = 64;
    static final long IOVA = 0x7f4a_0000_0000L;

    /** What to run (perftest's options). */
    public static final class Config {
        /** {@code -d}. */
        public String device;
        /** {@code -i}. */
        public int port = 1;
        /**
         * {@code -s}, {@code -n} or {@code -D}, {@code -t}, {@code -Q}, {@code -l} as
         * {@link CqModeration} settles them, and the seed of the PSNs and the written pattern;
         * the server prints its own CQ moderation and post list but writes nothing.
         */
        public WriteBw.Params params = new WriteBw.Params(65536, 5000, 0, 128, 1, 1, System.nanoTime());
        /** {@code -q}. */
        public int qps = 1;
        /** {@code -m}; {@code null}: the port's active MTU. */
        public Mtu mtu;
        /** {@code -x}; -1: automatic on Ethernet, none on InfiniBand. */
        public int gidIndex = -1;
        /** {@code --ipv6}: prefer an IPv6 GID when choosing one. */
        public boolean ipv6;
        /** {@code -p}. */
        public int tcpPort = PerftestMsg.DEFAULT_PORT;
        /** The server's host; {@code null} on the server. */
        public String server;
        /** The client that disassociates the run when its device goes; {@code null}: the core reaps. */
        public Uverbs uverbs;
    }

    private final Config c;
    private final PrintStream out;
    private final boolean client;
    private PortAttr portAttr;
    private int gidIndex;
    private Mtu mtu;
    private int cycleBuffer = PAGE_SIZE;
    private String peerVersion;

    private WriteBwPeer(Config c, PrintStream out) {
        this.c = c;
        this.out = out;
        this.client = c.server != null;
    }

    /**
     * Runs one end, printing what perftest prints; returns the client's result (on the server
     * the one the client reported). Fails with perftest's reasons: {@code ENODEV},
     * {@code EINVAL} for bad parameters or GID types of different IP families,
     * {@code EPROTO} for an incompatible peer or a malformed message, {@code ECONNRESET} when
     * the peer goes away, {@code EIO}/{@code ETIMEDOUT} from the writes.
     */
    public static WriteBw.Result run(IbCore core, Config c, PrintStream out) {
        return new WriteBwPeer(c, out).run(core);
    }

    private WriteBw.Result run(IbCore core) {
        inspect(core);
        if (client) {
            try (OobChannel ch = OobChannel.connect(c.server, c.tcpPort)) {
                return session(core, ch);
            }
        }
        try (OobChannel.Listener l = OobChannel.listen(c.tcpPort)) {
            out.println();
            out.println("************************************");
            out.println("* Waiting for client to connect... *");
            out.println("************************************");
            out.flush();
            try (OobChannel ch = l.accept()) {
                return session(core, ch);
            }
        }
    }

    /** What perftest checks before it connects: the device, the port, the GID index. */
    private void inspect(IbCore core) {
        IbDevice d = core.getByName(c.device, null);
        if (d == null) {
            throw new RdmaException(Errno.ENODEV, "IB device " + c.device + " not found");
        }
        try {
            RdmaException.check(c.port >= 1 && c.port <= d.endPort(), Errno.EINVAL, c.device + " has no port " + c.port);
            portAttr = d.queryPort(c.port);
            boolean roce = portAttr.linkLayer == LinkLayer.ETHERNET;
            gidIndex = c.gidIndex >= 0 ? c.gidIndex : roce ? bestGidIndex(d, c.port, portAttr.gidTblLen, c.ipv6) : -1;
            if (gidIndex >= 0) {
                try {
                    d.queryGid(c.port, gidIndex);
                } catch (RdmaException e) {
                    throw new RdmaException(Errno.EINVAL, "can't read sgid of index " + gidIndex, e);
                }
            }
        } finally {
            d.put();
        }
    }

    /**
     * {@code get_best_gid_index()}: the highest score over the port's table, a score being 100
     * for the preferred IP family, 10 for a non-link-local address and the RoCE version (2 for
     * v2); empty entries are skipped, the first of equal scores wins.
     */
    static int bestGidIndex(IbDevice d, int port, int tableLen, boolean preferIpv6) {
        int best = -1;
        int bestScore = -1;
        for (int i = 0; i < tableLen; i++) {
            Gid g;
            GidType type;
            try {
                GidAttr attr = d.getGidAttr(port, i);
                g = attr.gid();
                type = attr.gidType();
                attr.put();
            } catch (RdmaException e) {
                continue;
            }
            if (g == null || g.isZero()) {
                continue;
            }
            boolean v4 = g.isV4Mapped();
            int score = (preferIpv6 != v4) ? 100 : 0;
            boolean linkLocal = v4 ? (g.interfaceId() & 0xffff_0000L) == 0xa9fe_0000L : g.isLinkLocal();
            if (!linkLocal) {
                score += 10;
            }
            score += type == GidType.ROCE_UDP_ENCAP ? 2 : type == GidType.ROCE ? 1 : 0;
            if (score > bestScore) {
                bestScore = score;
                best = i;
            }
        }
        RdmaException.check(best >= 0, Errno.EINVAL, "no usable GID on " + d.name() + "/" + port);
        return best;
    }

    private WriteBw.Result session(IbCore core, OobChannel ch) {
        // exchange_versions(), check_version_compatibility()
        peerVersion = PerftestMsg.decodeVersion(ch.exchange(PerftestMsg.encodeVersion(VERSION), PerftestMsg.VERSION_SIZE));
        double peer = PerftestMsg.versionNumber(peerVersion);
        if (peer < OLDEST_PEER) {
            throw new RdmaException(Errno.EPROTO, "Current implementation is not compatible with versions older than "
                    + "5.70 (peer: '" + peerVersion + "')");
        }
        // check_sys_data()
        if (peer >= 5.32) {
            cycleBuffer = Math.max(cycleBuffer,
                    PerftestMsg.decodePageSize(ch.exchange(PerftestMsg.encodeInt(PAGE_SIZE), 4)));
            PerftestMsg.decodeInt(ch.exchange(PerftestMsg.encodeInt(CACHE_LINE_SIZE), 4));
        }
        // check_mtu()
        mtu = c.mtu == null || c.mtu.value > portAttr.activeMtu.value ? portAttr.activeMtu : c.mtu;
        if (peer >= 5.1) {
            int n = peer >= 5.31 ? PerftestMsg.MTU_SIZE : 4;
            byte[] mine = java.util.Arrays.copyOf(PerftestMsg.encodeMtu(mtu), n);
            Mtu theirs = PerftestMsg.decodeMtu(ch.exchange(mine, n));
            if (theirs != null && theirs.value < mtu.value) {
                mtu = theirs;
            }
        }
        RcPair.Side side = RcPair.Side.of(c.device, c.port);
        WriteBw.Result r;
        Teardown t = new Teardown();
        try {
            r = connected(core, ch, side);
        } catch (RuntimeException e) {
            side.release(t);
            if (t.failure() != null) {
                e.addSuppressed(t.failure());
            }
            throw e;
        }
        side.release(t);
        t.rethrow();
        return r;
    }

    /** perftest's {@code BUFF_SIZE(size, cycle_buffer)}: one QP's region. */
    long regionSize() {
        return Math.max(c.params.size(), cycleBuffer);
    }

    private WriteBw.Result connected(IbCore core, OobChannel ch, RcPair.Side side) {
        long region = regionSize();
        RdmaException.check(2 * c.qps * region <= Integer.MAX_VALUE - 8, Errno.EINVAL, "size * qps is too large");
        RcPair.Config rc = new RcPair.Config();
        rc.gidIndex = gidIndex;
        rc.qps = c.qps;
        rc.sendDepth = client ? c.params.txDepth() : 1;
        rc.recvDepth = 1;
        rc.sqSigAll = false;
        rc.bufferSize = (int) (2 * c.qps * region);
        rc.uverbs = c.uverbs;
        Random rnd = new Random(c.params.runId());
        side.open(core, rc, IOVA, rnd);
        boolean withGid = gidIndex >= 0;
        PerftestMsg.Keys[] mine = new PerftestMsg.Keys[c.qps];
        for (int i = 0; i < c.qps; i++) {
            RcPair.Dest d = side.dest(i);
            mine[i] = new PerftestMsg.Keys(d.lid(), 1, d.qpn(), d.psn(), side.mr().rkey(),
                    side.mr().iova() + (c.qps + i) * region, withGid ? d.gid() : null, 0);
        }
        WriteBw.testInfo(c.device, c.qps, portAttr.linkLayer == LinkLayer.ETHERNET, mtu.bytes, gidIndex, c.params,
                client, "Ethernet").forEach(out::println);
        PerftestMsg.Keys[] theirs = new PerftestMsg.Keys[c.qps];
        for (int i = 0; i < c.qps; i++) {
            theirs[i] = handshake(ch, mine[i]);
        }
        if (withGid && mine[0].gid().isV4Mapped() != theirs[0].gid().isV4Mapped()) {
            throw new RdmaException(Errno.EINVAL, "Found Incompatibility issue with GID types "
                    + "(local " + PerfFormat.inetNtop(mine[0].gid()) + ", remote "
                    + PerfFormat.inetNtop(theirs[0].gid()) + "): use the same IP version on both sides");
        }
        for (int i = 0; i < c.qps; i++) {
            PerftestMsg.Keys k = theirs[i];
            side.connect(i, new RcPair.Dest(k.lid(), k.qpn(), k.psn(), k.gid() == null ? Gid.ZERO : k.gid()), mtu,
                    Math.max(gidIndex, 0), 0xff, client);
        }
        for (int i = 0; i < c.qps; i++) {
            WriteBw.addressLines("local", mine[i], withGid).forEach(out::println);
        }
        for (int i = 0; i < c.qps; i++) {
            theirs[i] = handshake(ch, mine[i]);
            WriteBw.addressLines("remote", theirs[i], withGid).forEach(out::println);
        }
        handshake(ch, mine[0]);
        out.println(WriteBw.RESULT_LINE);
        out.println(WriteBw.RESULT_FMT);
        out.flush();
        WriteBw.Result result;
        if (client) {
            long[] addr = new long[c.qps];
            int[] rkey = new int[c.qps];
            for (int i = 0; i < c.qps; i++) {
                addr[i] = theirs[i].vaddr();
                rkey[i] = theirs[i].rkey();
            }
            result = WriteBw.write(side, addr, rkey, c.params, null);
            out.println(result.row());
            out.println(WriteBw.RESULT_LINE);
            out.flush();
            handshake(ch, mine[0]);
            exchangeReport(ch, result);
        } else {
            handshake(ch, mine[0]);
            result = exchangeReport(ch, WriteBw.Result.report(0, 0, 0, 0, 0));
            out.println(result.row());
        }
        handshake(ch, mine[0]);
        if (!client) {
            out.println(WriteBw.RESULT_LINE);
        }
        out.flush();
        return result;
    }

    /** {@code ctx_hand_shake()} of one QP's keys. */
    private PerftestMsg.Keys handshake(OobChannel ch, PerftestMsg.Keys mine) {
        boolean withGid = mine.gid() != null;
        byte[] got = ch.exchange(PerftestMsg.encodeKeys(mine), withGid ? PerftestMsg.KEY_MSG_SIZE_GID
                : PerftestMsg.KEY_MSG_SIZE);
        return PerftestMsg.decodeKeys(got, withGid);
    }

    /** {@code xchg_bw_reports()}: each field an exchange of its own; returns the peer's report. */
    private WriteBw.Result exchangeReport(OobChannel ch, WriteBw.Result mine) {
        boolean longIters = PerftestMsg.versionNumber(peerVersion) >= 5.33;
        long size = PerftestMsg.decodeLong(ch.exchange(PerftestMsg.encodeLong(mine.size()), 8));
        byte[] iters = longIters ? PerftestMsg.encodeLong(mine.iters()) : PerftestMsg.encodeInt((int) mine.iters());
        long n = PerftestMsg.decodeLong(ch.exchange(iters, iters.length));
        double peak = PerftestMsg.decodeDouble(ch.exchange(PerftestMsg.encodeDouble(mine.peakMBps()), 8));
        double avg = PerftestMsg.decodeDouble(ch.exchange(PerftestMsg.encodeDouble(mine.avgMBps()), 8));
        double rate = PerftestMsg.decodeDouble(ch.exchange(PerftestMsg.encodeDouble(mine.msgRateMpps()), 8));
        return WriteBw.Result.report((int) size, n, peak, avg, rate);
    }
}
