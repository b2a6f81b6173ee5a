package org.rdma.cm.internal.tools;

import java.io.PrintStream;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmHandler;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
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
import org.rdma.verbs.WrOpcode;

/**
 * rping (librdmacm/examples/rping.c) as an event-driven pair of state machines over the RDMA CM:
 * the client advertises its source buffer (address, rkey, length: {@code struct rping_rdma_info},
 * big-endian) in a SEND, the server RDMA READs it and answers "go ahead", the client advertises
 * its sink buffer, the server RDMA WRITEs the data back and answers again, and the client checks
 * the data ({@code -V}) before the next ping, {@code count} times; then the client disconnects.
 * CM events and completions drive the machines (nothing blocks), so the same sessions run in the
 * runtime and in virtual time; {@link Session#done()} completes when a session ended.
 */
public final class Rping {
    /** {@code RPING_MSG_FMT}. */
    static final String MSG_FMT = "rdma-ping-%d: ";
    /** {@code RPING_MIN_BUFSIZE}: room for the longest ping number and the format. */
    public static final int MIN_SIZE = 11 + 15;
    /** {@code RPING_BUFSIZE}. */
    public static final int MAX_SIZE = 64 * 1024 - 1;
    /** {@code RPING_SQ_DEPTH}. */
    static final int SQ_DEPTH = 16;
    /** {@code sizeof(struct rping_rdma_info)}. */
    static final int INFO_SIZE = 16;
    /** The default port. */
    public static final int PORT = 7174;

    private Rping() {
    }

    /** {@code enum test_state}. */
    enum State {
        IDLE, CONNECT_REQUEST, ADDR_RESOLVED, ROUTE_RESOLVED, CONNECTED, RDMA_READ_ADV, RDMA_READ_COMPLETE,
        RDMA_WRITE_ADV, RDMA_WRITE_COMPLETE, DISCONNECTED, ERROR
    }

    /** What a session is told: {@code struct rping_cb}'s settings. */
    public static final class Options {
        /** {@code -a}: the server's address (the client's destination). */
        public SocketAddress addr;
        /** {@code -I}: the client's source address, or {@code null}. */
        public SocketAddress src;
        /** {@code -C}: pings, 0 for ever. */
        public int count;
        /** {@code -S}. */
        public int size = 64;
        /** {@code -v}. */
        public boolean verbose;
        /** {@code -V}. */
        public boolean validate;
        /** {@code -d}. */
        public boolean debug;
        /** Where the tool prints (its stdout and stderr). */
        public PrintStream out = System.out;
    }

    /** How a session ended: {@code errno} names the failure ({@code null} on success). */
    public record Result(boolean server, int pings, int validated, String error, Errno errno) {
        /** Whether it ended without error. */
        public boolean ok() {
            return error == null;
        }
    }

    /** {@code rping_run_server()}: binds {@code o.addr}, listens (backlog 3) and serves a connection. */
    public static Session server(RdmaCmService cm, Options o) {
        Session s = new Session(cm, o, true);
        s.start();
        return s;
    }

    /** {@code rping_run_client()}: resolves {@code o.addr} from {@code o.src}, connects and pings. */
    public static Session client(RdmaCmService cm, Options o) {
        Session s = new Session(cm, o, false);
        s.start();
        return s;
    }

    /**
     * One side: the listener and the connection of a server, or the connection of a client.
     * Handlers and completions take the session's monitor; the CM is called under it only for
     * steps that do not wait for a handler.
     */
    public static final class Session implements RdmaCmHandler {
        private final RdmaCmService cm;
        private final Options o;
        private final boolean server;
        private final CompletableFuture<Result> done = new CompletableFuture<>();
        private RdmaCmId listenId;
        private RdmaCmId id;
        private Conn conn;
        private State state = State.IDLE;
        private int pings;
        private int validated;

        Session(RdmaCmService cm, Options o, boolean server) {
            this.cm = cm;
            this.o = o;
            this.server = server;
        }

        /** Completes when the session ended; {@link #close()} then frees what it holds. */
        public CompletableFuture<Result> done() {
            return done;
        }

        private void debug(String fmt, Object... args) {
            if (o.debug) {
                o.out.printf(fmt + "%n", args);
            }
        }

        private synchronized void start() {
            RdmaCmId cmId = cm.createId(this, this, RdmaPortSpace.TCP, QpType.RC);
            try {
                if (server) {
                    listenId = cmId;
                    cm.bindAddr(cmId, o.addr);
                    debug("rdma_bind_addr successful");
                    debug("rdma_listen");
                    cm.listen(cmId, 3);
                } else {
                    id = cmId;
                    cm.resolveAddr(cmId, o.src, o.addr, 2000);
                }
            } catch (RdmaException e) {
                o.out.println((server ? "rdma_bind_addr: " : "rdma_resolve_addr: ") + e.getMessage());
                cm.destroyId(cmId);
                listenId = null;
                id = null;
                throw e;
            }
        }

        // ============================================================ CM events

        /** {@code rping_cma_event_handler()}. */
        @Override
        public synchronized int handle(RdmaCmId cmId, RdmaCmEvent ev) {
            debug("cma_event type %s cma_id %s (%s)", ev.event().eventStr(), Integer.toHexString(
                    System.identityHashCode(cmId)), cmId == (server ? listenId : id) ? "parent" : "child");
            try {
                switch (ev.event()) {
                    case ADDR_RESOLVED -> {
                        state = State.ADDR_RESOLVED;
                        cm.resolveRoute(cmId, 2000);
                    }
                    case ROUTE_RESOLVED -> {
                        state = State.ROUTE_RESOLVED;
                        debug("rdma_resolve_addr - rdma_resolve_route successful");
                        conn = new Conn(cmId);
                        cm.connect(cmId, connParam());
                    }
                    case CONNECT_REQUEST -> {
                        if (id != null) {
                            debug("rejecting a connection while one is served");
                            return 1;
                        }
                        state = State.CONNECT_REQUEST;
                        id = cmId;
                        debug("child cma %s", Integer.toHexString(System.identityHashCode(cmId)));
                        conn = new Conn(cmId);
                        debug("accepting client connection request");
                        cm.accept(cmId, connParam());
                    }
                    case CONNECT_RESPONSE -> debug("CONNECT_RESPONSE");
                    case ESTABLISHED -> {
                        debug("ESTABLISHED");
                        if (!server) {
                            state = State.CONNECTED;
                            debug("rdma_connect successful");
                            conn.nextPing();
                        }
                    }
                    case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                        o.out.printf("cma event %s, error %d%n", ev.event().eventStr(), ev.status());
                        fail("connect error: " + ev.event().message() + ", status " + ev.status(), errnoOf(ev));
                    }
                    case DISCONNECTED -> {
                        o.out.printf("%s DISCONNECT EVENT...%n", server ? "server" : "client");
                        onDisconnected();
                    }
                    case DEVICE_REMOVAL -> {
                        o.out.println("cma detected device removal!!!!");
                        fail("device removal", Errno.ENODEV);
                    }
                    default -> o.out.printf("unhandled event: %s, ignoring%n", ev.event().eventStr());
                }
            } catch (RdmaException e) {
                o.out.println(e.getMessage());
                fail(e.getMessage());
            }
            return 0;
        }

        /** The errno a failed connection step stands for. */
        private static Errno errnoOf(RdmaCmEvent ev) {
            return switch (ev.event()) {
                case REJECTED -> Errno.ECONNREFUSED;
                case UNREACHABLE -> ev.status() < 0 ? Errno.of(ev.status()) : Errno.EHOSTUNREACH;
                default -> ev.status() < 0 ? Errno.of(ev.status()) : Errno.EIO;
            };
        }

        /** {@code rping_init_conn_param()}. */
        private static RdmaConnParam connParam() {
            RdmaConnParam p = new RdmaConnParam();
            p.responderResources = 1;
            p.initiatorDepth = 1;
            p.retryCount = 7;
            p.rnrRetryCount = 7;
            return p;
        }

        private void onDisconnected() {
            boolean clean = state != State.ERROR;
            state = State.DISCONNECTED;
            if (server) {
                disconnectQuietly();
            }
            if (!clean) {
                return;
            }
            if (!server && o.count != 0 && pings < o.count) {
                fail("disconnected after " + pings + " of " + o.count + " pings", Errno.ECONNRESET);
                return;
            }
            done.complete(new Result(server, pings, validated, null, null));
        }

        private void disconnectQuietly() {
            try {
                cm.disconnect(id);
            } catch (RdmaException e) {
                // answered already
            }
        }

        private void fail(String why) {
            fail(why, Errno.EIO);
        }

        private void fail(String why, Errno errno) {
            state = State.ERROR;
            done.complete(new Result(server, pings, validated, why, errno));
        }

        /**
         * Frees the connection's QP, buffers, CQ and PD, then the ids ({@code rping_free_buffers()},
         * {@code rping_free_qp()}, {@code rdma_destroy_id()}). Call it after {@link #done()}.
         */
        public void close() {
            Conn c;
            RdmaCmId i;
            RdmaCmId l;
            synchronized (this) {
                c = conn;
                i = id;
                l = listenId;
                conn = null;
                id = null;
                listenId = null;
                if (!done.isDone()) {
                    fail("closed");
                }
            }
            if (c != null) {
                c.free();
            }
            if (i != null) {
                cm.destroyId(i);
            }
            if (l != null) {
                cm.destroyId(l);
            }
        }

        // ============================================================ the connection

        /** {@code struct rping_cb}'s verbs part: PD, CQ, QP and the four registered buffers. */
        private final class Conn {
            private final RdmaCmId cmId;
            private final IbPd pd;
            private final IbCq cq;
            private final IbQp qp;
            private final ByteBuffer recvBuf = ByteBuffer.allocate(INFO_SIZE);
            private final ByteBuffer sendBuf = ByteBuffer.allocate(INFO_SIZE);
            private final ByteBuffer rdmaBuf;
            private final ByteBuffer startBuf;
            private final IbMr recvMr;
            private final IbMr sendMr;
            private final IbMr rdmaMr;
            private final IbMr startMr;
            private final RecvWr rqWr = new RecvWr();
            private final SendWr sqWr = new SendWr();
            private final SendWr rdmaSqWr = new SendWr();
            private int remoteRkey;
            private long remoteAddr;
            private int remoteLen;
            private int start = 65;

            /** {@code rping_setup_qp()} and {@code rping_setup_buffers()}, then the first receive. */
            Conn(RdmaCmId cmId) {
                this.cmId = cmId;
                pd = cmId.device().allocPd(0);
                debug("created pd %s", pd);
                cq = cmId.device().allocCq(this, SQ_DEPTH * 2, 0, PollContext.WORKQUEUE);
                debug("created cq %s", cq);
                QpInitAttr init = new QpInitAttr();
                init.qpType = QpType.RC;
                init.cap.maxSendWr = SQ_DEPTH;
                init.cap.maxRecvWr = 2;
                init.cap.maxRecvSge = 1;
                init.cap.maxSendSge = 1;
                init.sendCq = cq;
                init.recvCq = cq;
                qp = cm.createQp(cmId, pd, init);
                debug("created qp %s", qp);
                debug("rping_setup_buffers called on cb %s", Integer.toHexString(System.identityHashCode(Session.this)));
                int remote = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
                recvMr = pd.regMr(recvBuf, 0x1000, AccessFlags.LOCAL_WRITE);
                sendMr = pd.regMr(sendBuf, 0x2000, 0);
                rdmaBuf = ByteBuffer.allocate(o.size);
                rdmaMr = pd.regMr(rdmaBuf, 0x10_0000, remote);
                if (!server) {
                    startBuf = ByteBuffer.allocate(o.size);
                    startMr = pd.regMr(startBuf, 0x20_0000, remote);
                } else {
                    startBuf = null;
                    startMr = null;
                }
                setupWr();
                debug("allocated & registered buffers...");
                postRecv();
            }

            /** {@code rping_setup_wr()}: the three work requests, reused for every ping. */
            private void setupWr() {
                rqWr.wrCqe = this::recvDone;
                rqWr.sg(new Sge(recvMr.iova(), INFO_SIZE, recvMr.lkey()));
                sqWr.opcode = WrOpcode.SEND;
                sqWr.sendFlags = SendFlags.SIGNALED;
                sqWr.wrCqe = this::sendDone;
                sqWr.sg(new Sge(sendMr.iova(), INFO_SIZE, sendMr.lkey()));
                rdmaSqWr.sendFlags = SendFlags.SIGNALED;
                rdmaSqWr.wrCqe = this::rdmaDone;
                rdmaSqWr.sg(new Sge(rdmaMr.iova(), o.size, rdmaMr.lkey()));
            }

            private void postRecv() {
                check(qp.postRecv(rqWr, null), "post recv error");
            }

            private void post(SendWr w) {
                check(qp.postSend(w, null), "post send error");
            }

            private void check(int rc, String what) {
                if (rc != 0) {
                    throw new RdmaException(Errno.of(rc), what + " " + rc);
                }
            }

            /** {@code rping_format_send()}: the buffer's address, rkey and length, big-endian. */
            private void formatSend(IbMr mr) {
                sendBuf.putLong(0, mr.iova());
                sendBuf.putInt(8, mr.rkey());
                sendBuf.putInt(12, o.size);
                debug("RDMA addr %x rkey %x len %d", mr.iova(), mr.rkey(), o.size);
            }

            // -------------------------------------------------------- the client's pings

            /** The top of {@code rping_test_client()}'s loop: the ping's text, then its source advertised. */
            void nextPing() {
                state = State.RDMA_READ_ADV;
                byte[] head = String.format(MSG_FMT, pings).getBytes(StandardCharsets.US_ASCII);
                int cc = Math.min(head.length, o.size - 1);
                startBuf.put(0, head, 0, cc);
                int c = start;
                for (int i = cc; i < o.size; i++) {
                    startBuf.put(i, (byte) c);
                    c++;
                    if (c > 122) {
                        c = 65;
                    }
                }
                start++;
                if (start > 122) {
                    start = 65;
                }
                startBuf.put(o.size - 1, (byte) 0);
                formatSend(startMr);
                post(sqWr);
            }

            /** {@code client_recv()} and the rest of the loop: advertise the sink, then check and ping again. */
            private void clientRecv(Wc wc) {
                if (wc.byteLen != INFO_SIZE) {
                    o.out.printf("Received bogus data, size %d%n", wc.byteLen);
                    fail("bogus data");
                    return;
                }
                if (state == State.RDMA_READ_ADV) {
                    state = State.RDMA_WRITE_ADV;
                    formatSend(rdmaMr);
                    post(sqWr);
                    return;
                }
                state = State.RDMA_WRITE_COMPLETE;
                if (o.validate) {
                    for (int i = 0; i < o.size; i++) {
                        if (startBuf.get(i) != rdmaBuf.get(i)) {
                            o.out.println("data mismatch!");
                            fail("data mismatch at byte " + i + " of ping " + pings);
                            disconnectQuietly();
                            return;
                        }
                    }
                    validated++;
                }
                if (o.verbose) {
                    o.out.printf("ping data: %s%n", cString(rdmaBuf));
                }
                pings++;
                if (o.count != 0 && pings >= o.count) {
                    disconnectQuietly();
                    return;
                }
                nextPing();
            }

            // -------------------------------------------------------- the server's side

            /** {@code server_recv()} and {@code rping_test_server()}'s reaction to each advertisement. */
            private void serverRecv(Wc wc) {
                if (wc.byteLen != INFO_SIZE) {
                    o.out.printf("Received bogus data, size %d%n", wc.byteLen);
                    fail("bogus data");
                    return;
                }
                remoteRkey = recvBuf.getInt(8);
                remoteAddr = recvBuf.getLong(0);
                remoteLen = recvBuf.getInt(12);
                debug("Received rkey %x addr %x len %d from peer", remoteRkey, remoteAddr, remoteLen);
                if (state.ordinal() <= State.CONNECTED.ordinal() || state == State.RDMA_WRITE_COMPLETE) {
                    state = State.RDMA_READ_ADV;
                    debug("server received sink adv");
                    rdmaSqWr.opcode = WrOpcode.RDMA_READ;
                    rdmaSqWr.rkey = remoteRkey;
                    rdmaSqWr.remoteAddr = remoteAddr;
                    rdmaSqWr.sgList[0].length = Math.min(remoteLen, o.size);
                    post(rdmaSqWr);
                    debug("server posted rdma read req ");
                } else {
                    state = State.RDMA_WRITE_ADV;
                    debug("server received sink adv");
                    rdmaSqWr.opcode = WrOpcode.RDMA_WRITE;
                    rdmaSqWr.rkey = remoteRkey;
                    rdmaSqWr.remoteAddr = remoteAddr;
                    rdmaSqWr.sgList[0].length = Math.min(strlen(rdmaBuf) + 1, o.size);
                    debug("rdma write from lkey %x laddr %x len %d", rdmaSqWr.sgList[0].lkey, rdmaSqWr.sgList[0].addr,
                            rdmaSqWr.sgList[0].length);
                    post(rdmaSqWr);
                }
            }

            private void rdmaDone(IbCq c, Wc wc) {
                synchronized (Session.this) {
                    if (!ok(wc)) {
                        return;
                    }
                    try {
                        if (rdmaSqWr.opcode == WrOpcode.RDMA_READ) {
                            debug("rdma read completion");
                            state = State.RDMA_READ_COMPLETE;
                            debug("server received read complete");
                            if (o.verbose) {
                                o.out.printf("server ping data: %s%n", cString(rdmaBuf));
                            }
                            pings++;
                        } else {
                            debug("rdma write completion");
                            state = State.RDMA_WRITE_COMPLETE;
                            debug("server rdma write complete ");
                        }
                        post(sqWr);
                        debug("server posted go ahead");
                    } catch (RdmaException e) {
                        o.out.println(e.getMessage());
                        fail(e.getMessage());
                    }
                }
            }

            private void recvDone(IbCq c, Wc wc) {
                synchronized (Session.this) {
                    if (!ok(wc)) {
                        return;
                    }
                    debug("recv completion");
                    try {
                        postRecv();
                        if (server) {
                            serverRecv(wc);
                        } else {
                            clientRecv(wc);
                        }
                    } catch (RdmaException e) {
                        o.out.println(e.getMessage());
                        fail(e.getMessage());
                    }
                }
            }

            private void sendDone(IbCq c, Wc wc) {
                synchronized (Session.this) {
                    if (ok(wc)) {
                        debug("send completion");
                    }
                }
            }

            /** {@code rping_cq_event_handler()}'s status check: flushes are expected at the end. */
            private boolean ok(Wc wc) {
                if (wc.status == WcStatus.SUCCESS) {
                    return state != State.ERROR;
                }
                if (wc.status != WcStatus.WR_FLUSH_ERR && state != State.ERROR && state != State.DISCONNECTED) {
                    o.out.printf("cq completion failed status %d%n", wc.status.ordinal());
                    fail("cq completion failed: " + wc.status);
                }
                return false;
            }

            /** {@code rping_free_buffers()} and {@code rping_free_qp()}. */
            void free() {
                debug("rping_free_buffers called on cb %s", Integer.toHexString(System.identityHashCode(Session.this)));
                if (cmId.qp() != null) {
                    cm.destroyQp(cmId);
                }
                for (IbMr mr : new IbMr[] {recvMr, sendMr, rdmaMr, startMr}) {
                    if (mr != null) {
                        mr.dereg();
                    }
                }
                cq.free();
                pd.dealloc();
            }
        }
    }

    /** The buffer up to its first NUL, as {@code printf("%s")} shows it. */
    static String cString(ByteBuffer b) {
        int n = strlen(b);
        byte[] a = new byte[n];
        b.get(0, a);
        return new String(a, StandardCharsets.US_ASCII);
    }

    static int strlen(ByteBuffer b) {
        int n = 0;
        while (n < b.capacity() && b.get(n) != 0) {
            n++;
        }
        return n;
    }

}
