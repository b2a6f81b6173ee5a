package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.harness.Wire;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.QpState;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** Go-back-N, RNR and timeouts in virtual time over a lossy wire. */
class ReliabilityTest {
    static final int ACC = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE
            | AccessFlags.REMOTE_ATOMIC;
    static final long IOVA_A = 0x1_0000_0000L;
    static final long IOVA_B = 0x2_0000_0000L;
    static final int SRC = 0;             // A: fixed pattern, never written
    static final int READ_DST = 1 << 20;  // A: read targets, 128 slots of 4 KiB
    static final int ATOMIC_DST = 2 << 20; // A: atomic results
    static final int RECV = 0;            // B: receive slots
    static final int WRITE_DST = 1 << 20; // B: write targets, 128 slots of 4 KiB
    static final int READ_SRC = 2 << 20;  // B: fixed pattern to read
    static final int COUNTERS = 3 << 20;  // B: fetch-add and compare-swap words
    static final int SLOTS = 128;
    static final int WINDOW = 48;

    Rig rig;
    Rig.Pair pair;
    ByteBuffer a;
    ByteBuffer b;
    FakeMr mrA;
    FakeMr mrB;

    void setUp(Rig.Opts o, Wire.Mode mode) {
        rig = new Rig();
        rig.wire.mode(mode);
        Node na = rig.node(1);
        Node nb = rig.node(2);
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        pair = rig.connect(na, nb, o);
        a = Rig.pattern(ByteBuffer.allocate(4 << 20), 3);
        b = Rig.pattern(ByteBuffer.allocate(4 << 20), 4);
        mrA = na.regMr(o.pdA, a, IOVA_A, ACC);
        mrB = nb.regMr(o.pdB, b, IOVA_B, ACC);
        ByteBuffer nb8 = b.duplicate().order(ByteOrder.nativeOrder());
        nb8.putLong(COUNTERS, 0);
        nb8.putLong(COUNTERS + 8, 0);
    }

    /** What was posted, to check its completion. */
    static final class Op {
        long id;
        WrOpcode op;
        int src;
        int len;
        int slot;
        long expect;
    }

    @Test
    void hundredThousandMixedOperationsOverALossyWire() {
        mixedOperationsOverALossyWire(org.rdma.verbs.Mtu.MTU_1024, 1);
    }

    /**
     * The same with the requester sending MIDDLE packets in trains, which the wire drops,
     * duplicates and reorders whole: the responder then meets trains that start out of sequence
     * or repeat packets it has, and must treat each of their packets as it would on its own. A
     * small MTU and lengths that are often whole MTUs make long trains and trains that end their
     * message.
     */
    @Test
    void hundredThousandMixedOperationsInTrainsOverALossyWire() {
        mixedOperationsOverALossyWire(org.rdma.verbs.Mtu.MTU_256, 64);
        assertTrue(rig.wire.trains > 1000 && rig.wire.endingTrains > 100 && rig.wire.startingTrains > 100,
                "trains " + rig.wire.trains + ", ending their message " + rig.wire.endingTrains + ", starting it "
                        + rig.wire.startingTrains);
    }

    private void mixedOperationsOverALossyWire(org.rdma.verbs.Mtu mtu, int maxSegments) {
        Rig.Opts o = new Rig.Opts();
        o.depth = 256;
        o.timeout = 8;
        o.mtu = mtu;
        o.maxSegments = maxSegments;
        setUp(o, Wire.Mode.QUEUED);
        rig.wire.faults(42, 0.05, 0.05, 0.05);
        Random rnd = new Random(7);
        ByteBuffer a8 = a.duplicate().order(ByteOrder.nativeOrder());
        final int total = 100_000;
        ArrayDeque<Op> outstanding = new ArrayDeque<>();
        ArrayDeque<Op> sends = new ArrayDeque<>();
        long nextId = 0;
        long faa = 0;
        long cas = 0;
        int completed = 0;
        int received = 0;
        long recvId = 0;
        for (int i = 0; i < 200; i++) {
            postRecv(recvId++);
        }
        SendWr w = new SendWr();
        Sge sge = new Sge();
        w.sg(sge);
        Wc[] wcs = Wc.array(64);
        long startNs = System.nanoTime();
        while (completed < total) {
            while (outstanding.size() < WINDOW && nextId < total) {
                Op op = new Op();
                op.id = nextId++;
                int kind = rnd.nextInt(100);
                op.slot = (int) (op.id % SLOTS);
                op.len = rnd.nextInt(4) == 0 ? rnd.nextInt(4097) : rnd.nextInt(200);
                if (maxSegments > 1 && rnd.nextInt(4) == 0) {
                    op.len = rnd.nextInt(4097 / mtu.bytes) * mtu.bytes;
                }
                op.src = rnd.nextInt(1 << 19);
                w.wrId = op.id;
                w.sendFlags = org.rdma.verbs.SendFlags.SIGNALED;
                w.rkey = mrB.rkey();
                if (kind < 35) {
                    op.op = WrOpcode.SEND;
                    sge.set(IOVA_A + SRC + op.src, op.len, mrA.lkey());
                    sends.add(op);
                } else if (kind < 65) {
                    op.op = WrOpcode.RDMA_WRITE;
                    sge.set(IOVA_A + SRC + op.src, op.len, mrA.lkey());
                    w.remoteAddr = IOVA_B + WRITE_DST + op.slot * 4096L;
                } else if (kind < 85) {
                    op.op = WrOpcode.RDMA_READ;
                    sge.set(IOVA_A + READ_DST + op.slot * 4096L, op.len, mrA.lkey());
                    w.remoteAddr = IOVA_B + READ_SRC + op.src;
                } else if (kind < 93) {
                    op.op = WrOpcode.ATOMIC_FETCH_AND_ADD;
                    sge.set(IOVA_A + ATOMIC_DST + op.slot * 8L, 8, mrA.lkey());
                    w.remoteAddr = IOVA_B + COUNTERS;
                    w.compareAdd = 1;
                    op.expect = faa++;
                } else {
                    op.op = WrOpcode.ATOMIC_CMP_AND_SWP;
                    sge.set(IOVA_A + ATOMIC_DST + op.slot * 8L, 8, mrA.lkey());
                    w.remoteAddr = IOVA_B + COUNTERS + 8;
                    w.compareAdd = cas;
                    w.swap = cas + 1;
                    op.expect = cas++;
                }
                w.opcode = op.op;
                assertEquals(0, pair.a.p.postSend(w, null));
                outstanding.add(op);
            }
            if (rig.wire.run() == 0) {
                long next = rig.clock.nextDeadline();
                if (next >= 0) {
                    rig.clock.advanceTo(next);
                }
            }
            int n;
            while ((n = pair.a.scq.p.pollCq(64, wcs)) > 0) {
                for (int i = 0; i < n; i++) {
                    Wc c = wcs[i];
                    Op op = outstanding.poll();
                    assertEquals(WcStatus.SUCCESS, c.status, () -> "op " + op.id + " " + op.op);
                    assertEquals(op.id, c.wrId, "completions in order");
                    check(op, a8);
                    completed++;
                }
            }
            while ((n = pair.b.rcq.p.pollCq(64, wcs)) > 0) {
                for (int i = 0; i < n; i++) {
                    Wc c = wcs[i];
                    assertEquals(WcStatus.SUCCESS, c.status);
                    Op op = sends.poll();
                    assertEquals(op.len, c.byteLen, "receive " + c.wrId + " of send " + op.id);
                    int slot = (int) (c.wrId % 256);
                    RcOpsTest.assertRange(a, SRC + op.src, b, RECV + slot * 4096, op.len);
                    received++;
                    postRecv(recvId++);
                }
            }
        }
        rig.settle();
        assertEquals(0, Rig.drain(pair.b.rcq).size() + sends.size() - sends.size());
        assertTrue(sends.isEmpty(), "every send received exactly once");
        assertEquals(faa, b.duplicate().order(ByteOrder.nativeOrder()).getLong(COUNTERS), "fetch-add executed exactly once each");
        assertEquals(cas, b.duplicate().order(ByteOrder.nativeOrder()).getLong(COUNTERS + 8));
        long retx = pair.na.dev.counter(RvtCounter.RETRANSMITTED_PKTS);
        long dups = pair.nb.dev.counter(RvtCounter.DUPLICATE_REQUEST);
        assertTrue(retx > 0 && dups > 0, "retransmissions happened");
        System.out.printf("reliability: %d ops, %d receives, wire sent=%d dropped=%d dup=%d reordered=%d, "
                + "retransmitted=%d retries=%d timeouts=%d seqNaks=%d dupReq=%d, virtual %.3f s, wall %d ms%n",
                completed, received, rig.wire.sent, rig.wire.dropped, rig.wire.duplicated, rig.wire.reordered, retx,
                pair.na.dev.counter(RvtCounter.COMP_RETRY), pair.na.dev.counter(RvtCounter.ACK_TIMEOUT),
                pair.na.dev.counter(RvtCounter.RCV_SEQ_ERR), dups, rig.clock.nanoTime() / 1e9,
                (System.nanoTime() - startNs) / 1_000_000);
    }

    private void postRecv(long id) {
        int slot = (int) (id % 256);
        assertEquals(0, pair.b.p.postRecv(Rig.recv(id, new Sge(IOVA_B + RECV + slot * 4096L, 4096, mrB.lkey())), null));
    }

    private void check(Op op, ByteBuffer a8) {
        switch (op.op) {
            case RDMA_WRITE:
                RcOpsTest.assertRange(a, SRC + op.src, b, WRITE_DST + op.slot * 4096, op.len);
                break;
            case RDMA_READ:
                RcOpsTest.assertRange(b, READ_SRC + op.src, a, READ_DST + op.slot * 4096, op.len);
                break;
            case ATOMIC_FETCH_AND_ADD:
            case ATOMIC_CMP_AND_SWP:
                assertEquals(op.expect, a8.getLong(ATOMIC_DST + op.slot * 8), op.op + " " + op.id);
                break;
            default:
                break;
        }
    }

    @Test
    void retryExhaustionGivesRetryExcErr() {
        Rig.Opts o = new Rig.Opts();
        o.retry = 3;
        o.timeout = 10;
        setUp(o, Wire.Mode.QUEUED);
        rig.wire.filter = p -> true;
        SendWr w = Rig.send(WrOpcode.RDMA_WRITE, 1, new Sge(IOVA_A, 100, mrA.lkey()));
        w.remoteAddr = IOVA_B + WRITE_DST;
        w.rkey = mrB.rkey();
        pair.a.p.postSend(w, null);
        SendWr w2 = Rig.send(WrOpcode.SEND, 2, new Sge(IOVA_A, 10, mrA.lkey()));
        pair.a.p.postSend(w2, null);
        long spent = rig.settle();
        List<Wc> l = Rig.drain(pair.a.scq);
        assertEquals(2, l.size());
        assertEquals(WcStatus.RETRY_EXC_ERR, l.get(0).status);
        assertEquals(1, l.get(0).wrId);
        assertEquals(WcStatus.WR_FLUSH_ERR, l.get(1).status);
        assertEquals(QpState.ERR, pair.a.p.state());
        assertEquals(1, pair.na.dev.counter(RvtCounter.RETRY_EXCEEDED));
        // 1 + retry_cnt transmissions, each followed by a 4.096 us * 2^10 timeout
        assertEquals(4, rig.wire.sent);
        assertTrue(spent >= 4 * (4096L << 10), "virtual time " + spent);
    }

    @Test
    void infiniteRnrRetryRecoversOnceReceivesArePosted() {
        Rig.Opts o = new Rig.Opts();
        o.rnrRetry = 7;
        o.minRnr = 14; // 1.28 ms
        setUp(o, Wire.Mode.QUEUED);
        pair.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(IOVA_A, 300, mrA.lkey())), null);
        rig.wire.run();
        for (int i = 0; i < 50; i++) {
            rig.clock.advance(2, TimeUnit.MILLISECONDS);
            rig.wire.run();
        }
        assertEquals(0, Rig.drain(pair.a.scq).size());
        long rnrs = pair.na.dev.counter(RvtCounter.RCV_RNR_ERR);
        assertTrue(rnrs >= 40, "RNR NAKs " + rnrs);
        postRecv(0);
        rig.settle();
        List<Wc> l = Rig.drain(pair.a.scq);
        assertEquals(1, l.size());
        assertEquals(WcStatus.SUCCESS, l.get(0).status);
        Wc r = Rig.drain(pair.b.rcq).get(0);
        assertEquals(300, r.byteLen);
        RcOpsTest.assertRange(a, 0, b, 0, 300);
    }

    @Test
    void finiteRnrRetryGivesRnrRetryExcErr() {
        Rig.Opts o = new Rig.Opts();
        o.rnrRetry = 2;
        setUp(o, Wire.Mode.SYNC);
        pair.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(IOVA_A, 30, mrA.lkey())), null);
        rig.settle();
        List<Wc> l = Rig.drain(pair.a.scq);
        assertEquals(1, l.size());
        assertEquals(WcStatus.RNR_RETRY_EXC_ERR, l.get(0).status);
        assertEquals(3, pair.na.dev.counter(RvtCounter.RCV_RNR_ERR));
        assertEquals(QpState.ERR, pair.a.p.state());
    }

    @Test
    void refusedTransmitIsRetriedLater() {
        setUp(new Rig.Opts(), Wire.Mode.SYNC);
        postRecv(0);
        pair.na.driver.eagain = 3;
        pair.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(IOVA_A, 3000, mrA.lkey())), null);
        rig.settle();
        Wc s = Rig.drain(pair.a.scq).get(0);
        assertEquals(WcStatus.SUCCESS, s.status);
        assertEquals(WcOpcode.SEND, s.opcode);
        RcOpsTest.assertRange(a, 0, b, 0, 3000);
        assertEquals(3, pair.na.dev.counter(RvtCounter.SEND_ERR));
    }
}
