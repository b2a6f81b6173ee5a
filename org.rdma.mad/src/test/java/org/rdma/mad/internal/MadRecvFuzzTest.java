package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.Rmpp;
import org.rdma.mad.sa.SaMad;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;

/**
 * The MAD layer's receive path ({@code ib_mad_recv_done()}: validation, SMI, the SMA, agent
 * dispatch, response matching and RMPP reassembly) fed with arbitrary MADs on host A of a live
 * subnet, where agents of every kind are registered and requests are outstanding. Each MAD is
 * counted exactly once as accepted or as dropped, every accepted MAD reaches a handler, the SMA
 * or a drop counter, nothing escapes as an exception, and the memory a sequence of MADs makes the
 * layer allocate is proportional to the MADs, not to the lengths they claim.
 */
class MadRecvFuzzTest {
    /** One received MAD in a {@link #receive} input: the completion's fields, a GRH and the MAD. */
    static final int RECORD = 48 + MadLayer.MAD_SIZE;
    static final int MAX_RECORDS = 16;
    /** Flag bits of a record's first byte. */
    static final int ON_QP1 = 1;
    static final int WITH_GRH = 2;
    /** Bits 2-3: give the MAD the TID of an outstanding request (1: GMP, 2: SA RMPP query, 3: SMP). */
    static final int TID_SHIFT = 2;

    static Net net;
    static IbDevice a;
    static IbDevice b;
    static MadPort port;

    /** What the handlers of one input's agents saw. */
    final List<MadRecvWc> delivered = new ArrayList<>();

    @BeforeAll
    static void up() {
        net = new Net("A", "B");
        net.bringUp("A", "B");
        a = net.dev("A");
        b = net.dev("B");
        port = net.mad.port(a, 1);
    }

    @AfterAll
    static void down() {
        net.close();
    }

    /** The agents of one input on A: servers of three classes and three requesters with a request out each. */
    final class Agents implements AutoCloseable {
        final List<MadAgent> all = new ArrayList<>();
        final long[] outstanding = new long[4];

        Agents() {
            server(QpType.SMI, MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, MadHdr.IB_MGMT_METHOD_SET,
                    MadHdr.IB_MGMT_METHOD_TRAP), 0);
            server(QpType.SMI, MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1, MadHdr.IB_MGMT_METHOD_SET,
                    MadHdr.IB_MGMT_METHOD_TRAP), 0);
            server(QpType.GSI, MadRegRequest.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET,
                    MadHdr.IB_MGMT_METHOD_SET), 0);
            server(QpType.GSI, MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION,
                    MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_SA_METHOD_GET_TABLE, MadHdr.IB_MGMT_METHOD_REPORT),
                    MadAgent.RMPP_VERSION);
            outstanding[1] = request(QpType.GSI, 0, MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET);
            outstanding[2] = request(QpType.GSI, MadAgent.RMPP_VERSION, MadHdr.IB_MGMT_CLASS_SUBN_ADM,
                    SaMad.IB_SA_CLASS_VERSION, MadHdr.IB_SA_METHOD_GET_TABLE);
            outstanding[3] = request(QpType.SMI, 0, MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED, 1,
                    MadHdr.IB_MGMT_METHOD_GET);
        }

        private MadAgent register(QpType qp, MadRegRequest req, int rmpp) {
            MadAgent ag = net.mad.registerMadAgent(a, 1, qp, req, rmpp, (x, wc) -> {
                wc.sendBuf().ah().destroy();
                net.mad.freeSendMad(wc.sendBuf());
            }, (x, sb, wc) -> delivered.add(wc), null, 0);
            all.add(ag);
            return ag;
        }

        private void server(QpType qp, MadRegRequest req, int rmpp) {
            register(qp, req, rmpp);
        }

        /** Posts a request to B that nobody there answers within the input's life; returns its TID. */
        private long request(QpType qp, int rmpp, int mgmtClass, int version, int method) {
            MadAgent ag = register(qp, null, rmpp);
            int hdr = mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_ADM ? MadHdr.IB_MGMT_SA_HDR : MadHdr.IB_MGMT_MAD_HDR;
            MadSendBuf buf = net.mad.createSendMad(ag, qp == QpType.SMI ? 0 : 1, 0, false, hdr,
                    MadLayer.MAD_SIZE - hdr, MadHdr.IB_MGMT_BASE_VERSION);
            long tid = ag.tid(0x5eed);
            MadHdr.of(mgmtClass, version, method, 0x10, 0, tid).pack(buf.mad(), 0);
            AhAttr av = new AhAttr();
            av.portNum = 1;
            av.dlid = net.lids.get("B");
            buf.setAh(net.mad.createAh(ag, av));
            buf.setTimeoutMs(3_600_000);
            assertEquals(0, net.mad.postSendMad(buf), "post the outstanding request");
            return tid;
        }

        @Override
        public void close() {
            for (MadAgent ag : all) {
                net.mad.unregisterMadAgent(ag);
            }
            net.settle();
        }
    }

    @FuzzTest
    void receive(byte[] input) {
        int records = Math.min(MAX_RECORDS, (input.length + RECORD - 1) / RECORD);
        ByteBuffer in = ByteBuffer.wrap(Arrays.copyOf(input, records * RECORD));
        Map<String, Integer> resources = ((CoreDevice) a).restrack().counts();
        try (Agents agents = new Agents()) {
            for (int i = 0; i < records; i++) {
                int flags = in.get() & 0xff;
                Wc wc = new Wc();
                wc.status = WcStatus.SUCCESS;
                wc.slid = in.getShort() & 0xffff;
                wc.srcQp = (in.get() & 0xff) << 16 | (in.getShort() & 0xffff);
                wc.sl = in.get() & 0xf;
                wc.pkeyIndex = in.get() & 0xff;
                byte[] grh = new byte[MadQp.GRH_LEN];
                in.get(grh);
                byte[] mad = new byte[MadLayer.MAD_SIZE];
                in.get(mad);
                int tidOf = flags >>> TID_SHIFT & 3;
                if (tidOf != 0) {
                    ByteBuffer.wrap(mad).putLong(8, agents.outstanding[tidOf]);
                }
                wc.byteLen = MadQp.RECV_BUF;
                wc.portNum = 1;
                if ((flags & WITH_GRH) != 0) {
                    wc.wcFlags = WcFlags.GRH;
                } else {
                    grh = null;
                }
                feed(port.qp((flags & ON_QP1) != 0 ? 1 : 0), new MadRecvWc(wc, grh, mad, MadLayer.MAD_SIZE));
                net.settle();
            }
        }
        assertEquals(resources, ((CoreDevice) a).restrack().counts(), "what answering the MADs took is given back");
    }

    /** One MAD through {@link MadPort#recv} with the accounting checked around it. */
    private void feed(MadQp q, MadRecvWc wc) {
        byte[] original = wc.mad().clone();
        Map<MadCounter, Long> before = counters();
        int handled = delivered.size();
        long allocated = Allocation.ofThisThread();
        port.recv(q, wc);
        long used = Allocation.ofThisThread() - allocated;
        Map<MadCounter, Long> d = delta(before);
        // SMI_DISCARD also counts answers the send-side SMI refuses: it decides only without RECV
        long verdicts = d.get(MadCounter.RECV) + d.get(MadCounter.BAD_BASE_VERSION) + d.get(MadCounter.BAD_QP)
                + (d.get(MadCounter.RECV) == 0 ? d.get(MadCounter.SMI_DISCARD) : 0);
        assertEquals(1, verdicts, "each MAD is counted once as received or dropped: " + d + " " + hex(original));
        if (d.get(MadCounter.RECV) == 1) {
            long outcomes = delivered.size() - handled + d.get(MadCounter.NO_AGENT) + d.get(MadCounter.UNMATCHED_RESPONSE)
                    + d.get(MadCounter.RMPP_SEGMENTS) + (smaAnswers(original) ? 1 : 0);
            assertTrue(outcomes >= 1, "an accepted MAD reached no handler, no SMA and no drop counter: " + d + " "
                    + hex(original));
        }
        assertTrue(used < Allocation.PER_MAD_LIMIT, "receiving one MAD allocated " + used + " bytes: " + hex(original));
    }

    /** The MADs the built-in SMA consumes: Get of NodeInfo, NodeDescription or PortInfo on QP0. */
    private static boolean smaAnswers(byte[] mad) {
        int cls = MadHdr.mgmtClass(mad, 0);
        int attr = MadHdr.attrId(mad, 0);
        return (cls == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED || cls == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
                && MadHdr.method(mad, 0) == MadHdr.IB_MGMT_METHOD_GET
                && (attr == Smp.IB_SMP_ATTR_NODE_INFO || attr == Smp.IB_SMP_ATTR_NODE_DESC
                        || attr == Smp.IB_SMP_ATTR_PORT_INFO);
    }

    private static Map<MadCounter, Long> counters() {
        Map<MadCounter, Long> m = new EnumMap<>(MadCounter.class);
        for (MadCounter c : MadCounter.values()) {
            m.put(c, port.counter(c));
        }
        return m;
    }

    private static Map<MadCounter, Long> delta(Map<MadCounter, Long> before) {
        Map<MadCounter, Long> m = counters();
        m.replaceAll((c, v) -> v - before.get(c));
        return m;
    }

    static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }

    // ------------------------------------------------------------------ RMPP

    /**
     * One RMPP segment of a {@link #rmppReassembly} input, the header fields the fuzzer picks:
     * SegmentNumber, PayloadLength/NewWindowLast, RMPPFlags, RMPPType, RMPPVersion, RMPPStatus, a
     * fill byte for the data, and whether it answers the outstanding SA query (else it is a new
     * request to the SA class agent).
     */
    static final int SEGMENT = 14;
    static final int MAX_SEGMENTS = 64;

    @FuzzTest
    void rmppReassembly(byte[] input) {
        int segments = Math.min(MAX_SEGMENTS, input.length / SEGMENT);
        ByteBuffer in = ByteBuffer.wrap(input);
        int fed = 0;
        Map<String, Integer> resources = ((CoreDevice) a).restrack().counts();
        try (Agents agents = new Agents()) {
            for (int i = 0; i < segments; i++) {
                int segNum = in.getInt();
                int paylen = in.getInt();
                int flags = in.get() & 0xff;
                int type = in.get() & 0xff;
                int version = in.get() & 0xff;
                int status = in.get() & 0xff;
                byte fill = in.get();
                boolean response = (in.get() & 1) == 0;
                byte[] mad = new byte[MadLayer.MAD_SIZE];
                long tid = response ? agents.outstanding[2] : 0x0000_0001_0000_0077L;
                MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION,
                        response ? MadHdr.IB_SA_METHOD_GET_TABLE_RESP : MadHdr.IB_SA_METHOD_GET_TABLE,
                        SaMad.ATTR_PATH_REC, 0, tid).pack(mad, 0);
                Rmpp.set(mad, version, type, flags, status, segNum, paylen);
                mad[Rmpp.OFFSET + 2] = (byte) flags; // the response time bits too
                Arrays.fill(mad, MadHdr.IB_MGMT_SA_HDR, mad.length, fill);
                Wc wc = new Wc();
                wc.status = WcStatus.SUCCESS;
                wc.slid = net.lids.get("B");
                wc.srcQp = 1;
                wc.byteLen = MadQp.RECV_BUF;
                wc.portNum = 1;
                fed++;
                int before = delivered.size();
                feed(port.qp(1), new MadRecvWc(wc, null, mad, MadLayer.MAD_SIZE));
                for (MadRecvWc got : delivered.subList(before, delivered.size())) {
                    // a reassembled message holds no more than the segments that came in
                    int most = MadHdr.IB_MGMT_SA_HDR + fed * SaMad.DATA_SIZE;
                    assertTrue(got.madLen() >= 0 && got.madLen() <= got.mad().length && got.madLen() <= most,
                            "message of " + got.madLen() + " bytes in a " + got.mad().length + "-byte buffer after "
                                    + fed + " segments");
                }
                net.settle();
            }
            // a transfer that stalls is aborted in time instead of holding its buffer for ever
            long timeouts = port.counter(MadCounter.RMPP_RECV_TIMEOUTS);
            int open = agents.all.stream().mapToInt(ag -> ((AgentImpl) ag).rmppRecvCount()).sum();
            net.advance(AgentImpl.RMPP_RECV_TIMEOUT_MS);
            assertEquals(0, agents.all.stream().mapToInt(ag -> ((AgentImpl) ag).rmppRecvCount()).sum(),
                    "reassemblies left after their timeout");
            assertEquals(open, port.counter(MadCounter.RMPP_RECV_TIMEOUTS) - timeouts, "stalled reassemblies counted");
        }
        assertEquals(resources, ((CoreDevice) a).restrack().counts(), "what answering the segments took is given back");
    }
}
