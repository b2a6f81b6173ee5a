package org.rdma.hca.mlx4sim.itest.support;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SigType;

/**
 * What one owner holds on one device: a PD, a CQ polled on the completion vector's softirq
 * thread ({@code ib_alloc_cq(..., IB_POLL_SOFTIRQ)}, so every completion, flushes included,
 * reaches the requests' {@code wr_cqe}), a registered buffer, and the RC QPs made on them.
 */
public final class Side {
    /** IOVA of the registered buffer. */
    public static final long IOVA = 0x1000_0000L;
    /** Size of the registered buffer. */
    public static final int SIZE = 1 << 20;
    static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    public final IbDevice device;
    public final String owner;
    public final IbPd pd;
    public final IbCq cq;
    public final ByteBuffer buffer = ByteBuffer.allocate(SIZE);
    public final IbMr mr;
    private final List<Endpoint> endpoints = new ArrayList<>();

    /** Allocates the PD, CQ and MR on {@code device}, tracked with {@code owner}. */
    public Side(IbDevice device, String owner) {
        this.device = device;
        this.owner = owner;
        this.pd = device.allocPd(0, owner);
        this.cq = device.allocCq(null, 4096, 0, PollContext.SOFTIRQ, owner);
        this.mr = pd.regMr(buffer, IOVA, ACCESS);
    }

    /** A new RC QP on this side's PD with both queues on its CQ. */
    public synchronized Endpoint newQp(String label) {
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.sendCq = cq;
        init.recvCq = cq;
        init.sqSigType = SigType.ALL_WR;
        init.cap.maxSendWr = 128;
        init.cap.maxRecvWr = 128;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        IbQp qp = pd.createQp(init);
        Endpoint e = new Endpoint(label, this, qp);
        endpoints.add(e);
        return e;
    }

    /** The live endpoints. */
    public synchronized List<Endpoint> endpoints() {
        return new ArrayList<>(endpoints);
    }

    /**
     * What a ULP does with a QP it owns before it lets go ({@code ib_drain_qp()} then
     * {@code ib_destroy_qp()}): stop posting, flush and wait for every completion, destroy.
     */
    public void release(Endpoint e) {
        e.close();
        e.qp.drain();
        e.qp.destroy();
        synchronized (this) {
            endpoints.remove(e);
        }
    }

    /** Releases every QP, then the MR, the CQ and the PD (reverse order of creation). */
    public void destroy() {
        for (Endpoint e : endpoints()) {
            release(e);
        }
        mr.dereg();
        cq.free();
        pd.dealloc();
    }
}
