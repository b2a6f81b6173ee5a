package org.rdma.mad.internal;

import java.util.HashMap;
import java.util.Map;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadService;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.wire.MadHdr;

/**
 * A stand-in SA on one host's QP1 until org.rdma.sm exists: answers SubnAdmGet(PathRecord),
 * SubnAdmGetTable(PathRecord) with {@link #tableSize} records (RMPP beyond three), MCMemberRecord
 * Set/Delete and ServiceRecord requests, and counts every request by method and attribute.
 */
final class TestSa {
    final MadService mad;
    final MadAgent agent;
    final Map<String, Integer> requests = new HashMap<>();
    /** GUID to LID, for path answers. */
    final Map<Long, Integer> lidOfGuid = new HashMap<>();
    int tableSize = 100;
    /** Non-zero: answer every request with this MAD status. */
    int failStatus;
    /** Answer nothing (timeouts). */
    boolean silent;

    TestSa(MadService mad, IbDevice dev) {
        this.mad = mad;
        MadRegRequest req = MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION,
                MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_MGMT_METHOD_SET, MadHdr.IB_SA_METHOD_GET_TABLE,
                MadHdr.IB_SA_METHOD_DELETE);
        agent = mad.registerMadAgent(dev, 1, QpType.GSI, req, MadAgent.RMPP_VERSION,
                (a, wc) -> mad.freeSendMad(wc.sendBuf()), this::recv, this, 0);
    }

    static String key(int method, int attrId) {
        return String.format("%02x/%04x", method, attrId);
    }

    int count(int method, int attrId) {
        synchronized (requests) {
            return requests.getOrDefault(key(method, attrId), 0);
        }
    }

    private void recv(MadAgent a, MadSendBuf sb, MadRecvWc wc) {
        MadHdr h = wc.hdr();
        synchronized (requests) {
            requests.merge(key(h.method, h.attrId), 1, Integer::sum);
        }
        if (silent) {
            return;
        }
        byte[] req = wc.mad();
        if (h.method == MadHdr.IB_SA_METHOD_GET_TABLE && h.attrId == SaMad.ATTR_PATH_REC) {
            PathRecord tmpl = new PathRecord().unpack(req, SaMad.DATA_OFFSET);
            MadSendBuf r = mad.createResponse(a, wc, true, MadHdr.IB_MGMT_SA_HDR, tableSize * PathRecord.BYTES);
            byte[] m = r.mad();
            java.util.Arrays.fill(m, 24, 36, (byte) 0);
            m[3] = (byte) MadHdr.IB_SA_METHOD_GET_TABLE_RESP;
            SaMad.setAttrOffset(m, PathRecord.BYTES / 8);
            for (int i = 0; i < tableSize; i++) {
                PathRecord p = path(tmpl);
                p.dlid = 0x100 + i;
                p.pack(m, MadHdr.IB_MGMT_SA_HDR + i * PathRecord.BYTES);
            }
            respond(r, 0, true);
            return;
        }
        MadSendBuf r = mad.createResponse(a, wc, false, MadHdr.IB_MGMT_SA_HDR, SaMad.DATA_SIZE);
        byte[] m = r.mad();
        m[3] = (byte) (h.method == MadHdr.IB_SA_METHOD_DELETE ? MadHdr.IB_SA_METHOD_DELETE_RESP
                : MadHdr.IB_MGMT_METHOD_GET_RESP);
        if (h.attrId == SaMad.ATTR_PATH_REC) {
            path(new PathRecord().unpack(req, SaMad.DATA_OFFSET)).pack(m, SaMad.DATA_OFFSET);
        } else if (h.attrId == SaMad.ATTR_MC_MEMBER_REC) {
            McMemberRecord mc = new McMemberRecord().unpack(req, SaMad.DATA_OFFSET);
            mc.mlid = 0xC001;
            mc.qkey = 0x11111111;
            mc.pkey = 0xffff;
            mc.mtu = 4;
            mc.pack(m, SaMad.DATA_OFFSET);
        }
        respond(r, failStatus, false);
    }

    private void respond(MadSendBuf r, int status, boolean rmpp) {
        byte[] m = r.mad();
        m[4] = (byte) (status >>> 8);
        m[5] = (byte) status;
        if (rmpp) {
            r.setTimeoutMs(200);
            r.setRetries(3);
        }
        int rc = mad.postSendMad(r);
        if (rc != 0) {
            throw new AssertionError("SA response post " + rc);
        }
    }

    private PathRecord path(PathRecord q) {
        PathRecord p = new PathRecord();
        p.dgid = q.dgid;
        p.sgid = q.sgid;
        p.dlid = lidOfGuid.getOrDefault(q.dgid.interfaceId(), 0);
        p.slid = lidOfGuid.getOrDefault(q.sgid.interfaceId(), 0);
        p.reversible = 1;
        p.numbPath = 1;
        p.pkey = 0xffff;
        p.sl = 0;
        p.mtuSelector = 2;
        p.mtu = 4;
        p.rateSelector = 2;
        p.rate = 7;
        p.packetLifeTimeSelector = 2;
        p.packetLifeTime = 14;
        return p;
    }

    void learn(String host, Net net) {
        Gid g = net.dev(host).queryGid(1, 0);
        lidOfGuid.put(g.interfaceId(), net.lids.get(host));
    }
}
