package org.rdma.cm.internal.ib;

import org.rdma.cm.ib.IbCm;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.MadHdr;

/**
 * The CM class's answer to Get(ClassPortInfo) (IBTA 13.4.8.1): class version 2, no redirection,
 * the response time the CM takes to answer. Other Gets are answered with
 * "unsupported method/attribute".
 */
final class CmClassPortInfo {
    /** RespTimeValue: 4.096 us * 2^20, about 4.3 s (the RDMA CM's CM response timeout). */
    static final int RESP_TIME_VALUE = 20;

    private CmClassPortInfo() {
    }

    static void answer(CmCore core, CmPort port, MadRecvWc wc, MadHdr req) {
        MadSendBuf m;
        try {
            m = core.sender.allocResponse(port, wc);
        } catch (RuntimeException e) {
            port.dropped.incrementAndGet();
            return;
        }
        MadHdr h = MadHdr.of(MadHdr.IB_MGMT_CLASS_CM, IbCm.CLASS_VERSION, MadHdr.IB_MGMT_METHOD_GET_RESP, req.attrId,
                req.attrMod, req.tid);
        if (req.attrId == ClassPortInfo.ATTR_ID) {
            ClassPortInfo cpi = new ClassPortInfo();
            cpi.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
            cpi.classVersion = IbCm.CLASS_VERSION;
            cpi.respTimeValue = RESP_TIME_VALUE;
            cpi.pack(m.mad(), MadHdr.IB_MGMT_MAD_HDR);
        } else {
            h.status = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
        }
        h.pack(m.mad(), 0);
        core.sender.postQuietly(m);
    }
}
