package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.mad.Rmpp;
import org.rdma.mad.sa.SaMad;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.SmInfo;
import org.rdma.verbs.wire.Smp;

/**
 * The subnet manager's port as another host sees it: arbitrary SA queries to QP1 (the SA
 * server: PathRecord, NodeRecord, PortInfoRecord, ServiceRecord, MCMemberRecord, ClassPortInfo)
 * and arbitrary LID-routed SMPs to QP0 (traps and SMInfo for the SM), sent over the fabric. Every
 * SA request of a method the SA serves is answered exactly once, with the matching response
 * method; a Trap(Notice) of class version 1 reaches the SM and a Get(SMInfo) is answered once;
 * nothing is answered twice, and no exception reaches the SA's or the SM's last-resort handler.
 */
class SmFuzzTest {
    static SmNet net;
    static MadAgent saClient;
    static MadAgent smpClient;
    static int smLid;
    static final Map<MadSendBuf, List<MadRecvWc>> ANSWERS = new HashMap<>();
    static final List<LogRecord> FAILURES = new ArrayList<>();
    static final Handler CATCH = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue() && r.getThrown() != null) {
                FAILURES.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeAll
    static void up() {
        Logger.getLogger("org.rdma").addHandler(CATCH);
        net = new SmNet(SmNet.ring(1, 2), 0).up();
        smLid = net.dev("h0").queryPort(1).lid;
        saClient = client(QpType.GSI, MadAgent.RMPP_VERSION);
        smpClient = client(QpType.SMI, 0);
    }

    private static MadAgent client(QpType qp, int rmpp) {
        return net.mad.registerMadAgent(net.dev("h1"), 1, qp, null, rmpp, (ag, wc) -> {
            wc.sendBuf().ah().destroy();
            net.mad.freeSendMad(wc.sendBuf());
        }, (ag, sb, wc) -> ANSWERS.computeIfAbsent(sb, k -> new ArrayList<>()).add(wc), null, 0);
    }

    @AfterAll
    static void down() {
        Logger.getLogger("org.rdma").removeHandler(CATCH);
        net.mad.unregisterMadAgent(saClient);
        net.mad.unregisterMadAgent(smpClient);
        net.close();
    }

    /**
     * Byte 0, bit 0: an SMP for the SM's QP0 instead of an SA query; then the MAD, with base
     * version, class (SubnAdm or LID-routed SM) and the request bit forced; an SMP's attribute is
     * Notice or SMInfo (by the low bit of its first byte), an SA query's RMPP header inactive
     * (single-MAD requests; reassembly has its own fuzz test in the MAD layer).
     */
    @FuzzTest
    void request(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean smp = (input[0] & 1) != 0;
        byte[] mad = Arrays.copyOfRange(input, 1, 1 + MadHdr.IB_MGMT_MAD_SIZE);
        mad[0] = MadHdr.IB_MGMT_BASE_VERSION;
        mad[1] = (byte) (smp ? MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED : MadHdr.IB_MGMT_CLASS_SUBN_ADM);
        mad[3] &= 0x7f;
        if (smp) {
            // only what reaches the SM: h0's SMA (in the HCA) would obey a Set(PortInfo) and take
            // the subnet down under the following inputs
            int attr = (mad[16] & 1) != 0 ? Notice.ATTR_ID : SmInfo.ATTR_ID;
            mad[16] = (byte) (attr >>> 8);
            mad[17] = (byte) attr;
        } else {
            mad[Rmpp.OFFSET + 2] &= ~Rmpp.FLAG_ACTIVE;
        }
        MadAgent agent = smp ? smpClient : saClient;
        int hdr = smp ? MadHdr.IB_MGMT_MAD_HDR : MadHdr.IB_MGMT_SA_HDR;
        MadSendBuf buf = net.mad.createSendMad(agent, smp ? 0 : 1, 0, false, hdr, MadHdr.IB_MGMT_MAD_SIZE - hdr,
                MadHdr.IB_MGMT_BASE_VERSION);
        System.arraycopy(mad, 0, buf.mad(), 0, mad.length);
        long tid = agent.tid((int) MadHdr.tid(mad, 0));
        ByteBuffer.wrap(buf.mad()).putLong(8, tid);
        AhAttr av = new AhAttr();
        av.portNum = 1;
        av.dlid = smLid;
        buf.setAh(net.mad.createAh(agent, av));
        buf.setTimeoutMs(100);
        long traps = net.sm.trapsReceived();
        assertEquals(0, net.mad.postSendMad(buf));
        net.settle();
        net.advance(200);
        List<MadRecvWc> got = ANSWERS.remove(buf);
        assertTrue(ANSWERS.isEmpty(), "answers to requests never sent");
        assertTrue(FAILURES.isEmpty(), () -> "an exception reached a last-resort handler: " + FAILURES.get(0)
                .getMessage() + " " + FAILURES.get(0).getThrown());
        int n = got == null ? 0 : got.size();
        assertTrue(n <= 1, "answered " + n + " times");
        int method = mad[3];
        int attr = MadHdr.attrId(mad, 0);
        boolean trap = method == MadHdr.IB_MGMT_METHOD_TRAP && attr == Notice.ATTR_ID;
        if (smp && trap && mad[2] == Smp.IB_SMP_CLASS_VERSION) {
            // repressed, but the TrapRepress is the trap sender's SMA's, which the HCA keeps
            assertEquals(traps + 1, net.sm.trapsReceived(), "the SM counts the trap");
        }
        int expected = expectedAnswer(smp, method, attr, mad[2]);
        if (expected != 0) {
            assertEquals(1, n, "no answer to method 0x" + Integer.toHexString(method) + " of 0x"
                    + Integer.toHexString(attr));
            assertEquals(expected, MadHdr.method(got.get(0).mad(), 0), "answer method");
            assertEquals(tid, MadHdr.tid(got.get(0).mad(), 0));
        }
    }

    /**
     * The response method a request must get, 0 when none is owed: the SA's answer for the methods
     * it registered with class version 2; for a Get or Set nobody takes, the MAD layer's
     * "unsupported" GetResp ({@code generate_unmatched_resp()}).
     */
    private static int expectedAnswer(boolean smp, int method, int attr, int classVersion) {
        if (smp) {
            return method == MadHdr.IB_MGMT_METHOD_GET && attr == SmInfo.ATTR_ID ? MadHdr.IB_MGMT_METHOD_GET_RESP : 0;
        }
        boolean sa = classVersion == SaMad.IB_SA_CLASS_VERSION;
        return switch (method) {
            case MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_MGMT_METHOD_SET -> MadHdr.IB_MGMT_METHOD_GET_RESP;
            case MadHdr.IB_SA_METHOD_GET_TABLE -> sa ? MadHdr.IB_SA_METHOD_GET_TABLE_RESP : 0;
            case MadHdr.IB_SA_METHOD_DELETE -> sa ? MadHdr.IB_SA_METHOD_DELETE_RESP : 0;
            default -> 0;
        };
    }
}
