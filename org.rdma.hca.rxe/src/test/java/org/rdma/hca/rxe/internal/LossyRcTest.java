package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.RvtCounter;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * RC over a lossy wire: two rxe devices on {@code lo} whose receive paths each drop 1% of the
 * datagrams (the driver's fault hook, seeded), 10,000 SENDs each carrying its sequence number.
 * Every one arrives exactly once and in order (the responder completed exactly 10,000 receives,
 * each the next number), every send completes successfully, and the losses were repaired by
 * retransmission (counted by the transport).
 */
class LossyRcTest {
    static final int MESSAGES = 10_000;
    static final int WINDOW = 64;
    static final int RECV_SLOTS = 256;
    static final int SLOT = 64;
    static final double LOSS = 0.01;
    static final long IOVA = 0x10_0000L;

    CoreRxe a;
    CoreRxe b;

    @AfterEach
    void tearDown() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    /** One RC end: PD, CQ, buffer and MR, a QP in INIT. */
    record End(IbPd pd, IbCq cq, ByteBuffer buf, IbMr mr, IbQp qp) {
        static End open(CoreRxe c) {
            IbPd pd = c.dev.allocPd(0);
            IbCq cq = c.dev.createCq(null, null, null, CqInitAttr.of(2 * RECV_SLOTS + WINDOW, 0));
            ByteBuffer buf = ByteBuffer.allocateDirect(RECV_SLOTS * SLOT);
            IbMr mr = pd.regMr(buf.duplicate(), IOVA, AccessFlags.LOCAL_WRITE);
            QpInitAttr init = new QpInitAttr();
            init.qpType = QpType.RC;
            init.sendCq = cq;
            init.recvCq = cq;
            init.cap.maxSendWr = WINDOW;
            init.cap.maxRecvWr = RECV_SLOTS;
            init.cap.maxSendSge = 1;
            init.cap.maxRecvSge = 1;
            IbQp qp = pd.createQp(init);
            QpAttr at = new QpAttr();
            at.qpState = QpState.INIT;
            at.portNum = 1;
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
            return new End(pd, cq, buf, mr, qp);
        }

        /** RTR and RTS towards {@code peer} at {@code ip}, with a 16.8 ms ACK timeout ({@code timeout} 12). */
        void connect(CoreRxe self, End peer, String ip) {
            QpAttr at = new QpAttr();
            at.qpState = QpState.RTR;
            at.pathMtu = Mtu.MTU_1024;
            at.destQpNum = peer.qp.qpNum();
            at.rqPsn = 0x100;
            at.maxDestRdAtomic = 1;
            at.minRnrTimer = 1;
            at.ahAttr.portNum = 1;
            at.ahAttr.setGrh(Gid.parse(ip), 0, self.gidIndex(ip), 64, 0, null);
            qp.modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                    | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
            QpAttr rts = new QpAttr();
            rts.qpState = QpState.RTS;
            rts.sqPsn = 0x100;
            rts.timeout = 12;
            rts.retryCnt = 7;
            rts.rnrRetry = 7;
            rts.maxRdAtomic = 1;
            qp.modify(rts, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                    | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC);
        }

        /** Destroys the QP, MR, CQ and PD. */
        void close() {
            qp.destroy();
            mr.dereg();
            cq.destroy();
            pd.dealloc();
        }

        void postRecv(int slot) {
            RecvWr r = new RecvWr();
            r.wrId = slot;
            r.sg(new Sge(IOVA + (long) slot * SLOT, SLOT, mr.lkey()));
            assertEquals(0, qp.postRecv(r, null));
        }

        void send(long seq) {
            int slot = (int) (seq % WINDOW);
            buf.putLong(slot * SLOT, seq);
            SendWr w = new SendWr();
            w.wrId = seq;
            w.opcode = WrOpcode.SEND;
            w.sendFlags = SendFlags.SIGNALED;
            w.sg(new Sge(IOVA + (long) slot * SLOT, 16, mr.lkey()));
            assertEquals(0, qp.postSend(w, null));
        }
    }

    @Test
    void tenThousandSendsArriveExactlyOnceInOrderThroughOnePercentLoss() {
        int pa;
        int pb;
        try {
            pa = TwoProcessTest.freeUdpPort(0);
            pb = TwoProcessTest.freeUdpPort(pa);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        a = new CoreRxe(pa, pb, LOSS, 11);
        b = new CoreRxe(pb, pa, LOSS, 29);
        End sender = End.open(a);
        End receiver = End.open(b);
        for (int s = 0; s < RECV_SLOTS; s++) {
            receiver.postRecv(s);
        }
        sender.connect(a, receiver, "127.0.0.1");
        receiver.connect(b, sender, "127.0.0.1");

        Wc[] wc = Wc.array(32);
        long next = 0;
        long sent = 0;
        long expected = 0;
        long last = System.nanoTime();
        while (sent < MESSAGES || expected < MESSAGES) {
            while (next < MESSAGES && next - sent < WINDOW) {
                sender.send(next++);
            }
            boolean progress = false;
            int n = sender.cq.pollCq(wc.length, wc);
            for (int i = 0; i < n; i++) {
                assertEquals(WcStatus.SUCCESS, wc[i].status, "send " + wc[i].wrId + " completed with " + wc[i].status);
                assertEquals(sent, wc[i].wrId, "sends complete in order");
                sent++;
                progress = true;
            }
            n = receiver.cq.pollCq(wc.length, wc);
            for (int i = 0; i < n; i++) {
                assertEquals(WcStatus.SUCCESS, wc[i].status, wc[i].toString());
                int slot = (int) wc[i].wrId;
                long seq = receiver.buf.getLong(slot * SLOT);
                assertEquals(expected, seq, "message " + expected + " arrives next, exactly once");
                assertEquals(16, wc[i].byteLen);
                expected++;
                receiver.postRecv(slot);
                progress = true;
            }
            if (progress) {
                last = System.nanoTime();
            } else if (System.nanoTime() - last > TimeUnit.SECONDS.toNanos(10)) {
                throw new AssertionError("no progress for 10 s: " + sent + " sends and " + expected
                        + " receives completed; drops " + a.rxe.rxFaultDrops() + "/" + b.rxe.rxFaultDrops());
            } else {
                Thread.onSpinWait();
            }
        }
        assertEquals(MESSAGES, expected);
        assertEquals(MESSAGES, b.rxe.provider().counter(RvtCounter.RDMA_RECVS), "no receive completed twice");
        long dropsAtB = b.rxe.rxFaultDrops();
        long dropsAtA = a.rxe.rxFaultDrops();
        long seenAtB = b.rxe.rxPackets() + dropsAtB;
        long retransmitted = a.rxe.provider().counter(RvtCounter.RETRANSMITTED_PKTS);
        System.out.printf("lossy RC: %d sends; requests dropped %d of %d (%.2f%%), responses dropped %d; "
                + "%d packets retransmitted, %d duplicates answered, %d sequence NAKs, %d ACK timeouts%n", MESSAGES,
                dropsAtB, seenAtB, 100.0 * dropsAtB / seenAtB, dropsAtA, retransmitted,
                b.rxe.provider().counter(RvtCounter.DUPLICATE_REQUEST),
                a.rxe.provider().counter(RvtCounter.RCV_SEQ_ERR), a.rxe.provider().counter(RvtCounter.ACK_TIMEOUT));
        assertTrue(dropsAtB > 0.005 * seenAtB && dropsAtB < 0.02 * seenAtB, "about 1% of requests dropped: " + dropsAtB);
        assertTrue(dropsAtA > 0, "responses were dropped too");
        assertTrue(retransmitted >= dropsAtB, "every lost request was sent again: " + retransmitted);
        assertEquals(0, a.rxe.rxCrcErrors() + b.rxe.rxCrcErrors());
        sender.close();
        receiver.close();
        assertEquals(java.util.Map.of(), a.leftovers());
        assertEquals(java.util.Map.of(), b.leftovers());
    }

    @Test
    void dropProbabilityOutsideZeroToOneIsEinval() {
        RdmaException e = assertThrows(RdmaException.class, () -> new CoreRxe(TwoProcessTest.freeUdpPort(0), 0, 1.5, 1));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("EINVAL: drop probability 1.5 is not in [0, 1]", e.getMessage());
    }
}
