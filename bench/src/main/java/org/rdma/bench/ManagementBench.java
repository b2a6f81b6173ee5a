package org.rdma.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.QpType;
import org.rdma.verbs.wire.MadHdr;

/**
 * The management plane on the simulated subnet (issue 4): PathRecord queries per second
 * against the Java SA ({@code ib_sa_path_rec_get()} from one HCA to the SM's SA, through the
 * switch), with the baseline of a bare GSI MAD round trip between the same two ports in the same
 * run (a PerfMgt Get(PortCounters) the far HCA's PMA answers), so the ratio is what the SA
 * client and server add to a MAD exchange; and the time of a full subnet sweep of a 100-node
 * fabric (10 switches in a ring, 90 HCAs) by the subnet manager. Work runs on the test kit's
 * queue ({@link SmNet#settle()}) on the benchmark thread: one thread, no sleeping.
 */
@Fork(1)
public class ManagementBench {
    /** Queries in flight per invocation: what a busy SA client has outstanding. */
    static final int BATCH = 64;

    /** Two HCAs (h0 holds the SM) and a third behind another switch, the SM up. */
    @State(Scope.Thread)
    public static class Subnet {
        SmNet net;
        CoreDevice requester;
        int[] dlids;
        final SaClient client = new SaClient();
        final PathRecord query = new PathRecord();
        int answers;
        MadAgent pma;
        IbAh peer;

        @Setup(Level.Trial)
        public void up() {
            net = new SmNet(SmNet.ring(3, 2), 0).up();
            requester = net.dev("h1");
            dlids = new int[] {net.dev("h3").queryPort(1).lid, net.dev("h5").queryPort(1).lid};
            net.sa.registerClient(client);
            pma = net.mad.registerMadAgent(requester, 1, QpType.GSI, null, 0, (agent, wc) -> net.mad.freeSendMad(wc.sendBuf()),
                    (agent, send, wc) -> {
                answers++;
            }, null, 0);
            AhAttr a = new AhAttr();
            a.portNum = 1;
            a.dlid = dlids[0];
            peer = net.mad.createAh(pma, a);
        }

        @TearDown(Level.Trial)
        public void down() {
            peer.destroy();
            net.mad.unregisterMadAgent(pma);
            net.sa.unregisterClient(client);
            net.close();
        }
    }

    /** The 100-node fabric, swept once at set-up. */
    @State(Scope.Thread)
    public static class Big {
        SmNet net;

        @Setup(Level.Trial)
        public void up() {
            net = new SmNet(SmNet.ring(10, 9), 0).up();
        }

        @TearDown(Level.Trial)
        public void down() {
            net.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public int pathRecGet(Subnet s) {
        s.answers = 0;
        for (int i = 0; i < BATCH; i++) {
            s.query.slid = s.requester.queryPort(1).lid;
            s.query.dlid = s.dlids[i & 1];
            int rc = s.net.sa.pathRecGet(s.client, s.requester, 1, s.query, PathRecord.SLID | PathRecord.DLID, 1000,
                    (status, rec) -> {
                        if (status == 0) {
                            s.answers++;
                        }
                    });
            if (rc < 0) {
                throw new IllegalStateException("ib_sa_path_rec_get: " + rc);
            }
        }
        s.net.settle();
        if (s.answers != BATCH) {
            throw new IllegalStateException(s.answers + " of " + BATCH + " path records answered");
        }
        return s.answers;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public int madRoundTrip(Subnet s) {
        s.answers = 0;
        for (int i = 0; i < BATCH; i++) {
            MadSendBuf b = s.net.mad.createSendMad(s.pma, 1, 0, false, MadHdr.IB_MGMT_MAD_HDR, 256 - MadHdr.IB_MGMT_MAD_HDR, 1);
            byte[] m = b.mad();
            m[0] = 1;                   // base version
            m[1] = 0x04;                // PerfMgt
            m[2] = 1;                   // class version
            m[3] = MadHdr.IB_MGMT_METHOD_GET;
            long tid = s.pma.tid(i);
            for (int k = 0; k < 8; k++) {
                m[8 + k] = (byte) (tid >>> (56 - 8 * k));
            }
            m[16] = 0;
            m[17] = 0x12;               // PortCounters
            m[65] = 1;                  // PortSelect
            b.setAh(s.peer);
            b.setTimeoutMs(1000);
            if (s.net.mad.postSendMad(b) != 0) {
                throw new IllegalStateException("ib_post_send_mad failed");
            }
        }
        s.net.settle();
        if (s.answers != BATCH) {
            throw new IllegalStateException(s.answers + " of " + BATCH + " PortCounters answered");
        }
        return s.answers;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long sweep100(Big b) {
        b.net.sm.sweepNow();
        b.net.settle();
        return b.net.sm.lastSweepSmps();
    }
}
