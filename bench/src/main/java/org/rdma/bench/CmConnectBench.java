package org.rdma.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.rdma.cm.internal.ib.IbCmComponent;
import org.rdma.cm.internal.rdma.RdmaCmComponent;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;

/**
 * RDMA CM connections established per second on the simulated fabric (issue 5): each operation
 * is one whole connection as a consumer makes it, {@code rdma_create_id()}, address and route
 * resolution (an SA PathRecord query on InfiniBand, local on RoCE), {@code rdma_create_qp()} on
 * both sides, REQ / REP / RTU through the IB CM with the QPs moved to RTS, until both sides have
 * {@code ESTABLISHED}. {@value #BATCH} connections are set up at a time; their teardown runs
 * outside the measurement. The network is the SM test kit's, in virtual time, with every
 * layer's work on the benchmark thread. {@link #main} runs it and prints the figure against the
 * target ({@value #TARGET} connections/s).
 */
@Fork(1)
public class CmConnectBench {
    /** Connections set up per invocation (a busy server's burst; QP1's receive queue holds them). */
    static final int BATCH = 64;
    /** Connections per second the issue asks for. */
    static final double TARGET = 20_000;

    /** Two hosts, the CMs, a listener, a PD and CQ per side. */
    @State(Scope.Thread)
    public static class Net {
        @Param({"ib", "roce"})
        public String fabric;
        /**
         * {@code qp}: each side creates its QP through the CM, which moves it to RTS; {@code cm}:
         * the consumer names a QP number in the connection parameters and makes no QP (cmtime's
         * {@code -m}imic mode), which leaves the connection managers' own cost.
         */
        @Param({"qp", "cm"})
        public String mode;
        private int fakeQpn = 0x100;
        SmNet net;
        IbCmComponent ibcm;
        RdmaCmComponent cm;
        IbPd[] pd = new IbPd[2];
        IbCq[] cq = new IbCq[2];
        IbDevice[] dev = new IbDevice[2];
        java.net.SocketAddress src;
        java.net.SocketAddress dst;
        RdmaCmId listen;
        final List<RdmaCmId> ids = new ArrayList<>();
        int established;

        @Setup(Level.Trial)
        public void up() {
            boolean ib = fabric.equals("ib");
            net = ib ? new SmNet(SmNet.ring(1, 2), 0).up() : SmNet.roce("ha", "hb");
            ibcm = new IbCmComponent(net.clock, net.pump, net.mad, net.sa);
            net.addClient(ibcm);
            cm = new RdmaCmComponent(net.clock, net.pump, ibcm, net.sa);
            net.addClient(cm);
            String[] hosts = ib ? new String[] {"h0", "h1"} : new String[] {"ha", "hb"};
            for (int i = 0; i < 2; i++) {
                dev[i] = net.dev(hosts[i]);
                pd[i] = dev[i].allocPd(0);
                cq[i] = dev[i].allocCq(null, 4096, 0, PollContext.DIRECT);
            }
            if (ib) {
                src = IbSocketAddress.of(dev[0].queryGid(1, 0), RdmaPortSpace.TCP, 0);
                dst = IbSocketAddress.of(dev[1].queryGid(1, 0), RdmaPortSpace.TCP, 7471);
            } else {
                src = new java.net.InetSocketAddress(net.ip("ha"), 0);
                dst = new java.net.InetSocketAddress(net.ip("hb"), 7471);
            }
            listen = cm.createId(this::handle, null, RdmaPortSpace.TCP, QpType.RC);
            cm.bindAddr(listen, dst);
            cm.listen(listen, 0);
        }

        private QpInitAttr init(int side) {
            QpInitAttr a = new QpInitAttr();
            a.qpType = QpType.RC;
            a.sendCq = cq[side];
            a.recvCq = cq[side];
            a.cap.maxSendWr = 4;
            a.cap.maxRecvWr = 4;
            a.cap.maxSendSge = 1;
            a.cap.maxRecvSge = 1;
            return a;
        }

        private RdmaConnParam param() {
            RdmaConnParam p = new RdmaConnParam();
            if (mode.equals("cm")) {
                p.qpNum = fakeQpn++ & 0xFF_FFFF;
            }
            p.responderResources = 1;
            p.initiatorDepth = 1;
            p.retryCount = 7;
            p.rnrRetryCount = 7;
            return p;
        }

        /** The consumer both sides run: route after address, QP and REQ after route, QP and REP on a request. */
        private int handle(RdmaCmId id, RdmaCmEvent ev) {
            switch (ev.event()) {
                case ADDR_RESOLVED -> cm.resolveRoute(id, 2000);
                case ROUTE_RESOLVED -> {
                    if (mode.equals("qp")) {
                        cm.createQp(id, pd[0], init(0));
                    }
                    cm.connect(id, param());
                }
                case CONNECT_REQUEST -> {
                    ids.add(id);
                    if (mode.equals("qp")) {
                        cm.createQp(id, pd[1], init(1));
                    }
                    cm.accept(id, param());
                }
                case CONNECT_RESPONSE -> {
                    // no CM QP: the consumer completes the connection (rdma_establish), as cmtime does
                    cm.establish(id);
                    established++;
                }
                case ESTABLISHED -> established++;
                default -> {
                }
            }
            return 0;
        }

        /** Disconnects and destroys the batch, and waits out timewait, outside the measurement. */
        @TearDown(Level.Invocation)
        public void teardown() {
            if (established != 2 * BATCH) {
                throw new IllegalStateException(established + " of " + 2 * BATCH + " ends established");
            }
            for (RdmaCmId id : ids) {
                if (id.ps() == RdmaPortSpace.TCP && id.dstAddr() != null && id.device() == dev[0]) {
                    cm.disconnect(id);
                }
            }
            net.settle();
            for (RdmaCmId id : ids) {
                if (id.qp() != null) {
                    cm.destroyQp(id);
                }
                cm.destroyId(id);
            }
            ids.clear();
            established = 0;
            net.advance(1000);
        }

        @TearDown(Level.Trial)
        public void down() {
            cm.destroyId(listen);
            for (int i = 0; i < 2; i++) {
                cq[i].free();
                pd[i].dealloc();
            }
            net.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public int connect(Net n) {
        for (int i = 0; i < BATCH; i++) {
            RdmaCmId c = n.cm.createId(n::handle, null, RdmaPortSpace.TCP, QpType.RC);
            n.ids.add(c);
            n.cm.resolveAddr(c, n.src, n.dst, 2000);
        }
        n.net.settle();
        return n.established;
    }

    /** Runs {@link #connect} on both fabrics (JMH options on the command line win) and prints the figures. */
    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        OptionsBuilder b = Bench.defaults(cli, 2);
        b.include(CmConnectBench.class.getName() + ".connect");
        Collection<RunResult> results = new Runner(b.parent(cli).build()).run();
        System.out.println();
        System.out.println("RDMA CM connection set-up (create id, resolve address and route, [create QPs,] REQ/REP/RTU,"
                + " both ends ESTABLISHED; " + BATCH + " at a time, virtual time)");
        String fmt = "%-44s %16s %16s %9s %s%n";
        System.out.printf(Locale.ROOT, fmt, "fabric", "connections/s", "target", "ratio", "");
        for (RunResult r : results) {
            String fabric = r.getParams().getParam("fabric");
            String mode = r.getParams().getParam("mode");
            double score = r.getPrimaryResult().getScore();
            System.out.printf(Locale.ROOT, fmt, (fabric.equals("ib") ? "InfiniBand (SA path)" : "RoCE (local path)")
                    + (mode.equals("qp") ? ", QPs to RTS" : ", CM only (no QPs)"),
                    String.format(Locale.ROOT, "%.0f", score), String.format(Locale.ROOT, ">= %.0f", TARGET),
                    String.format(Locale.ROOT, "%.2f", score / TARGET), score >= TARGET ? "met" : "NOT met");
        }
    }
}
