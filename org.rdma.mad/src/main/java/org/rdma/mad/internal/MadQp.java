package org.rdma.mad.internal;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvWc;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SigType;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.wire.MadHdr;

/**
 * One special QP of a port with its queues: {@code struct ib_mad_qp_info}. Receive buffers (GRH
 * area plus one MAD each) live in one DMA-mapped region and are reposted as soon as their MAD is
 * copied out ({@code ib_mad_post_receive_mads()}). Sends go through a second region of one MAD
 * per send queue slot, mapped once: a posted MAD is copied into a free slot, whose work request
 * is built once, instead of mapping and unmapping every MAD ({@code ib_dma_map_single()} per
 * {@code mad_send_wr}); sends beyond the send queue's depth wait on an overflow list
 * ({@code mad_queue.overflow_list}) until a completion frees a slot.
 *
 * <p>Locking: {@link #sendLock} guards the send counters, the free slots and the overflow list
 * only; verbs are called without it.
 */
final class MadQp {
    private static final System.Logger LOG = System.getLogger(MadQp.class.getName());
    /** GRH area in front of every received MAD. */
    static final int GRH_LEN = 40;
    static final int RECV_BUF = GRH_LEN + MadLayer.MAD_SIZE;

    final MadPort port;
    final QpType type;
    final int index;
    final IbQp qp;
    private final IbPd pd;
    private final int sendDepth;
    private final int recvDepth;
    private final ByteBuffer recvRegion;
    private final long recvDma;
    private final RecvSlot[] slots;
    private final ByteBuffer sendRegion;
    private final long sendDma;
    private final SendSlot[] sendSlots;
    private final Object sendLock = new Object();
    private int sendActive;
    /** Indexes of the free send slots, a stack of {@link #freeCount}. */
    private final int[] freeSlots;
    private int freeCount;
    private final ArrayDeque<Seg> overflow = new ArrayDeque<>();
    private volatile boolean closing;

    /**
     * A send: one MAD on the wire. Its bytes are copied into a send slot when it is posted, so
     * the array may be the sender's own buffer (which the sender leaves alone until completion).
     */
    abstract static class Seg {
        final byte[] bytes;
        final IbAh ah;
        final int remoteQpn;
        final int remoteQkey;
        final int pkeyIndex;

        Seg(byte[] bytes, IbAh ah, int remoteQpn, int remoteQkey, int pkeyIndex) {
            this.bytes = bytes;
            this.ah = ah;
            this.remoteQpn = remoteQpn;
            this.remoteQkey = remoteQkey;
            this.pkeyIndex = pkeyIndex;
        }

        /** The send completed with {@code status} ({@code ib_mad_send_done()}). */
        abstract void completed(WcStatus status);
    }

    /** One send queue slot: its MAD in the send region and its work request, completed through {@code wr_cqe}. */
    private final class SendSlot implements IbCqe {
        final int slot;
        final SendWr wr = new SendWr();
        Seg seg;

        SendSlot(int slot) {
            this.slot = slot;
            wr.opcode = WrOpcode.SEND;
            wr.wrCqe = this;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.sg(new Sge(sendDma + (long) slot * MadLayer.MAD_SIZE, MadLayer.MAD_SIZE, pd.localDmaLkey()));
            wr.portNum = port.portNum;
        }

        @Override
        public void done(IbCq cq, Wc wc) {
            sendDone(this, wc.status);
        }
    }

    private final class RecvSlot implements IbCqe {
        final int slot;
        final RecvWr wr = new RecvWr();

        RecvSlot(int slot) {
            this.slot = slot;
            wr.wrCqe = this;
            wr.sg(new Sge(recvDma + (long) slot * RECV_BUF, RECV_BUF, pd.localDmaLkey()));
        }

        @Override
        public void done(IbCq cq, Wc wc) {
            recvDone(this, wc);
        }
    }

    MadQp(MadPort port, QpType type, IbPd pd, IbCq cq, int sendDepth, int recvDepth) {
        this.port = port;
        this.type = type;
        this.index = type == QpType.SMI ? 0 : 1;
        this.pd = pd;
        this.sendDepth = sendDepth;
        this.recvDepth = recvDepth;
        QpInitAttr init = new QpInitAttr();
        init.qpType = type;
        init.sendCq = cq;
        init.recvCq = cq;
        init.sqSigType = SigType.ALL_WR;
        init.cap.maxSendWr = sendDepth;
        init.cap.maxRecvWr = recvDepth;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        init.portNum = port.portNum;
        init.qpContext = this;
        this.qp = pd.createQp(init);
        this.recvRegion = ByteBuffer.allocateDirect(recvDepth * RECV_BUF);
        this.recvDma = port.device.dmaMapSingle(recvRegion.duplicate());
        this.slots = new RecvSlot[recvDepth];
        for (int i = 0; i < recvDepth; i++) {
            slots[i] = new RecvSlot(i);
        }
        this.sendRegion = ByteBuffer.allocateDirect(sendDepth * MadLayer.MAD_SIZE);
        this.sendDma = port.device.dmaMapSingle(sendRegion.duplicate());
        this.sendSlots = new SendSlot[sendDepth];
        this.freeSlots = new int[sendDepth];
        for (int i = 0; i < sendDepth; i++) {
            sendSlots[i] = new SendSlot(i);
            freeSlots[i] = sendDepth - 1 - i;
        }
        this.freeCount = sendDepth;
    }

    /** {@code ib_mad_change_qp_state_to_rts()} then the initial receive posting. */
    void start() {
        QpAttr a = new QpAttr();
        a.qpState = QpState.INIT;
        a.pkeyIndex = 0;
        a.qkey = index == 0 ? 0 : MadHdr.IB_QP1_QKEY;
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.QKEY);
        a.qpState = QpState.RTR;
        qp.modify(a, QpAttrMask.STATE);
        a.qpState = QpState.RTS;
        a.sqPsn = 0;
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
        for (RecvSlot s : slots) {
            int rc = qp.postRecv(s.wr, null);
            if (rc != 0) {
                LOG.log(Level.WARNING, "{0}: posting MAD receive buffer failed: {1}", port, rc);
                break;
            }
        }
    }

    /** {@code ib_mad_port_close()} for this QP: drain (flushing every buffer), destroy, unmap. */
    void close() {
        closing = true;
        // destroy_mad_qp(): moving to ERR flushes every posted buffer, destroying completes it
        try {
            QpAttr a = new QpAttr();
            a.qpState = QpState.ERR;
            qp.modify(a, QpAttrMask.STATE);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "{0}: moving QP{1} to ERR failed: {2}", port, index, e.getMessage());
        }
        qp.destroy();
        port.device.dmaUnmapSingle(recvDma);
        port.device.dmaUnmapSingle(sendDma);
        ArrayDeque<Seg> left;
        synchronized (sendLock) {
            left = new ArrayDeque<>(overflow);
            overflow.clear();
        }
        for (Seg s : left) {
            s.completed(WcStatus.WR_FLUSH_ERR);
        }
    }

    // ------------------------------------------------------------------ receive

    private void recvDone(RecvSlot s, Wc wc) {
        if (wc.status != WcStatus.SUCCESS) {
            if (!closing) {
                port.count(MadCounter.RECV_ERRORS);
                repost(s);
            }
            return;
        }
        if (wc.byteLen < RECV_BUF) {
            port.count(MadCounter.BAD_LENGTH);
            repost(s);
            return;
        }
        int base = s.slot * RECV_BUF;
        byte[] mad = new byte[MadLayer.MAD_SIZE];
        recvRegion.get(base + GRH_LEN, mad, 0, MadLayer.MAD_SIZE);
        byte[] grh = null;
        if ((wc.wcFlags & WcFlags.GRH) != 0) {
            grh = new byte[GRH_LEN];
            recvRegion.get(base, grh, 0, GRH_LEN);
        }
        MadRecvWc recv = new MadRecvWc(wc, grh, mad, MadLayer.MAD_SIZE);
        // Repost first: the buffer is free again once its bytes (and the completion) are copied out.
        repost(s);
        try {
            port.recv(this, recv);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, port + ": MAD receive processing failed", e);
        }
    }

    private void repost(RecvSlot s) {
        if (closing) {
            return;
        }
        int rc = qp.postRecv(s.wr, null);
        if (rc != 0 && !closing) {
            LOG.log(Level.DEBUG, "{0}: reposting receive buffer failed: {1}", port, rc);
        }
    }

    // ------------------------------------------------------------------ send

    /** Posts {@code seg}, or queues it while the send queue is full. */
    void post(Seg seg) {
        if (closing) {
            seg.completed(WcStatus.WR_FLUSH_ERR);
            return;
        }
        SendSlot slot;
        synchronized (sendLock) {
            if (sendActive >= sendDepth) {
                overflow.add(seg);
                return;
            }
            sendActive++;
            slot = sendSlots[freeSlots[--freeCount]];
        }
        postNow(seg, slot);
    }

    private void postNow(Seg seg, SendSlot slot) {
        slot.seg = seg;
        sendRegion.put(slot.slot * MadLayer.MAD_SIZE, seg.bytes, 0, MadLayer.MAD_SIZE);
        SendWr wr = slot.wr;
        wr.ah = seg.ah;
        wr.remoteQpn = seg.remoteQpn;
        wr.remoteQkey = seg.remoteQkey;
        wr.pkeyIndex = seg.pkeyIndex;
        port.count(MadCounter.SENT);
        int rc;
        try {
            rc = qp.postSend(wr, null);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "{0}: post_send failed: {1}", port, e.getMessage());
            rc = -org.rdma.verbs.Errno.EINVAL.value;
        }
        if (rc != 0) {
            sendDone(slot, WcStatus.LOC_QP_OP_ERR);
        }
    }

    /** A slot's send completed: the next waiting MAD takes the slot, then the sender hears of it. */
    private void sendDone(SendSlot slot, WcStatus status) {
        Seg seg = slot.seg;
        slot.seg = null;
        Seg next;
        synchronized (sendLock) {
            next = overflow.poll();
            if (next == null) {
                sendActive--;
                freeSlots[freeCount++] = slot.slot;
            }
        }
        if (seg != null) {
            try {
                seg.completed(status);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, port + ": MAD send completion failed", e);
            }
        }
        if (next != null) {
            postNow(next, slot);
        }
    }
}
