package org.rdma.cm.internal.tools;

import java.io.PrintStream;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaOption;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.AccessFlags;
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
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.time.IbClock;

/**
 * ucmatose (librdmacm/examples/cmatose.c) as an event-driven machine: a server accepts
 * {@code connections} connections, sends {@code message_count} messages of
 * {@code message_size} bytes on each, receives as many replies and disconnects them all; a client
 * makes the connections, receives, replies and answers the disconnects. Each side prints the
 * tool's phases, and the time each phase took ({@link #timings()}).
 */
public final class Cmatose {
    /** The default port. */
    public static final int PORT = 7471;

    /** The tool's settings. */
    public static final class Options {
        /** Client: {@code -s}, the server's address; {@code null} makes a server. */
        public SocketAddress dst;
        /** {@code -b}: the address to bind (the server's listen address, the client's source). */
        public SocketAddress src;
        /** {@code -c}. */
        public int connections = 1;
        /** {@code -C}. */
        public int messageCount = 10;
        /** {@code -S}. */
        public int messageSize = 100;
        /** {@code -P}. */
        public RdmaPortSpace ps = RdmaPortSpace.TCP;
        /** {@code -t}, or -1. */
        public int tos = -1;
        /** Where the tool prints. */
        public PrintStream out = System.out;
    }

    /** {@code struct cmatest_node}. */
    private static final class Node {
        RdmaCmId id;
        boolean connected;
        IbPd pd;
        IbCq sendCq;
        IbCq recvCq;
        IbMr mr;
        int sendsDone;
        int recvsDone;
    }

    private enum Phase { CONNECTING, RECEIVING, SENDING, DISCONNECTING, DONE }

    private final RdmaCmService cm;
    private final IbClock clock;
    private final Options o;
    private final boolean client;
    private final Node[] nodes;
    private final CompletableFuture<Integer> done = new CompletableFuture<>();
    private final long[] phaseNs = new long[4];
    private RdmaCmId listenId;
    private Phase phase = Phase.CONNECTING;
    private int connIndex;
    private int connectsLeft;
    private int disconnectsLeft;
    private int ret;
    private long phaseStart;

    private Cmatose(RdmaCmService cm, IbClock clock, Options o) {
        this.cm = cm;
        this.clock = clock;
        this.o = o;
        this.client = o.dst != null;
        this.nodes = new Node[o.connections];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new Node();
        }
        connectsLeft = o.connections;
        if (o.messageSize == 0) {
            o.messageCount = 0;
        }
    }

    /** {@code run_server()} or {@code run_client()}: started; {@link #done()} gives the return status. */
    public static Cmatose start(RdmaCmService cm, IbClock clock, Options o) {
        Cmatose t = new Cmatose(cm, clock, o);
        t.begin();
        return t;
    }

    /** Completes with the return status once the test ended; {@link #close()} then frees everything. */
    public CompletableFuture<Integer> done() {
        return done;
    }

    private synchronized void begin() {
        phaseStart = clock.nanoTime();
        if (!client) {
            o.out.println("cmatose: starting server");
            listenId = cm.createId(this::handle, this, o.ps, QpType.RC);
            try {
                cm.bindAddr(listenId, o.src);
                cm.listen(listenId, 0);
            } catch (RdmaException e) {
                o.out.println("cmatose: bind address failed: " + e.getMessage());
                throw e;
            }
            return;
        }
        o.out.println("cmatose: starting client");
        o.out.println("cmatose: connecting");
        for (Node n : nodes) {
            n.id = cm.createId(this::handle, n, o.ps, QpType.RC);
        }
        for (Node n : nodes) {
            try {
                cm.resolveAddr(n.id, o.src, o.dst, 2000);
            } catch (RdmaException e) {
                o.out.println("cmatose: failure getting addr: " + e.getMessage());
                connectError(e.errno().negative());
            }
        }
    }

    // ================================================================== CM events

    /** {@code cma_handler()}. */
    private synchronized int handle(RdmaCmId id, RdmaCmEvent ev) {
        try {
            switch (ev.event()) {
                case ADDR_RESOLVED -> {
                    if (o.tos >= 0) {
                        cm.setOption(id, RdmaOption.ID_TOS, o.tos);
                    }
                    cm.resolveRoute(id, 2000);
                }
                case ROUTE_RESOLVED -> {
                    Node n = (Node) id.context();
                    initNode(n);
                    postRecvs(n);
                    RdmaConnParam p = new RdmaConnParam();
                    p.responderResources = 1;
                    p.initiatorDepth = 1;
                    p.retryCount = 5;
                    cm.connect(id, p);
                }
                case CONNECT_REQUEST -> connectHandler(id);
                case ESTABLISHED -> {
                    ((Node) id.context()).connected = true;
                    connectsLeft--;
                    disconnectsLeft++;
                    if (connectsLeft == 0) {
                        connected();
                    }
                }
                case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                    o.out.printf("cmatose: event: %s, error: %d%n", ev.event().eventStr(), ev.status());
                    connectError(ev.status());
                }
                case DISCONNECTED -> {
                    try {
                        cm.disconnect(id);
                    } catch (RdmaException e) {
                        // our own disconnect: the DREP came
                    }
                    disconnectsLeft--;
                    if (disconnectsLeft == 0 && phase == Phase.DISCONNECTING) {
                        finish();
                    }
                }
                default -> {
                }
            }
        } catch (RdmaException e) {
            o.out.println("cmatose: " + e.getMessage());
            connectError(e.errno().negative());
        }
        return 0;
    }

    /** {@code connect_handler()}: a node for the request, its receives posted, accepted. */
    private void connectHandler(RdmaCmId id) {
        if (connIndex == o.connections) {
            o.out.println("cmatose: failing connection request");
            cm.reject(id, null, IbCmRejReason.CONSUMER_DEFINED);
            return;
        }
        Node n = nodes[connIndex++];
        n.id = id;
        id.setContext(n);
        try {
            initNode(n);
            postRecvs(n);
            RdmaConnParam p = new RdmaConnParam();
            p.responderResources = 1;
            p.initiatorDepth = 1;
            cm.accept(id, p);
        } catch (RdmaException e) {
            o.out.println("cmatose: failure accepting: " + e.getMessage());
            connectError(e.errno().negative());
        }
    }

    private void connectError(int status) {
        if (ret == 0) {
            ret = status;
        }
        connectsLeft--;
        if (connectsLeft == 0) {
            connected();
        }
    }

    /** {@code init_node()}: PD, a send and a receive CQ, the QP through the CM, the message buffer. */
    private void initNode(Node n) {
        int cqe = o.messageCount != 0 ? o.messageCount : 1;
        n.pd = n.id.device().allocPd(0);
        n.sendCq = n.id.device().allocCq(n, cqe, 0, PollContext.WORKQUEUE);
        n.recvCq = n.id.device().allocCq(n, cqe, 0, PollContext.WORKQUEUE);
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.cap.maxSendWr = cqe;
        init.cap.maxRecvWr = cqe;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        init.sendCq = n.sendCq;
        init.recvCq = n.recvCq;
        init.qpContext = n;
        cm.createQp(n.id, n.pd, init);
        if (o.messageCount != 0) {
            n.mr = n.pd.regMr(ByteBuffer.allocate(o.messageSize), 0x1000, AccessFlags.LOCAL_WRITE);
        }
    }

    /** {@code post_recvs()}. */
    private void postRecvs(Node n) {
        for (int i = 0; i < o.messageCount; i++) {
            RecvWr r = new RecvWr();
            r.wrCqe = (cq, wc) -> recvDone(n, wc);
            r.sg(new Sge(n.mr.iova(), o.messageSize, n.mr.lkey()));
            int rc = n.id.qp().postRecv(r, null);
            if (rc != 0) {
                throw new RdmaException(org.rdma.verbs.Errno.of(rc), "failed to post receives: " + rc);
            }
        }
    }

    /** {@code post_sends()}. */
    private void postSends(Node n) {
        if (!n.connected || o.messageCount == 0) {
            return;
        }
        for (int i = 0; i < o.messageCount; i++) {
            SendWr w = new SendWr();
            w.sendFlags = SendFlags.SIGNALED;
            w.wrCqe = (cq, wc) -> sendDone(n, wc);
            w.sg(new Sge(n.mr.iova(), o.messageSize, n.mr.lkey()));
            int rc = n.id.qp().postSend(w, null);
            if (rc != 0) {
                throw new RdmaException(org.rdma.verbs.Errno.of(rc), "failed to post sends: " + rc);
            }
        }
    }

    // ================================================================== phases

    private void mark(int step) {
        long now = clock.nanoTime();
        phaseNs[step] = now - phaseStart;
        phaseStart = now;
    }

    /** Every connection made (or failed): the data phase, or straight to disconnecting. */
    private void connected() {
        mark(0);
        if (ret != 0 && nodes.length > 0 && disconnectsLeft == 0) {
            phase = Phase.DISCONNECTING;
            finish();
            return;
        }
        if (o.messageCount == 0) {
            disconnectPhase();
            return;
        }
        if (client) {
            o.out.println("receiving data transfers");
            phase = Phase.RECEIVING;
            checkData();
        } else {
            o.out.println("initiating data transfers");
            for (Node n : nodes) {
                postSends(n);
            }
            o.out.println("completing sends");
            phase = Phase.SENDING;
            checkData();
        }
    }

    private void sendDone(Node n, Wc wc) {
        synchronized (this) {
            if (wc.status != WcStatus.SUCCESS && ret == 0) {
                o.out.printf("cmatose: failed polling CQ: %s%n", wc.status);
                ret = -1;
            }
            n.sendsDone++;
            checkData();
        }
    }

    private void recvDone(Node n, Wc wc) {
        synchronized (this) {
            if (wc.status == WcStatus.WR_FLUSH_ERR) {
                return;
            }
            if (wc.status != WcStatus.SUCCESS && ret == 0) {
                o.out.printf("cmatose: failed polling CQ: %s%n", wc.status);
                ret = -1;
            }
            n.recvsDone++;
            checkData();
        }
    }

    private boolean all(boolean sends) {
        for (Node n : nodes) {
            if (n.connected && (sends ? n.sendsDone : n.recvsDone) < o.messageCount) {
                return false;
            }
        }
        return true;
    }

    /** {@code poll_cqs()} turned around: each completion checks whether the phase is over. */
    private void checkData() {
        if (client && phase == Phase.RECEIVING && all(false)) {
            o.out.println("sending replies");
            for (Node n : nodes) {
                postSends(n);
            }
            o.out.println("data transfers complete");
            mark(1);
            phase = Phase.DISCONNECTING;
            if (disconnectsLeft == 0) {
                finish();
            }
        } else if (!client && phase == Phase.SENDING && all(true)) {
            o.out.println("receiving data transfers");
            phase = Phase.RECEIVING;
            checkData();
        } else if (!client && phase == Phase.RECEIVING && all(false)) {
            o.out.println("data transfers complete");
            mark(1);
            disconnectPhase();
        }
    }

    /** The server's {@code cmatose: disconnecting}: every connection is disconnected. */
    private void disconnectPhase() {
        phase = Phase.DISCONNECTING;
        if (client) {
            if (disconnectsLeft == 0) {
                finish();
            }
            return;
        }
        o.out.println("cmatose: disconnecting");
        for (Node n : nodes) {
            if (!n.connected) {
                continue;
            }
            n.connected = false;
            try {
                cm.disconnect(n.id);
            } catch (RdmaException e) {
                o.out.println("cmatose: " + e.getMessage());
            }
        }
        if (disconnectsLeft == 0) {
            finish();
        }
    }

    private void finish() {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        mark(2);
        if (!client) {
            o.out.println("disconnected");
        }
        done.complete(ret);
    }

    /** Phase timings: connect, data transfer, disconnect, each with its time per connection. */
    public synchronized String timings() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-16s %12s %12s%n", "step", "total(us)", "us/conn"));
        String[] names = {"connect", "data transfer", "disconnect"};
        for (int i = 0; i < names.length; i++) {
            long us = phaseNs[i] / 1000;
            sb.append(String.format(Locale.ROOT, "%-16s %12d %12d%n", names[i], us, us / Math.max(1, o.connections)));
        }
        return sb.toString();
    }

    /** {@code destroy_nodes()} and the listener: QPs, CQs, MRs, PDs, then the ids. */
    public void close() {
        Node[] all;
        RdmaCmId l;
        synchronized (this) {
            all = nodes.clone();
            l = listenId;
            listenId = null;
        }
        for (Node n : all) {
            if (n.id == null) {
                continue;
            }
            if (n.id.qp() != null) {
                cm.destroyQp(n.id);
            }
            if (n.mr != null) {
                n.mr.dereg();
            }
            if (n.sendCq != null) {
                n.sendCq.free();
            }
            if (n.recvCq != null) {
                n.recvCq.free();
            }
            if (n.pd != null) {
                n.pd.dealloc();
            }
            cm.destroyId(n.id);
            n.id = null;
        }
        if (l != null) {
            cm.destroyId(l);
        }
    }
}
