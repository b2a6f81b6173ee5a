package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;

/** The verbs resources of one test connection: a PD, a CQ polled directly, the id's QP from {@code rdma_create_qp()}, an 8 KiB buffer. */
final class Res {
    final RdmaCmService cm;
    final RdmaCmId id;
    final IbDevice dev;
    final IbPd pd;
    final IbCq cq;
    final IbQp qp;
    final ByteBuffer buf = ByteBuffer.allocate(8192);
    final long dma;
    final List<Wc> sent = new ArrayList<>();
    final List<Wc> received = new ArrayList<>();
    private boolean closed;

    Res(RdmaCmService cm, RdmaCmId id) {
        this.cm = cm;
        this.id = id;
        dev = id.device();
        pd = dev.allocPd(0);
        cq = dev.allocCq(null, 64, 0, PollContext.DIRECT);
        QpInitAttr init = new QpInitAttr();
        init.qpType = id.qpType();
        init.sendCq = cq;
        init.recvCq = cq;
        init.cap.maxSendWr = 16;
        init.cap.maxRecvWr = 16;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        qp = cm.createQp(id, pd, init);
        dma = dev.dmaMapSingle(buf);
    }

    void postRecv(int off, int len) {
        RecvWr r = new RecvWr();
        r.wrCqe = (c, w) -> received.add(copy(w));
        r.sg(new Sge(dma + off, len, pd.localDmaLkey()));
        assertEquals(0, qp.postRecv(r, null));
    }

    void postSend(int off, int len, SendWr w) {
        w.wrCqe = (c, wc) -> sent.add(copy(wc));
        w.sendFlags |= SendFlags.SIGNALED;
        w.sg(new Sge(dma + off, len, pd.localDmaLkey()));
        assertEquals(0, qp.postSend(w, null));
    }

    void poll() {
        cq.processCqDirect(-1);
    }

    private static Wc copy(Wc w) {
        Wc c = new Wc();
        c.copyFrom(w);
        return c;
    }

    /** {@code rdma_destroy_qp()} (unless the CM took the QP already), then the CQ, mapping and PD. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (id.qp() != null) {
            cm.destroyQp(id);
        }
        cq.free();
        dev.dmaUnmapSingle(dma);
        pd.dealloc();
    }
}
