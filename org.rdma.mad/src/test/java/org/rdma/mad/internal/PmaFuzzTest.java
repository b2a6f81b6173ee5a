package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;

/**
 * Performance management agents (class 0x04) behind QP1 of an mlx4sim HCA and of the switch,
 * sent arbitrary PerfMgt requests over the fabric: every Get and Set is answered exactly once
 * with a GetResp to the same TID and attribute, anything else goes unanswered, and the request's
 * send completes either way.
 */
class PmaFuzzTest {
    static Net net;
    static MadAgent client;
    static final Map<MadSendBuf, MadRecvWc> ANSWERS = new HashMap<>();
    static final Map<MadSendBuf, WcStatus> DONE = new HashMap<>();

    @BeforeAll
    static void up() {
        net = new Net("A", "B");
        net.bringUp("A", "B");
        // the switch's management port, where its PMA listens, goes Active as well
        for (int state : new int[] {PortInfo.PORT_STATE_ARMED, PortInfo.PORT_STATE_ACTIVE}) {
            net.setPort("A", 0, -1, state, net.lids.get("A"), 1);
        }
        client = net.mad.registerMadAgent(net.dev("A"), 1, QpType.GSI, null, 0, PmaFuzzTest::sent,
                (ag, sb, wc) -> ANSWERS.put(sb, wc), null, 0);
    }

    private static void sent(MadAgent agent, MadSendWc wc) {
        DONE.put(wc.sendBuf(), wc.status());
        wc.sendBuf().ah().destroy();
        net.mad.freeSendMad(wc.sendBuf());
    }

    @AfterAll
    static void down() {
        net.mad.unregisterMadAgent(client);
        net.close();
    }

    /** Byte 0, bit 0: to the switch (LID 1) instead of host B; then the MAD, base version and class fixed. */
    @FuzzTest
    void request(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] mad = Arrays.copyOfRange(input, 1, 1 + MadLayer.MAD_SIZE);
        mad[0] = MadHdr.IB_MGMT_BASE_VERSION;
        mad[1] = MadHdr.IB_MGMT_CLASS_PERF_MGMT;
        mad[3] &= 0x7f;
        MadSendBuf buf = net.mad.createSendMad(client, 1, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                MadHdr.IB_MGMT_BASE_VERSION);
        System.arraycopy(mad, 0, buf.mad(), 0, mad.length);
        long tid = client.tid((int) MadHdr.tid(mad, 0));
        java.nio.ByteBuffer.wrap(buf.mad()).putLong(8, tid);
        AhAttr av = new AhAttr();
        av.portNum = 1;
        av.dlid = (input[0] & 1) != 0 ? Net.LID_SW : net.lids.get("B");
        buf.setAh(net.mad.createAh(client, av));
        buf.setTimeoutMs(100);
        assertEquals(0, net.mad.postSendMad(buf));
        net.settle();
        net.advance(200);
        WcStatus status = DONE.remove(buf);
        MadRecvWc answer = ANSWERS.remove(buf);
        int method = mad[3];
        if (method == MadHdr.IB_MGMT_METHOD_GET || method == MadHdr.IB_MGMT_METHOD_SET) {
            assertEquals(WcStatus.SUCCESS, status, "the PMA's answer completes the request");
            assertNotNull(answer, "the PMA answers every Get and Set");
            MadHdr h = answer.hdr();
            assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, h.method);
            assertEquals(tid, h.tid);
            assertEquals(MadHdr.attrId(mad, 0), h.attrId);
        } else {
            // a TrapRepress is itself a response: it expects none and completes once sent
            assertEquals(MadHdr.isResponse(mad, 0) ? WcStatus.SUCCESS : WcStatus.RESP_TIMEOUT_ERR, status,
                    "a method no PMA serves times out");
            assertNull(answer, "nobody answers PerfMgt method 0x" + Integer.toHexString(method));
        }
        assertEquals(0, ANSWERS.size() + DONE.size(), "an answer or completion nobody asked for");
    }
}
