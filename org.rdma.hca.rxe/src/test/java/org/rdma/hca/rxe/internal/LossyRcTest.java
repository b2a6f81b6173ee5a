package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.testkit.Scale;
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
 * RC over a lossy wire: two rxe devices on {@code lo} whose receive paths each drop
 * {@value #LOSS_PERCENT}% of the datagrams (the driver's fault hook, seeded), numbered SENDs of
 * one to four packets, each carrying its number and a payload made from it. Every one arrives
 * exactly once and in order with its data (the responder completed exactly as many receives as
 * were sent, each the next number), every send completes successfully, and the losses were
 * repaired by retransmission (counted by the transport). CI sends {@value #MESSAGES_CI};
 * {@code -Drdma.scale=full} ({@code .ci/exactly-once}) the documented {@value #MESSAGES_FULL}.
 */
class LossyRcTest {
    static final int MESSAGES_CI = 10_000;
    static final int MESSAGES_FULL = 100_000;
    static final int WINDOW = 64;
    static final int RECV_SLOTS = 256;
    /** Largest message: four packets at the path MTU of 1024. */
    static final int SLOT = 4096;
    static final int LOSS_PERCENT = 10;
    static final double LOSS = LOSS_PERCENT / 100.0;
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
            int len = length(seq);
            buf.putLong(slot * SLOT, seq);
            for (int i = 8; i < len; i++) {
                buf.put(slot * SLOT + i, payload(seq, i));
            }
            SendWr w = new SendWr();
            w.wrId = seq;
            w.opcode = WrOpcode.SEND;
            w.sendFlags = SendFlags.SIGNALED;
            w.sg(new Sge(IOVA + (long) slot * SLOT, len, mr.lkey()));
            assertEquals(0, qp.postSend(w, null));
        }
    }

    /** Most messages fit one packet; every eighth takes two to four. */
    static int length(long seq) {
        int h = (int) ((seq * 0x9E3779B97F4A7C15L) >>> 44);
        return seq % 8 == 7 ? 1025 + h % (SLOT - 1024) : 16 + h % 241;
    }

    /**
     * Byte {@code i} of message {@code seq}: a hash of both, so that a packet of another message
     * in the same slot (one a multiple of 256 receives earlier, say) shows.
     */
    static byte payload(long seq, int i) {
        return (byte) (((seq + 1) * 0x9E3779B97F4A7C15L + i * 0xC2B2AE3D27D4EB4FL) >>> 56);
    }

    /** Fails unless receive slot {@code slot} holds message {@code seq}, {@code len} bytes long. */
    static void assertMessage(End receiver, int slot, long seq, int len) {
        assertEquals(seq, receiver.buf.getLong(slot * SLOT), "message " + seq + " arrives next, exactly once");
        assertEquals(length(seq), len, "message " + seq + ": length");
        for (int i = 8; i < len; i++) {
            if (receiver.buf.get(slot * SLOT + i) != payload(seq, i)) {
                fail("message " + seq + ": byte " + i + " of " + len + " differs");
            }
        }
    }

    @Test
    void sendsArriveExactlyOnceInOrderWithTheirDataThroughTenPercentLoss() {
        final int messages = Scale.of(MESSAGES_CI, MESSAGES_FULL);
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
        long start = System.nanoTime();
        long last = start;
        while (sent < messages || expected < messages) {
            while (next < messages && next - sent < WINDOW) {
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
                assertMessage(receiver, slot, expected, wc[i].byteLen);
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
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(messages, expected);
        assertEquals(0, sender.cq.pollCq(wc.length, wc) + receiver.cq.pollCq(wc.length, wc),
                "no completion after the last one");
        assertEquals(messages, b.rxe.provider().counter(RvtCounter.RDMA_RECVS), "no receive completed twice");
        long dropsAtB = b.rxe.rxFaultDrops();
        long dropsAtA = a.rxe.rxFaultDrops();
        long seenAtB = b.rxe.rxPackets() + dropsAtB;
        long seenAtA = a.rxe.rxPackets() + dropsAtA;
        long retransmitted = a.rxe.provider().counter(RvtCounter.RETRANSMITTED_PKTS);
        System.out.printf("lossy RC: %d sends; requests dropped %d of %d (%.2f%%), responses dropped %d of %d "
                + "(%.2f%%); %d packets retransmitted, %d duplicates answered, %d sequence NAKs, %d ACK timeouts; "
                + "wall %d ms%n", messages, dropsAtB, seenAtB, 100.0 * dropsAtB / seenAtB, dropsAtA, seenAtA,
                100.0 * dropsAtA / seenAtA, retransmitted, b.rxe.provider().counter(RvtCounter.DUPLICATE_REQUEST),
                a.rxe.provider().counter(RvtCounter.RCV_SEQ_ERR), a.rxe.provider().counter(RvtCounter.ACK_TIMEOUT),
                wallMillis);
        assertLossRate(dropsAtB, seenAtB, "requests");
        assertLossRate(dropsAtA, seenAtA, "responses");
        assertTrue(retransmitted >= dropsAtB, "every lost request was sent again: " + retransmitted);
        assertEquals(0, a.rxe.rxCrcErrors() + b.rxe.rxCrcErrors());
        sender.close();
        receiver.close();
        assertEquals(java.util.Map.of(), a.leftovers());
        assertEquals(java.util.Map.of(), b.leftovers());
    }

    private static void assertLossRate(long dropped, long seen, String what) {
        assertTrue(dropped > 0.8 * LOSS * seen && dropped < 1.2 * LOSS * seen, what + " dropped: " + dropped + " of "
                + seen + ", not about " + LOSS_PERCENT + "%");
    }

    @Test
    void dropProbabilityOutsideZeroToOneIsEinval() {
        RdmaException e = assertThrows(RdmaException.class, () -> new CoreRxe(TwoProcessTest.freeUdpPort(0), 0, 1.5, 1));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("EINVAL: drop probability 1.5 is not in [0, 1]", e.getMessage());
    }
}
