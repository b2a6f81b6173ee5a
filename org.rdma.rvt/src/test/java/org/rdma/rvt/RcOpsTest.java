package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.harness.Wire;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** Every RC operation with data checked byte for byte, over synchronous and queued delivery. */
class RcOpsTest {
    static final int LOCAL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE
            | AccessFlags.REMOTE_ATOMIC | AccessFlags.MW_BIND;
    static final long IOVA_A = 0x10_0000L;
    static final long IOVA_B = 0x7000_0000L;
    static final int SIZE = (1 << 20) + 8192;

    Rig rig;
    Rig.Pair pair;
    ByteBuffer bufA;
    ByteBuffer bufB;
    FakeMr mrA;
    FakeMr mrB;

    void setUp(Wire.Mode mode) {
        setUp(mode, true);
    }

    void setUp(Wire.Mode mode, boolean sigAll) {
        rig = new Rig();
        rig.wire.mode(mode);
        Node na = rig.node(1);
        Node nb = rig.node(2);
        Rig.Opts o = new Rig.Opts();
        o.sigAll = sigAll;
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        pair = rig.connect(na, nb, o);
        bufA = Rig.pattern(ByteBuffer.allocateDirect(SIZE), 1);
        bufB = Rig.pattern(ByteBuffer.allocate(SIZE), 2);
        mrA = na.regMr(o.pdA, bufA, IOVA_A, LOCAL);
        mrB = nb.regMr(o.pdB, bufB, IOVA_B, LOCAL);
    }

    @BeforeEach
    void defaults() {
        setUp(Wire.Mode.SYNC);
    }

    static void assertRange(ByteBuffer a, int ai, ByteBuffer b, int bi, int len) {
        for (int i = 0; i < len; i++) {
            if (a.get(ai + i) != b.get(bi + i)) {
                throw new AssertionError("byte " + i + " differs: " + a.get(ai + i) + " != " + b.get(bi + i));
            }
        }
    }

    void post(SendWr w) {
        assertEquals(0, pair.a.p.postSend(w, null));
    }

    void recv(long id, int off, int len) {
        assertEquals(0, pair.b.p.postRecv(Rig.recv(id, new Sge(IOVA_B + off, len, mrB.lkey())), null));
    }

    Wc one(Node.Cq cq) {
        rig.settle();
        List<Wc> l = Rig.drain(cq);
        assertEquals(1, l.size(), () -> "completions: " + l);
        return l.get(0);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1023, 1024, 1025, 4096 + 3, 1 << 20})
    void sendOfEverySize(int len) {
        recv(7, 100, len + 16);
        post(Rig.send(WrOpcode.SEND, 1, new Sge(IOVA_A + 5, len, mrA.lkey())));
        Wc s = one(pair.a.scq);
        assertEquals(WcStatus.SUCCESS, s.status);
        assertEquals(WcOpcode.SEND, s.opcode);
        assertEquals(len, s.byteLen);
        Wc r = one(pair.b.rcq);
        assertEquals(WcStatus.SUCCESS, r.status);
        assertEquals(WcOpcode.RECV, r.opcode);
        assertEquals(7, r.wrId);
        assertEquals(len, r.byteLen);
        assertEquals(pair.a.qpn(), r.srcQp);
        assertRange(bufA, 5, bufB, 100, len);
    }

    @ParameterizedTest
    @EnumSource(value = Wire.Mode.class)
    void sendWithImmAndSolicited(Wire.Mode mode) {
        setUp(mode);
        recv(8, 0, 64);
        SendWr w = Rig.send(WrOpcode.SEND_WITH_IMM, 2, new Sge(IOVA_A, 33, mrA.lkey()));
        w.immData = 0x12345678;
        w.sendFlags |= SendFlags.SOLICITED;
        pair.b.rcq.p.reqNotifyCq(org.rdma.verbs.CqNotifyFlags.SOLICITED);
        post(w);
        Wc r = one(pair.b.rcq);
        assertEquals(0x12345678, r.immData);
        assertTrue((r.wcFlags & WcFlags.WITH_IMM) != 0);
        assertEquals(33, r.byteLen);
        assertEquals(1, pair.nb.ctx.upcalls(pair.b.rcq.core));
        assertRange(bufA, 0, bufB, 0, 33);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1023, 1024, 1025, 1 << 20})
    void rdmaWriteOfEverySize(int len) {
        post(rdma(WrOpcode.RDMA_WRITE, 3, IOVA_A + 11, len, IOVA_B + 77));
        Wc s = one(pair.a.scq);
        assertEquals(WcStatus.SUCCESS, s.status);
        assertEquals(WcOpcode.RDMA_WRITE, s.opcode);
        assertEquals(0, Rig.drain(pair.b.rcq).size());
        assertRange(bufA, 11, bufB, 77, len);
    }

    @Test
    void writesToAQpWithoutReceivesShareOneAck() {
        setUp(Wire.Mode.SYNC, false);
        SendWr head = null;
        for (int i = 7; i >= 0; i--) {
            SendWr w = rdma(WrOpcode.RDMA_WRITE, i, IOVA_A + 64 * i, 64, IOVA_B + 64 * i);
            w.sendFlags = i == 7 ? SendFlags.SIGNALED : 0;
            w.next = head;
            head = w;
        }
        post(head);
        assertEquals(7, one(pair.a.scq).wrId);
        // no receive WQE is posted, so no credit is advertised; WRITEs need none
        assertEquals(8 + 1, rig.wire.sent, "8 WRITEs and one coalesced ACK");
        assertRange(bufA, 0, bufB, 0, 8 * 64);
    }

    @Test
    void rdmaWriteWithImmConsumesAReceive() {
        recv(9, 0, 0);
        SendWr w = rdma(WrOpcode.RDMA_WRITE_WITH_IMM, 4, IOVA_A, 3000, IOVA_B + 4096);
        w.immData = 0xcafe;
        post(w);
        Wc r = one(pair.b.rcq);
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, r.opcode);
        assertEquals(0xcafe, r.immData);
        assertEquals(3000, r.byteLen);
        assertEquals(9, r.wrId);
        assertRange(bufA, 0, bufB, 4096, 3000);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1023, 1024, 1025, 1 << 20})
    void rdmaReadOfEverySize(int len) {
        post(rdma(WrOpcode.RDMA_READ, 5, IOVA_A + 3, len, IOVA_B + 9));
        Wc s = one(pair.a.scq);
        assertEquals(WcStatus.SUCCESS, s.status);
        assertEquals(WcOpcode.RDMA_READ, s.opcode);
        assertEquals(len, s.byteLen);
        assertRange(bufB, 9, bufA, 3, len);
    }

    @ParameterizedTest
    @EnumSource(value = Wire.Mode.class)
    void atomics(Wire.Mode mode) {
        setUp(mode);
        ByteBuffer nb = bufB.duplicate().order(ByteOrder.nativeOrder());
        ByteBuffer na = bufA.duplicate().order(ByteOrder.nativeOrder());
        nb.putLong(64, 1000);
        SendWr fa = rdma(WrOpcode.ATOMIC_FETCH_AND_ADD, 6, IOVA_A + 256, 8, IOVA_B + 64);
        fa.compareAdd = 5;
        post(fa);
        assertEquals(WcOpcode.FETCH_ADD, one(pair.a.scq).opcode);
        assertEquals(1000, na.getLong(256));
        assertEquals(1005, nb.getLong(64));
        SendWr cs = rdma(WrOpcode.ATOMIC_CMP_AND_SWP, 7, IOVA_A + 264, 8, IOVA_B + 64);
        cs.compareAdd = 1005;
        cs.swap = -1;
        post(cs);
        assertEquals(WcOpcode.COMP_SWAP, one(pair.a.scq).opcode);
        assertEquals(1005, na.getLong(264));
        assertEquals(-1, nb.getLong(64));
        cs.wrId = 8;
        cs.compareAdd = 3;
        cs.swap = 4;
        post(cs);
        one(pair.a.scq);
        assertEquals(-1, na.getLong(264));
        assertEquals(-1, nb.getLong(64));
    }

    @Test
    void inlineSendAndWrite() {
        recv(1, 0, 64);
        SendWr w = Rig.send(WrOpcode.SEND, 1, new Sge(IOVA_A + 40, 50, mrA.lkey()));
        w.sendFlags |= SendFlags.INLINE;
        post(w);
        bufA.put(40, (byte) 0x55); // changing the source after posting must not matter
        one(pair.a.scq);
        Wc r = one(pair.b.rcq);
        assertEquals(50, r.byteLen);
        assertEquals((byte) (1 * 31 + 40 * 7), bufB.get(0));
        assertRange(bufA, 41, bufB, 1, 49);
        SendWr wr = rdma(WrOpcode.RDMA_WRITE, 2, IOVA_A + 100, 64, IOVA_B + 1000);
        wr.sendFlags |= SendFlags.INLINE;
        post(wr);
        one(pair.a.scq);
        assertRange(bufA, 100, bufB, 1000, 64);
    }

    @Test
    void multiSgeSendScattersIntoMultiSgeReceive() {
        assertEquals(0, pair.b.p.postRecv(Rig.recv(3, new Sge(IOVA_B, 1000, mrB.lkey()),
                new Sge(IOVA_B + 5000, 3000, mrB.lkey())), null));
        post(Rig.send(WrOpcode.SEND, 3, new Sge(IOVA_A, 700, mrA.lkey()), new Sge(IOVA_A + 9000, 0, mrA.lkey()),
                new Sge(IOVA_A + 20000, 1300, mrA.lkey()), new Sge(IOVA_A + 40000, 500, mrA.lkey())));
        one(pair.a.scq);
        Wc r = one(pair.b.rcq);
        assertEquals(2500, r.byteLen);
        ByteBuffer expect = ByteBuffer.allocate(2500);
        expect.put(0, bufA, 0, 700).put(700, bufA, 20000, 1300).put(2000, bufA, 40000, 500);
        assertRange(expect, 0, bufB, 0, 1000);
        assertRange(expect, 1000, bufB, 5000, 1500);
    }

    @Test
    void unsignaledRequestsCompleteSilentlyButInOrder() {
        setUp(Wire.Mode.QUEUED, false);
        for (int i = 0; i < 40; i++) {
            SendWr w = rdma(WrOpcode.RDMA_WRITE, 100 + i, IOVA_A + i * 8, 8, IOVA_B + i * 8);
            w.sendFlags = i == 39 ? SendFlags.SIGNALED : 0;
            post(w);
        }
        rig.settle();
        List<Wc> l = Rig.drain(pair.a.scq);
        assertEquals(1, l.size());
        assertEquals(139, l.get(0).wrId);
        assertRange(bufA, 0, bufB, 0, 320);
    }

    SendWr rdma(WrOpcode op, long id, long local, int len, long remote) {
        SendWr w = Rig.send(op, id, new Sge(local, len, mrA.lkey()));
        w.remoteAddr = remote;
        w.rkey = mrB.rkey();
        return w;
    }
}
