package org.rdma.hca.mlx4sim.internal;

import java.nio.ByteBuffer;
import java.util.List;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.rvt.testkit.Host;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;

/** A test subnet manager (and PerfMgr) on one HCA's QP0/QP1, doing the MAD layer's SMI work itself. */
final class Sm {
    final Host h;
    final Host.Pd pd;
    final Host.Qp qp0;
    final Host.Qp qp1;
    final ByteBuffer buf = ByteBuffer.allocate(1 << 18);
    final FakeMr mr;
    private long tid = 0x1000;
    private int slot;

    Sm(Host h) {
        this.h = h;
        pd = h.allocPd();
        mr = h.regMr(pd, buf, 0x10000, AccessFlags.LOCAL_WRITE);
        qp0 = ud(QpType.SMI, 0);
        qp1 = ud(QpType.GSI, MadHdr.IB_QP1_QKEY);
    }

    private Host.Qp ud(QpType type, int qkey) {
        Host.Qp q = h.createQp(pd, type, 1, null);
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.pkeyIndex = 0;
        at.portNum = 1;
        at.qkey = qkey;
        q.p().modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
        at.qpState = QpState.RTR;
        q.p().modify(at, QpAttrMask.STATE);
        at.qpState = QpState.RTS;
        at.sqPsn = 0;
        q.p().modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
        return q;
    }

    /** Sends a MAD on QP0/QP1 to {@code dlid} and returns what arrives on the same QP afterwards. */
    List<Wc> exchange(Host.Qp qp, byte[] mad, int dlid, int remoteQpn, int qkey) {
        int s = (slot++ % 100) * 2048;
        buf.put(s, mad);
        int[] outstanding = qp == qp0 ? out0 : out1;
        for (int r = s + 512; r < s + 2048 && outstanding[0] < 3; r += 512) {
            outstanding[0]++;
            RecvWr rw = new RecvWr();
            rw.wrId = r;
            rw.sg(new Sge(0x10000 + r, 512, mr.lkey()));
            qp.p().postRecv(rw, null);
        }
        AhAttr a = new AhAttr();
        a.portNum = 1;
        a.dlid = dlid;
        Host.Ah ah = h.createAh(pd, a);
        SendWr w = new SendWr();
        w.opcode = WrOpcode.SEND;
        w.wrId = s;
        w.sendFlags = SendFlags.SIGNALED;
        w.sg(new Sge(0x10000 + s, mad.length, mr.lkey()));
        w.ah = ah.core();
        w.remoteQpn = remoteQpn;
        w.remoteQkey = qkey;
        int rc = qp.p().postSend(w, null);
        if (rc != 0) {
            throw new AssertionError("postSend " + rc);
        }
        List<Wc> sc = qp.scq().drain();
        if (sc.isEmpty() || sc.get(0).status != WcStatus.SUCCESS) {
            throw new AssertionError("send completion " + sc);
        }
        List<Wc> got = qp.rcq().drain();
        outstanding[0] -= got.size();
        return got;
    }

    private final int[] out0 = new int[1];
    private final int[] out1 = new int[1];

    /** The MAD received by completion {@code wc} (after the 40-byte GRH area). */
    byte[] mad(Wc wc) {
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        buf.get((int) wc.wrId + 40, m);
        return m;
    }

    /** An SMP exchange; returns the response (first completion) or null. */
    Smp smp(Smp req) {
        int dlid = Smp.IB_LID_PERMISSIVE;
        if (req.isDirectedRoute()) {
            DrSmp.Decision d = DrSmp.send(req, false, 1);
            if (d.verdict() == DrSmp.Verdict.DISCARD) {
                throw new AssertionError("SMI refused " + req);
            }
        }
        return first(exchange(qp0, pack(req), dlid, 0, 0));
    }

    /** A LID-routed SMP to {@code dlid}. */
    Smp smp(Smp req, int dlid) {
        return first(exchange(qp0, pack(req), dlid, 0, 0));
    }

    private Smp first(List<Wc> wcs) {
        for (Wc wc : wcs) {
            Smp s = new Smp().unpack(mad(wc), 0);
            if (s.method == MadHdr.IB_MGMT_METHOD_GET_RESP) {
                if (s.isDirectedRoute()) {
                    DrSmp.Decision d = DrSmp.receive(s, false, 1, h.p.info().physPortCnt);
                    if (d.verdict() != DrSmp.Verdict.HANDLE) {
                        throw new AssertionError("returning SMP not for us: " + d);
                    }
                }
                return s;
            }
        }
        return null;
    }

    long nextTid() {
        return ++tid;
    }

    static byte[] pack(Smp s) {
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        s.pack(m, 0);
        return m;
    }
}
