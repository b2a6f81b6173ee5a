package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.harness.Wire;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * Fuzzing of the transport's receive path ({@link RvtDevice#receive}: the demultiplexer, the
 * responder with its BTH, RETH, AtomicETH, DETH, ImmDt and IETH handling, the completer with AETH
 * and atomic ACKs, trains): arbitrary packets arrive at two devices whose RC, UC and UD QPs have
 * real work posted, as if a driver had taken them off the wire.
 *
 * <p>What must hold for every input: nothing throws; every packet is accounted for once, as
 * received by a QP or as dropped ({@code RCVD_PKTS + RCV_DROPPED} grows by the packets it stands
 * for); every posted send completes exactly once when the traffic settles; when every injected
 * packet was dropped, the QPs finish their own traffic as if nothing had come (all successful, the
 * data in place); and a new connection between the devices works afterwards.
 *
 * <p>Input: packets one after the other, each {@code [ctl][segments][flags][hdrLen][len hi][len
 * lo][hdrLen header bytes][len * segments payload bytes]}; see {@link Injected#read}. The seeds
 * are the harness's own traffic captured off the wire ({@link #seeds()}).
 */
class ReceiveFuzzTest {
    private static final int LID_A = 1;
    private static final int LID_B = 2;
    private static final long IOVA = 0x10_0000L;
    private static final int MR_BYTES = 1 << 16;
    private static final int QKEY = 0x11111111;
    /** The senders' memory, made once: the harness is rebuilt for every input. */
    private static final byte[] PATTERN = Rig.pattern(ByteBuffer.allocate(MR_BYTES), 1).array();

    @FuzzTest
    void receive(byte[] input) {
        Harness h = new Harness();
        List<Injected> pkts = Injected.parse(input);
        long accepted = 0;
        for (Injected p : pkts) {
            Node to = p.toA ? h.a : h.b;
            long before = to.dev.counter(RvtCounter.RCVD_PKTS);
            long dropped = to.dev.counter(RvtCounter.RCV_DROPPED);
            to.dev.receive(1, p.packet(h));
            long got = to.dev.counter(RvtCounter.RCVD_PKTS) - before;
            assertEquals(Math.max(1, p.segments), got + to.dev.counter(RvtCounter.RCV_DROPPED) - dropped,
                    () -> "every packet is received or dropped, and counted once: " + p);
            accepted += got;
        }
        h.rig.settle();
        h.assertEverySendCompletedOnce();
        if (accepted == 0) {
            h.assertTrafficUnharmed();
        }
        h.assertNewConnectionWorks();
    }

    /**
     * Two devices on a queued wire (a packet a receive sends goes into the queue, so an exception
     * anywhere reaches the fuzzer instead of the sender's transmit), with an RC, a UC and a UD QP
     * each and a send of every kind posted on A, not yet delivered.
     */
    static final class Harness {
        final Rig rig = new Rig();
        final Node a;
        final Node b;
        final Rig.Pair rc;
        final Rig.Pair uc;
        final Node.Qp udA;
        final Node.Qp udB;
        final FakeMr mrA;
        final FakeMr mrB;
        final ByteBuffer memA = ByteBuffer.wrap(PATTERN.clone());
        final ByteBuffer memB = ByteBuffer.allocate(MR_BYTES);
        int posted;

        Harness() {
            this(null);
        }

        /** With {@code tap} seeing every packet put on the wire from the start. */
        Harness(Predicate<RvtPacket> tap) {
            rig.wire.mode(Wire.Mode.QUEUED);
            rig.wire.filter = tap;
            a = rig.node(LID_A);
            b = rig.node(LID_B);
            Rig.Opts o = new Rig.Opts();
            o.pdA = a.allocPd();
            o.pdB = b.allocPd();
            o.maxSegments = 8;
            o.depth = 32;
            o.timeout = 8;
            o.retry = 2;
            o.rnrRetry = 2;
            int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE
                    | AccessFlags.REMOTE_ATOMIC;
            mrA = a.regMr(o.pdA, memA, IOVA, access);
            mrB = b.regMr(o.pdB, memB, IOVA, access);
            rc = rig.connect(a, b, o);
            o.type = QpType.UC;
            uc = rig.connect(a, b, o);
            udA = ud(a, o.pdA);
            udB = ud(b, o.pdB);
            for (int i = 0; i < 4; i++) {
                recv(rc.b, i * 4096, 4096);
                recv(uc.b, i * 4096 + 16384, 4096);
                recv(udB, i * 4096 + 32768, 4096);
            }
            post(rc.a, send(WrOpcode.SEND, 0, 3000));
            post(rc.a, rdma(WrOpcode.RDMA_WRITE, 4096, 100, IOVA + 49152));
            post(rc.a, rdma(WrOpcode.RDMA_READ, 8192, 2000, IOVA + 16));
            post(rc.a, atomic(WrOpcode.ATOMIC_CMP_AND_SWP, IOVA + 65536 - 8));
            post(rc.a, atomic(WrOpcode.ATOMIC_FETCH_AND_ADD, IOVA + 65536 - 16));
            SendWr imm = send(WrOpcode.SEND_WITH_IMM, 12288, 17);
            imm.immData = 0x01020304;
            post(rc.a, imm);
            post(uc.a, rdma(WrOpcode.RDMA_WRITE_WITH_IMM, 0, 600, IOVA + 53248));
            post(uc.a, send(WrOpcode.SEND, 20000, 1500));
            SendWr u = send(WrOpcode.SEND, 24576, 256);
            u.ah = a.createAh(o.pdA, udAv()).core;
            u.remoteQpn = udB.qpn();
            u.remoteQkey = QKEY;
            post(udA, u);
        }

        private static AhAttr udAv() {
            AhAttr av = new AhAttr();
            av.portNum = 1;
            av.dlid = LID_B;
            return av;
        }

        private static Node.Qp ud(Node n, Node.Pd pd) {
            Node.Qp q = n.createQp(pd, QpType.UD, n.createCq(64), n.createCq(64), null, 16, 2, 0);
            QpAttr at = new QpAttr();
            at.qpState = QpState.INIT;
            at.portNum = 1;
            at.qkey = QKEY;
            q.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
            at.qpState = QpState.RTR;
            q.modify(at, QpAttrMask.STATE);
            at.qpState = QpState.RTS;
            at.sqPsn = 1;
            q.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
            return q;
        }

        private void recv(Node.Qp q, int off, int len) {
            assertEquals(0, q.p.postRecv(Rig.recv(off, new Sge(IOVA + off, len, mrB.lkey())), null));
        }

        private void post(Node.Qp q, SendWr w) {
            w.wrId = posted++;
            w.sendFlags |= SendFlags.SIGNALED;
            assertEquals(0, q.p.postSend(w, null));
        }

        private SendWr send(WrOpcode op, int off, int len) {
            return Rig.send(op, 0, new Sge(IOVA + off, len, mrA.lkey()));
        }

        private SendWr rdma(WrOpcode op, int off, int len, long remote) {
            SendWr w = send(op, off, len);
            w.remoteAddr = remote;
            w.rkey = mrB.rkey();
            return w;
        }

        private SendWr atomic(WrOpcode op, long remote) {
            SendWr w = rdma(op, 40000, 8, remote);
            w.compareAdd = 5;
            w.swap = 7;
            return w;
        }

        /** The QPN a packet's selector names (0: the header's own). */
        int qpn(int selector, int own) {
            switch (selector) {
                case 1: return rc.b.qpn();
                case 2: return uc.b.qpn();
                case 3: return udB.qpn();
                case 4: return rc.a.qpn();
                case 5: return 1;
                case 6: return 0xffffff;
                case 7: return uc.a.qpn();
                default: return own;
            }
        }

        List<Wc> sendCompletions() {
            List<Wc> all = new ArrayList<>(Rig.drain(rc.a.scq));
            all.addAll(Rig.drain(uc.a.scq));
            all.addAll(Rig.drain(udA.scq));
            return all;
        }

        private List<Wc> done;

        void assertEverySendCompletedOnce() {
            done = sendCompletions();
            boolean[] seen = new boolean[posted];
            for (Wc c : done) {
                int id = (int) c.wrId;
                assertTrue(id >= 0 && id < posted && !seen[id], () -> "a send completed twice or unknown: " + done);
                seen[id] = true;
            }
            assertEquals(posted, done.size(), () -> "every send completes once: " + done);
        }

        void assertTrafficUnharmed() {
            for (Wc c : done) {
                assertEquals(WcStatus.SUCCESS, c.status, () -> "dropped packets harmed the traffic: " + done);
            }
            assertRange(0, 0, 3000);
            assertRange(4096, 49152, 100);
            assertRange(12288, 4096, 17);
            assertRange(0, 53248, 600);
            assertRange(20000, 20480, 1500);
            assertRange(24576, 32768 + RvtPacket.GRH_BYTES, 256);
            assertRange(8192, 16, 2000);
        }

        private void assertRange(int atA, int atB, int len) {
            assertEquals(-1, memA.slice(atA, len).mismatch(memB.slice(atB, len)),
                    () -> len + " bytes at A " + atA + " and B " + atB + " differ");
        }

        /** A fresh RC connection: a SEND and a WRITE complete and land. */
        void assertNewConnectionWorks() {
            Rig.Opts o = new Rig.Opts();
            o.pdA = a.allocPd();
            o.pdB = b.allocPd();
            ByteBuffer src = ByteBuffer.wrap(PATTERN, 0, 4096).slice();
            ByteBuffer dst = ByteBuffer.allocate(4096);
            FakeMr s = a.regMr(o.pdA, src, 0x9000_0000L, AccessFlags.LOCAL_WRITE);
            FakeMr d = b.regMr(o.pdB, dst, 0x9000_0000L, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            Rig.Pair p = rig.connect(a, b, o);
            assertEquals(0, p.b.p.postRecv(Rig.recv(1, new Sge(0x9000_0000L, 1024, d.lkey())), null));
            assertEquals(0, p.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(0x9000_0000L, 1000, s.lkey())), null));
            SendWr w = Rig.send(WrOpcode.RDMA_WRITE, 2, new Sge(0x9000_0000L + 1024, 2000, s.lkey()));
            w.remoteAddr = 0x9000_0000L + 1024;
            w.rkey = d.rkey();
            assertEquals(0, p.a.p.postSend(w, null));
            rig.settle();
            List<Wc> c = Rig.drain(p.a.scq);
            assertEquals(2, c.size(), () -> "a new connection after the fuzzed packets: " + c);
            c.forEach(x -> assertEquals(WcStatus.SUCCESS, x.status, () -> "a new connection: " + c));
            assertEquals(1, Rig.drain(p.b.rcq).size());
            assertEquals(-1, src.slice(0, 1000).mismatch(dst.slice(0, 1000)), "new connection's SEND");
            assertEquals(-1, src.slice(1024, 2000).mismatch(dst.slice(1024, 2000)), "new connection's WRITE");
        }
    }

    /** One packet of the input, as a driver would hand it to {@link RvtDevice#receive}. */
    static final class Injected {
        boolean toA;
        int qpSelector;
        boolean fromPeer;
        boolean grh;
        boolean vl15;
        int segments;
        int pad;
        boolean starts;
        boolean ends;
        byte[] hdr;
        byte[] payload;
        int payloadLength;

        /** The next packet at {@code in[at]}, or null at the end; see the class comment for the layout. */
        static Injected read(byte[] in, int[] at) {
            int p = at[0];
            if (in.length - p < 6) {
                return null;
            }
            Injected j = new Injected();
            int ctl = in[p] & 0xFF;
            j.toA = (ctl & 1) != 0;
            j.qpSelector = (ctl >>> 1) & 7;
            j.fromPeer = (ctl & 0x10) == 0;
            j.grh = (ctl & 0x20) != 0;
            j.vl15 = (ctl & 0x40) != 0;
            j.segments = (in[p + 1] & 0xFF) == 0xFF ? -1 : in[p + 1] & 0xFF;
            int flags = in[p + 2] & 0xFF;
            j.pad = flags & 3;
            j.starts = (flags & 4) != 0;
            j.ends = (flags & 8) != 0;
            int hdrLen = Math.min(in[p + 3] & 0xFF, RvtPacket.MAX_HDR);
            int len = (in[p + 4] & 0xFF) << 8 | in[p + 5] & 0xFF;
            // a driver's descriptor always covers its train's payload; keep it in bounds
            j.payloadLength = Math.min(len, (1 << 16) / Math.max(1, j.segments));
            p += 6;
            j.hdr = new byte[hdrLen];
            int n = Math.min(hdrLen, in.length - p);
            System.arraycopy(in, p, j.hdr, 0, n);
            p += n;
            j.payload = new byte[j.payloadLength * Math.max(1, j.segments)];
            n = Math.min(j.payload.length, in.length - p);
            System.arraycopy(in, p, j.payload, 0, n);
            at[0] = p + n;
            return j;
        }

        static List<Injected> parse(byte[] in) {
            List<Injected> l = new ArrayList<>();
            int[] at = {0};
            Injected j;
            while (l.size() < 16 && (j = read(in, at)) != null) {
                l.add(j);
            }
            return l;
        }

        RvtPacket packet(Harness h) {
            RvtPacket p = new RvtPacket();
            System.arraycopy(hdr, 0, p.hdr, 0, hdr.length);
            p.hdrLen = hdr.length;
            if (qpSelector != 0 && hdr.length >= 8) {
                int qpn = h.qpn(qpSelector, 0);
                p.hdr[5] = (byte) (qpn >>> 16);
                p.hdr[6] = (byte) (qpn >>> 8);
                p.hdr[7] = (byte) qpn;
            }
            p.padCount = pad;
            p.segments = segments;
            p.startsMessage = starts;
            p.endsMessage = ends;
            p.payloadLength = payloadLength;
            p.payload = payloadLength > 0 ? ByteBuffer.wrap(payload) : null;
            p.port = 1;
            Node from = toA ? h.b : h.a;
            Node to = toA ? h.a : h.b;
            p.slid = fromPeer ? from.lid : 0x77;
            p.dlid = to.lid;
            p.vl15 = vl15;
            if (grh) {
                p.hasGrh = true;
                p.grh[0] = 0x60;
                from.gid.writeTo(p.grh, 8);
                to.gid.writeTo(p.grh, 24);
                p.sgidHi = from.gid.subnetPrefix();
                p.sgidLo = from.gid.interfaceId();
                p.dgidHi = to.gid.subnetPrefix();
                p.dgidLo = to.gid.interfaceId();
            }
            p.owner = new RvtPacket.Owner() {
                @Override
                public void retain(RvtPacket pkt) {
                }

                @Override
                public void release(RvtPacket pkt) {
                }

                @Override
                public void retainPayload(RvtPacket pkt) {
                    pkt.payloadStable = true; // a buffer of its own already
                }
            };
            return p;
        }

        /** The record of a packet as the wire carried it (the inverse of {@link #read}). */
        static void write(ByteArrayOutputStream out, RvtPacket p, boolean toA) {
            out.write(toA ? 1 : 0);
            out.write(p.segments);
            out.write(p.padCount | (p.startsMessage ? 4 : 0) | (p.endsMessage ? 8 : 0));
            out.write(p.hdrLen);
            out.write(p.payloadLength >>> 8);
            out.write(p.payloadLength);
            out.write(p.hdr, 0, p.hdrLen);
            for (int i = 0; i < p.payloadLength * p.segments; i++) {
                out.write(p.payload.get(p.payloadOffset + i));
            }
        }

        @Override
        public String toString() {
            return "packet to " + (toA ? "A" : "B") + " qpSel " + qpSelector + " segments " + segments + " hdr "
                    + hdr.length + " payload " + payloadLength;
        }
    }

    // ---------------------------------------------------------------- the corpus

    /**
     * The harness's own conversation, captured off the wire: each packet alone, and all of them in
     * order (which, replayed before the real traffic, is accepted whole).
     */
    static Map<String, byte[]> seeds() {
        List<byte[]> packets = new ArrayList<>();
        Harness h = new Harness(p -> {
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            Injected.write(one, p, p.av.dlid == LID_A);
            packets.add(one.toByteArray());
            return false;
        });
        h.rig.settle();
        h.assertEverySendCompletedOnce();
        h.assertTrafficUnharmed();
        Map<String, byte[]> s = new LinkedHashMap<>();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < packets.size(); i++) {
            byte[] b = packets.get(i);
            int op = b[6] & 0xFF;
            s.put(String.format("%02d-%s", i, org.rdma.rvt.internal.wire.Opcodes.name(op).toLowerCase()), b);
            all.write(b, 0, b.length);
        }
        s.put("conversation", all.toByteArray());
        return s;
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(ReceiveFuzzTest.class, "receive", seeds());
    }

    /** The conversation replayed ahead of the real traffic is accepted: the seeds reach deep. */
    @Test
    void theConversationIsAccepted() {
        Harness h = new Harness();
        long before = h.b.dev.counter(RvtCounter.RCVD_PKTS) + h.a.dev.counter(RvtCounter.RCVD_PKTS);
        for (Injected p : Injected.parse(seeds().get("conversation"))) {
            (p.toA ? h.a : h.b).dev.receive(1, p.packet(h));
        }
        long after = h.b.dev.counter(RvtCounter.RCVD_PKTS) + h.a.dev.counter(RvtCounter.RCVD_PKTS);
        assertTrue(after - before >= 10, "accepted " + (after - before));
        assertEquals(0, h.b.dev.counter(RvtCounter.RCV_DROPPED) + h.a.dev.counter(RvtCounter.RCV_DROPPED));
    }
}
