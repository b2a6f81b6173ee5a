package org.rdma.cm.internal.tools;

import java.io.PrintStream;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.cm.rdma.RdmaUdParam;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SigType;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.time.IbClock;

/**
 * mckey (librdmacm/examples/mckey.c) as an event-driven machine. Each of {@code connections} UD ids
 * resolves the group address ({@code -m}; an unmapped {@code AF_IB} MGID, {@code -M}, needs no
 * resolution), gets a QP and a buffer of {@code message_size} + 40 bytes (the GRH), posts
 * {@code message_count} receives unless it is the sender, and joins the group as a full member
 * (a send-only one with {@code -o});
 * once every join is in, it pauses as mckey does (three seconds for the SM to program the switches),
 * then the sender posts {@code message_count} SENDs with immediate data (its QPN) to the group's
 * address vector, QPN 0xFFFFFF and Q_Key, and a receiver waits for as many receives; then every id
 * leaves. It prints what mckey prints; {@link #received()} keeps what a receiver got, so a caller
 * can check more than mckey does.
 *
 * <p>mckey posts its SENDs unsignalled and destroys the QP at once; here the last one is signalled
 * and awaited first, so that destroying the QP cannot flush a SEND not yet on the wire.
 */
public final class McKey {
    /** {@code sizeof(struct ibv_grh)}: the room for the GRH at the start of every UD receive. */
    public static final int GRH = 40;

    /** The tool's settings. */
    public static final class Options {
        /** {@code -m} or {@code -M}: the group. */
        public SocketAddress dst;
        /** {@code -M}: {@link #dst} is an {@code AF_IB} MGID, joined without address resolution. */
        public boolean unmapped;
        /** {@code -b}: the address to bind, or {@code null}. */
        public SocketAddress src;
        /** {@code -s}: send rather than receive. */
        public boolean sender;
        /** {@code -o}: join as a send-only full member (the QP is not attached). */
        public boolean sendOnly;
        /** {@code -c}. */
        public int connections = 1;
        /** {@code -C}. */
        public int messageCount = 10;
        /** {@code -S}. */
        public int messageSize = 100;
        /** {@code -p}. */
        public RdmaPortSpace ps = RdmaPortSpace.UDP;
        /** The pause between the joins and the data (mckey's {@code sleep(3)}). */
        public long pauseMs = 3000;
        /** Where the tool prints. */
        public PrintStream out = System.out;
    }

    /** {@code struct cmatest_node}. */
    private static final class Node {
        RdmaCmId id;
        boolean connected;
        IbPd pd;
        IbCq cq;
        IbMr mr;
        IbAh ah;
        int remoteQpn;
        int remoteQkey;
        int received;
        boolean lastSendDone;
    }

    private enum Phase { JOINING, PAUSED, DATA, DONE }

    private final RdmaCmService cm;
    private final IbClock clock;
    private final Options o;
    private final Node[] nodes;
    private final CompletableFuture<Integer> done = new CompletableFuture<>();
    private final List<Wc> received = new ArrayList<>();
    private Phase phase = Phase.JOINING;
    private int connectsLeft;
    private int ret;
    private IbClock.Timer pause;

    private McKey(RdmaCmService cm, IbClock clock, Options o) {
        this.cm = cm;
        this.clock = clock;
        this.o = o;
        this.nodes = new Node[o.connections];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new Node();
        }
        connectsLeft = o.connections;
        if (o.messageSize == 0) {
            o.messageCount = 0;
        }
    }

    /** {@code run()}: started; {@link #done()} gives the return status once every id left. */
    public static McKey start(RdmaCmService cm, IbClock clock, Options o) {
        McKey t = new McKey(cm, clock, o);
        t.begin();
        return t;
    }

    /** Completes with the return status; {@link #close()} then frees everything. */
    public CompletableFuture<Integer> done() {
        return done;
    }

    /** The receive completions a receiver got, in order. */
    public synchronized List<Wc> received() {
        return List.copyOf(received);
    }

    private synchronized void begin() {
        o.out.println("mckey: starting " + (o.sender ? "client" : "server"));
        o.out.println("mckey: joining");
        for (Node n : nodes) {
            n.id = cm.createId(this::handle, n, o.ps, QpType.UD);
        }
        for (Node n : nodes) {
            if (o.src != null) {
                try {
                    cm.bindAddr(n.id, o.src);
                } catch (RdmaException e) {
                    o.out.println("mckey: addr bind failure: " + e.getMessage());
                    connectError(e.errno().negative());
                    leave();
                    return;
                }
            }
            try {
                if (o.unmapped) {
                    addrHandler(n);
                } else {
                    cm.resolveAddr(n.id, o.src, o.dst, 2000);
                }
            } catch (RdmaException e) {
                o.out.println("mckey: resolve addr failure: " + e.getMessage());
                connectError(e.errno().negative());
                leave();
                return;
            }
        }
        if (phase == Phase.JOINING && (connectsLeft == 0 || ret != 0)) {
            joined();
        }
    }

    // ================================================================== CM events

    /** {@code cma_handler()} while joining, {@code cma_thread()} after. */
    private synchronized int handle(RdmaCmId id, RdmaCmEvent ev) {
        if (phase != Phase.JOINING) {
            switch (ev.event()) {
                case MULTICAST_ERROR, ADDR_CHANGE ->
                    o.out.printf("mckey: event: %s, status: %d%n", ev.event().eventStr(), ev.status());
                default -> {
                }
            }
            return 0;
        }
        Node n = (Node) id.context();
        switch (ev.event()) {
            case ADDR_RESOLVED -> addrHandler(n);
            case MULTICAST_JOIN -> joinHandler(n, ev.ud());
            case ADDR_ERROR, ROUTE_ERROR, MULTICAST_ERROR -> {
                o.out.printf("mckey: event: %s, error: %d%n", ev.event().eventStr(), ev.status());
                connectError(ev.status());
            }
            default -> {
            }
        }
        if (phase == Phase.JOINING && (connectsLeft == 0 || ret != 0)) {
            joined();
        }
        return 0;
    }

    /** {@code addr_handler()}: checks the size, builds the node, posts its receives, joins. */
    private void addrHandler(Node n) {
        try {
            int mtu = n.id.device().queryPort(n.id.portNum()).activeMtu.bytes;
            if (o.messageCount != 0 && o.messageSize > mtu) {
                o.out.printf("mckey: message_size %d is larger than active mtu %d%n", o.messageSize, mtu);
                throw new RdmaException(Errno.EINVAL, "message too large");
            }
            initNode(n);
            if (!o.sender) {
                postRecvs(n);
            }
        } catch (RdmaException e) {
            connectError(e.errno().negative());
            return;
        }
        try {
            cm.joinMulticast(n.id, o.dst, o.sendOnly ? McMemberRecord.SENDONLY_FULLMEMBER_JOIN
                    : McMemberRecord.FULLMEMBER_JOIN, n);
        } catch (RdmaException e) {
            o.out.println("mckey: failure joining: " + e.getMessage());
            connectError(e.errno().negative());
        }
    }

    /** {@code join_handler()}: the group's address vector, QPN and Q_Key become the node's target. */
    private void joinHandler(Node n, RdmaUdParam ud) {
        o.out.printf("mckey: joined dgid: %s mlid 0x%x sl %d%n", ud.ahAttr.grh.dgid.ntop(), ud.ahAttr.dlid,
                ud.ahAttr.sl);
        n.remoteQpn = ud.qpNum;
        n.remoteQkey = ud.qkey;
        try {
            n.ah = n.pd.createAh(ud.ahAttr, 0);
        } catch (RdmaException e) {
            o.out.println("mckey: failure creating address handle");
            connectError(-1);
            return;
        }
        n.connected = true;
        connectsLeft--;
    }

    private void connectError(int status) {
        if (ret == 0) {
            ret = status;
        }
        connectsLeft--;
    }

    /** {@code init_node()}: PD, one CQ, the UD QP through the CM, the buffer with room for the GRH. */
    private void initNode(Node n) {
        int cqe = o.messageCount != 0 ? o.messageCount * 2 : 2;
        n.pd = n.id.device().allocPd(0);
        n.cq = n.id.device().allocCq(n, cqe, 0, PollContext.WORKQUEUE);
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.UD;
        init.sqSigType = SigType.REQ_WR;
        init.cap.maxSendWr = Math.max(1, o.messageCount);
        init.cap.maxRecvWr = Math.max(1, o.messageCount);
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        init.sendCq = n.cq;
        init.recvCq = n.cq;
        init.qpContext = n;
        cm.createQp(n.id, n.pd, init);
        if (o.messageCount != 0) {
            ByteBuffer buf = ByteBuffer.allocate(o.messageSize + GRH);
            for (int i = 0; i < o.messageSize; i++) {
                buf.put(GRH + i, (byte) i);
            }
            n.mr = n.pd.regMr(buf, 0x1000, AccessFlags.LOCAL_WRITE);
        }
    }

    /** {@code post_recvs()}. */
    private void postRecvs(Node n) {
        for (int i = 0; i < o.messageCount; i++) {
            RecvWr r = new RecvWr();
            r.wrCqe = (cq, wc) -> recvDone(n, wc);
            r.sg(new Sge(n.mr.iova(), o.messageSize + GRH, n.mr.lkey()));
            int rc = n.id.qp().postRecv(r, null);
            if (rc != 0) {
                o.out.println("failed to post receives: " + rc);
                throw new RdmaException(Errno.of(rc), "failed to post receives");
            }
        }
    }

    /** {@code post_sends()}: SEND with immediate (our QPN) to the group, the last one signalled. */
    private void postSends(Node n) {
        if (!n.connected || o.messageCount == 0) {
            return;
        }
        for (int i = 0; i < o.messageCount; i++) {
            SendWr w = new SendWr();
            w.opcode = WrOpcode.SEND_WITH_IMM;
            w.immData = n.id.qp().qpNum();
            w.ah = n.ah;
            w.remoteQpn = n.remoteQpn;
            w.remoteQkey = n.remoteQkey;
            w.sg(new Sge(n.mr.iova() + GRH, o.messageSize, n.mr.lkey()));
            if (i == o.messageCount - 1) {
                w.sendFlags = SendFlags.SIGNALED;
                w.wrCqe = (cq, wc) -> sendDone(n, wc);
            }
            int rc = n.id.qp().postSend(w, null);
            if (rc != 0) {
                o.out.println("failed to post sends: " + rc);
                ret = rc;
                n.lastSendDone = true;
                return;
            }
        }
    }

    // ================================================================== phases

    /** Every join in (or one failed): the pause, or straight to leaving. */
    private void joined() {
        if (ret != 0) {
            leave();
            return;
        }
        phase = Phase.PAUSED;
        pause = clock.schedule(this::data, o.pauseMs, TimeUnit.MILLISECONDS);
    }

    private synchronized void data() {
        if (phase != Phase.PAUSED) {
            return;
        }
        phase = Phase.DATA;
        if (o.messageCount == 0) {
            leave();
            return;
        }
        if (o.sender) {
            o.out.println("initiating data transfers");
            for (Node n : nodes) {
                postSends(n);
            }
        } else {
            o.out.println("receiving data transfers");
        }
        checkData();
    }

    private void sendDone(Node n, Wc wc) {
        synchronized (this) {
            if (wc.status != WcStatus.SUCCESS && ret == 0) {
                o.out.printf("mckey: failed polling CQ: %s%n", wc.status);
                ret = -1;
            }
            n.lastSendDone = true;
            checkData();
        }
    }

    private void recvDone(Node n, Wc wc) {
        synchronized (this) {
            if (wc.status == WcStatus.WR_FLUSH_ERR) {
                return;
            }
            if (wc.status != WcStatus.SUCCESS && ret == 0) {
                o.out.printf("mckey: failed polling CQ: %s%n", wc.status);
                ret = -1;
            }
            Wc copy = new Wc();
            copy.copyFrom(wc);
            received.add(copy);
            n.received++;
            checkData();
        }
    }

    /** {@code poll_cqs()} turned around: each completion checks whether the transfers are over. */
    private void checkData() {
        if (phase != Phase.DATA) {
            return;
        }
        for (Node n : nodes) {
            if (n.connected && (o.sender ? !n.lastSendDone : n.received < o.messageCount)) {
                return;
            }
        }
        o.out.println("data transfers complete");
        leave();
    }

    /** The {@code out:} label: every id leaves the group. */
    private void leave() {
        phase = Phase.DONE;
        for (Node n : nodes) {
            if (n.id == null || !n.connected) {
                continue;
            }
            try {
                cm.leaveMulticast(n.id, o.dst);
            } catch (RdmaException e) {
                o.out.println("mckey: failure leaving: " + e.getMessage());
                if (ret == 0) {
                    ret = e.errno().negative();
                }
            }
        }
        done.complete(ret);
    }

    /**
     * Stops a test still under way (a timeout): it ends with {@code status} unless it ended already.
     */
    public synchronized void abort(int status) {
        if (phase == Phase.DONE) {
            return;
        }
        if (pause != null) {
            pause.cancel();
        }
        if (ret == 0) {
            ret = status;
        }
        leave();
    }

    /** {@code destroy_nodes()}: AH, QP, CQ, MR, PD, then the id. */
    public void close() {
        Node[] all;
        synchronized (this) {
            all = nodes.clone();
        }
        for (Node n : all) {
            if (n.id == null) {
                continue;
            }
            if (n.ah != null) {
                n.ah.destroy();
            }
            if (n.id.qp() != null) {
                cm.destroyQp(n.id);
            }
            if (n.cq != null) {
                n.cq.free();
            }
            if (n.mr != null) {
                n.mr.dereg();
            }
            if (n.pd != null) {
                n.pd.dealloc();
            }
            cm.destroyId(n.id);
            n.id = null;
        }
    }
}
