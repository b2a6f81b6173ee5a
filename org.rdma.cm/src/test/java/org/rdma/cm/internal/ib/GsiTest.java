package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.cm.ib.IbCm;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.MadHdr;

/**
 * GSI on both link layers: the CM class answers Get(ClassPortInfo), and the MAD layer's own
 * responses ({@code createResponse}, built from the received MAD's address) find their way back,
 * which on RoCEv2 over IPv4 needs the addresses of the IPv4 header.
 */
class GsiTest {
    private static MadRecvWc get(CmNet cn, MadAgent agent, Map<MadSendBuf, MadRecvWc> answers, PathRecord path,
            int mgmtClass, int classVersion, int attrId) {
        AhAttr attr = new AhAttr();
        cn.net.sa.initAhAttrFromPath(agent.device(), 1, path, attr);
        MadSendBuf m = cn.net.mad.createSendMad(agent, 1, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                MadHdr.IB_MGMT_BASE_VERSION);
        m.setAh(cn.net.mad.createAh(agent, attr));
        MadHdr.of(mgmtClass, classVersion, MadHdr.IB_MGMT_METHOD_GET, attrId, 0, agent.tid(7)).pack(m.mad(), 0);
        m.setTimeoutMs(100);
        m.setRetries(1);
        assertEquals(0, cn.net.mad.postSendMad(m));
        cn.advance(10);
        MadRecvWc r = answers.remove(m);
        m.ah().destroy();
        return r;
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void theCmAnswersClassPortInfoAndMadResponsesFindTheirWayBack(boolean roce) {
        try (CmNet cn = roce ? CmNet.roce() : CmNet.ib()) {
            Map<MadSendBuf, MadRecvWc> answers = new HashMap<>();
            MadAgent requester = cn.net.mad.registerMadAgent(cn.dev(cn.a), 1, QpType.GSI, null, 0,
                    (ag, wc) -> cn.net.mad.freeSendMad(wc.sendBuf()), (ag, sb, wc) -> answers.put(sb, wc), null, 0);
            PathRecord ab = cn.path(cn.a, cn.b);

            MadRecvWc r = get(cn, requester, answers, ab, MadHdr.IB_MGMT_CLASS_CM, IbCm.CLASS_VERSION,
                    ClassPortInfo.ATTR_ID);
            assertNotNull(r, "GetResp(ClassPortInfo) from the CM");
            MadHdr h = r.hdr();
            assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, h.method);
            assertEquals(0, h.status);
            ClassPortInfo cpi = new ClassPortInfo().unpack(r.mad(), MadHdr.IB_MGMT_MAD_HDR);
            assertEquals(1, cpi.baseVersion);
            assertEquals(2, cpi.classVersion);
            assertEquals(CmClassPortInfo.RESP_TIME_VALUE, cpi.respTimeValue);
            r = get(cn, requester, answers, ab, MadHdr.IB_MGMT_CLASS_CM, IbCm.CLASS_VERSION, IbCm.REQ_ATTR_ID);
            assertEquals(MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB, r.hdr().status);

            // a class agent answering with the MAD layer's createResponse()
            List<MadRecvWc> served = new ArrayList<>();
            MadAgent[] server = new MadAgent[1];
            server[0] = cn.net.mad.registerMadAgent(cn.dev(cn.b), 1, QpType.GSI,
                    MadRegRequest.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET), 0,
                    (ag, wc) -> cn.net.mad.freeSendMad(wc.sendBuf()), (ag, sb, wc) -> {
                        served.add(wc);
                        MadSendBuf resp = cn.net.mad.createResponse(ag, wc, false, MadHdr.IB_MGMT_MAD_HDR,
                                MadHdr.IB_MGMT_MAD_DATA);
                        resp.mad()[3] = (byte) MadHdr.IB_MGMT_METHOD_GET_RESP;
                        resp.mad()[100] = 42;
                        assertEquals(0, cn.net.mad.postSendMad(resp));
                    }, null, 0);
            r = get(cn, requester, answers, ab, MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, 0x10);
            assertEquals(1, served.size());
            assertNotNull(r, "the response made from the request's address came back");
            assertEquals(42, r.mad()[100]);
            cn.net.mad.unregisterMadAgent(server[0]);
            cn.net.mad.unregisterMadAgent(requester);
        }
    }
}
