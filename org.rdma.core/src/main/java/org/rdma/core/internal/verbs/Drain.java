package org.rdma.core.internal.verbs;

import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WrOpcode;

/**
 * The generic drain technique of {@code __ib_drain_sq()}/{@code __ib_drain_rq()}: move the QP
 * to ERR, post a marker request whose {@code wr_cqe} counts down a latch, and wait for its flush
 * completion. Work completes in order, so every request posted before the marker has completed.
 */
final class Drain {
    private static final System.Logger LOG = System.getLogger(Drain.class.getName());

    private Drain() {
    }

    /** {@code struct ib_drain_cqe}. */
    private static final class DrainCqe implements IbCqe {
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void done(IbCq cq, Wc wc) {
            done.countDown();
        }
    }

    static void sq(CoreQp qp, CoreCq cq) {
        DrainCqe marker = new DrainCqe();
        if (!toError(qp, cq, "send")) {
            return;
        }
        SendWr wr = new SendWr();
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.wrCqe = marker;
        int ret = qp.postSend(wr, null);
        if (ret != 0) {
            LOG.log(Level.WARNING, "{0}: failed to post the send drain marker: {1}", qp, ret);
            return;
        }
        await(qp, cq, marker);
    }

    static void rq(CoreQp qp, CoreCq cq) {
        DrainCqe marker = new DrainCqe();
        if (!toError(qp, cq, "receive")) {
            return;
        }
        RecvWr wr = new RecvWr();
        wr.wrCqe = marker;
        int ret = qp.postRecv(wr, null);
        if (ret != 0) {
            LOG.log(Level.WARNING, "{0}: failed to post the receive drain marker: {1}", qp, ret);
            return;
        }
        await(qp, cq, marker);
    }

    private static boolean toError(CoreQp qp, CoreCq cq, String queue) {
        RdmaException.check(cq != null && cq.pollContext() != null, Errno.EINVAL,
                qp + ": draining the " + queue + " queue needs a CQ from ib_alloc_cq");
        if (qp.state() == QpState.RESET) {
            return false;
        }
        if (qp.state() != QpState.ERR) {
            QpAttr a = new QpAttr();
            a.qpState = QpState.ERR;
            qp.modify(a, QpAttrMask.STATE);
        }
        return true;
    }

    private static void await(CoreQp qp, CoreCq cq, DrainCqe marker) {
        boolean interrupted = false;
        try {
            while (true) {
                if (cq.pollContext() == PollContext.DIRECT) {
                    cq.processCqDirect(-1);
                }
                try {
                    if (marker.done.await(cq.pollContext() == PollContext.DIRECT ? 100 : 10_000, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (cq.isDestroyed() || qp.isDestroyed()) {
                    LOG.log(Level.WARNING, "{0}: drain abandoned, its CQ or QP was destroyed", qp);
                    return;
                }
                if (cq.pollContext() != PollContext.DIRECT) {
                    LOG.log(Level.WARNING, "{0}: still waiting for the drain marker to complete", qp);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
