package org.rdma.hca.mlx4sim.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.fabric.Capture;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketSink;
import org.rdma.fabric.PortCounterSnapshot;
import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.Vcrc;
import org.rdma.rvt.testkit.Peers;

/**
 * Segment trains over InfiniBand: the RC requester sends the MIDDLE packets of a multi-packet SEND
 * or RDMA WRITE (and a full, plain LAST) as one train, the fabric carries it whole on clean links
 * and splits it where it is observed, and the receiving rvt walks it packet by packet. Two mlx4sim
 * HCAs across a switch ({@link IbSubnetTest}), path MTU 1024, virtual time.
 *
 * <p>What the receiving HCA's fabric port hands to the driver is tapped (see {@link #tap}), so the
 * tests see the trains themselves; a capture shows the real packets they stand for.
 */
class TrainTest {
    static final int MTU = 1024;
    static final int LEN = 20 * 1024;
    /** The PSN Ops.toRts starts both directions at. */
    static final int PSN0 = 100;
    static final int WRITE_FIRST = 0x06;
    static final int WRITE_MIDDLE = 0x07;
    static final int WRITE_LAST = 0x08;
    static final int WRITE_LAST_IMM = 0x09;
    static final int SEND_FIRST = 0x00;
    static final int SEND_MIDDLE = 0x01;
    static final int SEND_LAST = 0x02;
    static final int ACKNOWLEDGE = 0x11;
    /** LRH + BTH + ICRC. */
    static final int BASE = 8 + 12 + 4;
    static final int RETH = 16;
    static final int IMMDT = 4;
    static final int AETH = 4;

    @TempDir
    Path dir;

    IbSubnetTest t;
    Ops ops;

    @BeforeEach
    void setUp() {
        t = new IbSubnetTest();
        t.setUp();
        t.bringUp();
        ops = new Ops(t.ha, t.hb, Ops.virtualTime(t.clock), () -> IbSubnetTest.ib(IbSubnetTest.LID_B),
                () -> IbSubnetTest.ib(IbSubnetTest.LID_A), Mtu.MTU_1024);
    }

    @AfterEach
    void tearDown() {
        t.tearDown();
    }

    // ---------------------------------------------------------------- helpers

    /** What a fabric port handed its driver: one packet, or a train standing for {@code segments}. */
    record Seen(int opcode, int psn, int segments, boolean ends, boolean ackReq, boolean se, int payload, int pad,
            int hdrLen, boolean starts) {
    }

    /** Puts a recorder in front of the driver's sink on {@code d}'s port 1 (data VLs only). */
    static List<Seen> tap(Mlx4Device d) {
        return tap(d, p -> { });
    }

    /** {@link #tap(Mlx4Device)}, running {@code before} on each data packet before the driver gets it. */
    static List<Seen> tap(Mlx4Device d, Consumer<Packet> before) {
        List<Seen> seen = new ArrayList<>();
        PacketSink io = d.port(1).io;
        d.fabricPort(1).setSink(new PacketSink() {
            @Override
            public void receive(Packet p) {
                int bth = p.bthOffset();
                if (bth >= 0 && p.vl() != Packet.VL15) {
                    before.accept(p);
                    seen.add(new Seen(p.opcode(bth), p.psn(bth), p.segments(), p.endsMessage(), p.ackReq(bth),
                            p.solicitedEvent(bth), p.payloadLength, p.padCount, p.headerLength - bth, p.startsMessage()));
                }
                io.receive(p);
            }

            @Override
            public boolean receivesTrains() {
                return io.receivesTrains();
            }
        });
        return seen;
    }

    /** The RvtCounters of a device, to take differences. */
    static EnumMap<RvtCounter, Long> counters(Mlx4Device d) {
        EnumMap<RvtCounter, Long> m = new EnumMap<>(RvtCounter.class);
        for (RvtCounter c : RvtCounter.values()) {
            m.put(c, d.provider().counter(c));
        }
        return m;
    }

    static long delta(Mlx4Device d, EnumMap<RvtCounter, Long> before, RvtCounter c) {
        return d.provider().counter(c) - before.get(c);
    }

    Host.Qp[] rcPair() {
        return rcPair(ops.mtu);
    }

    Host.Qp[] rcPair(Mtu mtu) {
        Host.Qp qa = ops.a.createQp(ops.pa, QpType.RC, 1, null);
        Host.Qp qb = ops.b.createQp(ops.pb, QpType.RC, 1, null);
        Ops.toRts(qa, QpType.RC, ops.toB.get(), qb.qpn(), mtu, 1);
        Ops.toRts(qb, QpType.RC, ops.toA.get(), qa.qpn(), mtu, 1);
        return new Host.Qp[] {qa, qb};
    }

    SendWr write(WrOpcode op, long id, int offA, int len, long remoteAddr, int rkey) {
        SendWr w = Ops.wr(op, id, new Sge(Ops.IOVA + offA, len, ops.ma.lkey()));
        w.remoteAddr = remoteAddr;
        w.rkey = rkey;
        return w;
    }

    byte[] snapshotB() {
        return ops.bb.array().clone();
    }

    /** B's buffer is {@code before} except {@code [offB, offB + len)}, which holds A's bytes from {@code offA}. */
    void onlyWritten(byte[] before, int offA, int offB, int len) {
        ops.same(offA, offB, len);
        byte[] now = ops.bb.array();
        for (int i = 0; i < now.length; i++) {
            if (i < offB || i >= offB + len) {
                assertEquals(before[i], now[i], "B's byte " + i + " outside the target changed");
            }
        }
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    static int u24(byte[] b, int at) {
        return (b[at] & 0xFF) << 16 | (b[at + 1] & 0xFF) << 8 | b[at + 2] & 0xFF;
    }

    static int slid(byte[] f) {
        return u16(f, 6);
    }

    static int opcode(byte[] f) {
        return f[8] & 0xFF;
    }

    static boolean se(byte[] f) {
        return (f[9] & 0x80) != 0;
    }

    static int pad(byte[] f) {
        return (f[9] >>> 4) & 3;
    }

    static boolean ackReq(byte[] f) {
        return (f[16] & 0x80) != 0;
    }

    static int psn(byte[] f) {
        return u24(f, 17);
    }

    /** The frames A sent to B (SLID = A's LID), in the order the capture saw them. */
    static List<byte[]> fromA(List<byte[]> frames) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] f : frames) {
            if (slid(f) == IbSubnetTest.LID_A) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Checks each captured packet of one message from A to B's QP: LRH (LNH local, DLID, SLID,
     * PktLen), BTH (opcode, pad, TVer, P_Key, DestQP, consecutive PSNs from {@code psn0}), the
     * extension header length, the payload bytes against A's source buffer, a zero pad, VCRC and
     * ICRC. {@code ops[i]} is the opcode of packet i, {@code ext[i]} its extension header bytes.
     */
    void checkMessage(List<byte[]> frames, int[] opcodes, int[] ext, int psn0, int dqpn, int offA, int len) {
        assertEquals(opcodes.length, frames.size(), "packets of the message");
        int pkey = t.db.provider().queryPkey(1, 0);
        int sent = 0;
        for (int i = 0; i < frames.size(); i++) {
            byte[] f = frames.get(i);
            String at = "packet " + i + " (opcode 0x" + Integer.toHexString(opcode(f)) + ")";
            assertTrue(Vcrc.verify(f, 0, f.length), "VCRC of " + at);
            assertTrue(Icrc.verifyIb(f, 0, f.length - Vcrc.VCRC_BYTES), "ICRC of " + at);
            assertEquals(0, f[0] & 0x0F, "LVer of " + at);
            assertEquals(Lrh.LNH_IBA_LOCAL, f[1] & 3, "LNH of " + at);
            assertEquals(IbSubnetTest.LID_B, u16(f, 2), "DLID of " + at);
            assertEquals(IbSubnetTest.LID_A, u16(f, 6), "SLID of " + at);
            assertEquals(opcodes[i], opcode(f), "opcode of " + at);
            assertEquals(0, f[9] & 0x0F, "TVer of " + at);
            assertEquals(pkey == 0 ? 0xFFFF : pkey, u16(f, 10), "P_Key of " + at);
            assertEquals(dqpn, u24(f, 13), "DestQP of " + at);
            assertEquals((psn0 + i) & 0xFF_FFFF, psn(f), "PSN of " + at);
            int pay = Math.min(MTU, len - sent);
            int p = pad(f);
            assertEquals(-pay & 3, p, "PadCnt of " + at);
            int hdr = 8 + 12 + ext[i];
            assertEquals(hdr + pay + p + Icrc.ICRC_BYTES + Vcrc.VCRC_BYTES, f.length, "frame length of " + at);
            assertEquals((hdr + pay + p + Icrc.ICRC_BYTES) / 4, u16(f, 4) & 0x7FF, "LRH PktLen of " + at);
            for (int j = 0; j < pay; j++) {
                assertEquals(ops.ba.get(offA + sent + j), f[hdr + j], "payload byte " + j + " of " + at);
            }
            for (int j = 0; j < p; j++) {
                assertEquals(0, f[hdr + pay + j], "pad byte " + j + " of " + at);
            }
            sent += pay;
        }
        assertEquals(len, sent, "payload bytes of the message");
    }

    static int[] opcodes(int first, int middle, int last, int n) {
        int[] o = new int[n];
        java.util.Arrays.fill(o, middle);
        o[0] = first;
        o[n - 1] = last;
        return o;
    }

    static int[] ext(int first, int last, int n) {
        int[] e = new int[n];
        e[0] = first;
        e[n - 1] = last;
        return e;
    }

    void tshark(Path f, int middles, int middleOpcode) throws Exception {
        Peers.requireTshark();
        assertEquals(0, CaptureTest.tsharkMalformed(f), "malformed in " + f);
        assertEquals(middles, CaptureTest.tsharkCount(f, "infiniband.bth.opcode == " + middleOpcode),
                "MIDDLE packets tshark decodes");
    }

    // ---------------------------------------------------------------- tests

    /** 1. A 20-packet RDMA WRITE: a FIRST, then one train of 18 MIDDLEs and the LAST; every counter counts packets. */
    @Test
    void rdmaWriteGoesAsOneTrainAndEveryCounterCountsItsPackets() {
        Host.Qp[] q = rcPair();
        List<Seen> atB = tap(t.db);
        List<Seen> atA = tap(t.da);
        byte[] before = snapshotB();
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        PortCounterSnapshot pa = t.da.fabricPort(1).counters();
        PortCounterSnapshot pb = t.db.fabricPort(1).counters();

        assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 1000, LEN, Ops.IOVA + 4096, ops.mb.rkey()), null));
        Wc wc = ops.one(q[0].scq());
        assertEquals(WcOpcode.RDMA_WRITE, wc.opcode);
        onlyWritten(before, 1000, 4096, LEN);

        // the train itself, as B's port handed it to the driver
        assertEquals(List.of(new Seen(WRITE_FIRST, PSN0, 20, true, true, false, MTU, 0, 12 + RETH, true)), atB,
                "what B's port received");

        long acks = delta(t.da, ca, RvtCounter.RCVD_PKTS);
        assertEquals(1, acks, "one ACK, for the LAST's AckReq");
        assertEquals(acks, atA.size());
        for (Seen s : atA) {
            assertEquals(ACKNOWLEDGE, s.opcode());
            assertEquals(1, s.segments());
        }
        assertEquals(PSN0 + 19, atA.get(0).psn(), "the ACK acknowledges the LAST");

        assertEquals(20, delta(t.da, ca, RvtCounter.SENT_PKTS), "A's SENT_PKTS");
        assertEquals(20, delta(t.db, cb, RvtCounter.RCVD_PKTS), "B's RCVD_PKTS");
        assertEquals(acks, delta(t.db, cb, RvtCounter.SENT_PKTS), "B sent only the ACKs");
        for (RvtCounter c : new RvtCounter[] {RvtCounter.RETRANSMITTED_PKTS, RvtCounter.RCV_DROPPED,
                RvtCounter.OUT_OF_SEQUENCE, RvtCounter.DUPLICATE_REQUEST, RvtCounter.COMP_RETRY, RvtCounter.SEND_ERR}) {
            assertEquals(0, delta(t.da, ca, c), "A's " + c);
            assertEquals(0, delta(t.db, cb, c), "B's " + c);
        }
        assertEquals(0, t.da.rxDropped() + t.db.rxDropped());

        PortCounterSnapshot pa2 = t.da.fabricPort(1).counters();
        PortCounterSnapshot pb2 = t.db.fabricPort(1).counters();
        long firstWords = (BASE + RETH + MTU) / 4;
        long middleWords = (BASE + MTU) / 4;
        long ackWords = (BASE + AETH) / 4;
        assertEquals(20, pa2.portXmitPkts() - pa.portXmitPkts(), "A's PortXmitPkts");
        assertEquals(firstWords + 19 * middleWords, pa2.portXmitData() - pa.portXmitData(), "A's PortXmitData");
        assertEquals(acks, pa2.portRcvPkts() - pa.portRcvPkts(), "A's PortRcvPkts");
        assertEquals(acks * ackWords, pa2.portRcvData() - pa.portRcvData(), "A's PortRcvData");
        assertEquals(20, pb2.portRcvPkts() - pb.portRcvPkts(), "B's PortRcvPkts");
        assertEquals(firstWords + 19 * middleWords, pb2.portRcvData() - pb.portRcvData(), "B's PortRcvData");
        assertEquals(acks, pb2.portXmitPkts() - pb.portXmitPkts(), "B's PortXmitPkts");
        assertEquals(20, pa2.portUnicastXmitPkts() - pa.portUnicastXmitPkts(), "A's PortUnicastXmitPkts");
        assertEquals(20, pb2.portUnicastRcvPkts() - pb.portUnicastRcvPkts(), "B's PortUnicastRcvPkts");
        for (PortCounterSnapshot[] s : new PortCounterSnapshot[][] {{pa, pa2}, {pb, pb2}}) {
            assertEquals(s[0].portRcvErrors(), s[1].portRcvErrors());
            assertEquals(s[0].portXmitDiscards(), s[1].portXmitDiscards());
            assertEquals(s[0].portRcvStateDiscards(), s[1].portRcvStateDiscards());
        }
    }

    /** 2. The same WRITE under a capture on B's link: the 20 real packets, each exactly right. */
    @Test
    void aCaptureSeesTheRealPacketsOfTheTrain() throws Exception {
        Host.Qp[] q = rcPair();
        List<Seen> atB = tap(t.db);
        byte[] before = snapshotB();
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        Path f = dir.resolve("write.pcap");
        try (Capture c = t.db.fabricPort(1).link().capture(f)) {
            assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 333, LEN, Ops.IOVA + 8192, ops.mb.rkey()), null));
            ops.one(q[0].scq());
        }
        onlyWritten(before, 333, 8192, LEN);
        assertEquals(20, delta(t.da, ca, RvtCounter.SENT_PKTS));
        assertEquals(20, delta(t.db, cb, RvtCounter.RCVD_PKTS));
        assertEquals(0, delta(t.da, ca, RvtCounter.RETRANSMITTED_PKTS));
        assertEquals(0, t.da.rxDropped() + t.db.rxDropped());
        // the capture tap split the train: B's driver got the packets one by one
        assertEquals(20, atB.size());
        for (Seen s : atB) {
            assertEquals(1, s.segments());
        }

        List<byte[]> all = CaptureTest.frames(f);
        List<byte[]> data = fromA(all);
        checkMessage(data, opcodes(WRITE_FIRST, WRITE_MIDDLE, WRITE_LAST, 20), ext(RETH, 0, 20), PSN0, q[1].qpn(), 333, LEN);
        for (int i = 0; i < 19; i++) {
            assertFalse(ackReq(data.get(i)), "AckReq on packet " + i);
            assertFalse(se(data.get(i)), "SE on packet " + i);
        }
        assertTrue(ackReq(data.get(19)), "the LAST of a signaled WRITE asks for the ACK");
        byte[] first = data.get(0);
        assertEquals(Ops.IOVA + 8192, java.nio.ByteBuffer.wrap(first, 20, 8).getLong(), "RETH VA");
        assertEquals(ops.mb.rkey(), java.nio.ByteBuffer.wrap(first, 28, 4).getInt(), "RETH R_Key");
        assertEquals(LEN, java.nio.ByteBuffer.wrap(first, 32, 4).getInt(), "RETH DMALen");
        // B's answers: the ACK of the LAST, nothing else
        List<byte[]> fromB = new ArrayList<>(all);
        fromB.removeAll(data);
        assertEquals(delta(t.db, cb, RvtCounter.SENT_PKTS), fromB.size());
        assertEquals(1, fromB.size());
        assertEquals(ACKNOWLEDGE, opcode(fromB.get(0)));
        assertEquals(PSN0 + 19, psn(fromB.get(0)));
        assertTrue(Icrc.verifyIb(fromB.get(0), 0, fromB.get(0).length - Vcrc.VCRC_BYTES));
        tshark(f, 18, WRITE_MIDDLE);
    }

    /** 3. A solicited SEND: the train carries the MIDDLEs only; the LAST goes alone with SE. */
    @Test
    void aSolicitedSendEndsWithItsOwnLastCarryingSe() throws Exception {
        Host.Qp[] q = rcPair();
        List<Seen> atB = tap(t.db);
        // without a capture: the train as it travelled
        ops.recv(q[1], null, 1, 2000, 32768);
        SendWr w = Ops.wr(WrOpcode.SEND, 1, new Sge(Ops.IOVA + 7, LEN, ops.ma.lkey()));
        w.sendFlags |= SendFlags.SOLICITED;
        assertEquals(0, q[0].p().postSend(w, null));
        Wc r = ops.one(q[1].rcq());
        assertEquals(WcOpcode.RECV, r.opcode);
        assertEquals(LEN, r.byteLen);
        ops.one(q[0].scq());
        ops.same(7, 2000, LEN);
        assertEquals(List.of(new Seen(SEND_FIRST, PSN0, 19, false, false, false, MTU, 0, 12, true),
                new Seen(SEND_LAST, PSN0 + 19, 1, false, true, true, MTU, 0, 12, false)), atB, "what B's port received");

        // the same under a capture
        for (int i = 0; i < LEN; i++) {
            ops.bb.put(36000 + i, (byte) 0);
        }
        Path f = dir.resolve("send.pcap");
        ops.recv(q[1], null, 2, 36000, 24000);
        w = Ops.wr(WrOpcode.SEND, 2, new Sge(Ops.IOVA + 40000, LEN, ops.ma.lkey()));
        w.sendFlags |= SendFlags.SOLICITED;
        try (Capture c = t.db.fabricPort(1).link().capture(f)) {
            assertEquals(0, q[0].p().postSend(w, null));
            r = ops.one(q[1].rcq());
            assertEquals(LEN, r.byteLen);
            ops.one(q[0].scq());
        }
        ops.same(40000, 36000, LEN);
        List<byte[]> data = fromA(CaptureTest.frames(f));
        checkMessage(data, opcodes(SEND_FIRST, SEND_MIDDLE, SEND_LAST, 20), new int[20], PSN0 + 20, q[1].qpn(), 40000, LEN);
        for (int i = 0; i < 19; i++) {
            assertFalse(se(data.get(i)), "SE on packet " + i + " (opcode 0x" + Integer.toHexString(opcode(data.get(i))) + ")");
            assertFalse(ackReq(data.get(i)), "AckReq on packet " + i);
        }
        assertTrue(se(data.get(19)), "SE on the SEND LAST");
        assertTrue(ackReq(data.get(19)));
        assertEquals(0, t.da.rxDropped() + t.db.rxDropped());
        tshark(f, 18, SEND_MIDDLE);
    }

    /** 4. WRITE WITH IMM: the LAST has an ImmDt header, so the train stops before it. */
    @Test
    void writeWithImmediateEndsWithItsOwnLastImm() throws Exception {
        Host.Qp[] q = rcPair();
        List<Seen> atB = tap(t.db);
        byte[] before = snapshotB();
        ops.recv(q[1], null, 9, 0, 16);
        SendWr w = write(WrOpcode.RDMA_WRITE_WITH_IMM, 1, 2048, LEN, Ops.IOVA + 30000, ops.mb.rkey());
        w.immData = 0xCAFEF00D;
        assertEquals(0, q[0].p().postSend(w, null));
        Wc r = ops.one(q[1].rcq());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, r.opcode);
        assertEquals(0xCAFEF00D, r.immData);
        assertTrue((r.wcFlags & WcFlags.WITH_IMM) != 0);
        assertEquals(LEN, r.byteLen);
        assertEquals(9, r.wrId);
        ops.one(q[0].scq());
        onlyWritten(before, 2048, 30000, LEN);
        assertEquals(List.of(new Seen(WRITE_FIRST, PSN0, 19, false, false, false, MTU, 0, 12 + RETH, true),
                new Seen(WRITE_LAST_IMM, PSN0 + 19, 1, false, true, false, MTU, 0, 12 + IMMDT, false)), atB);

        Path f = dir.resolve("writeimm.pcap");
        ops.recv(q[1], null, 10, 0, 16);
        w = write(WrOpcode.RDMA_WRITE_WITH_IMM, 2, 100, LEN, Ops.IOVA + 4, ops.mb.rkey());
        w.immData = 0x01020304;
        try (Capture c = t.db.fabricPort(1).link().capture(f)) {
            assertEquals(0, q[0].p().postSend(w, null));
            r = ops.one(q[1].rcq());
            assertEquals(0x01020304, r.immData);
            ops.one(q[0].scq());
        }
        ops.same(100, 4, LEN);
        List<byte[]> data = fromA(CaptureTest.frames(f));
        checkMessage(data, opcodes(WRITE_FIRST, WRITE_MIDDLE, WRITE_LAST_IMM, 20), ext(RETH, IMMDT, 20), PSN0 + 20,
                q[1].qpn(), 100, LEN);
        byte[] last = data.get(19);
        assertEquals(0x01020304, java.nio.ByteBuffer.wrap(last, 20, 4).getInt(), "ImmDt");
        assertEquals(0, t.da.rxDropped() + t.db.rxDropped());
        tshark(f, 18, WRITE_MIDDLE);
    }

    /** 5. A length that is not a multiple of the MTU: the train stops before a short, padded LAST. */
    @Test
    void aShortLastGoesAloneWithItsPad() throws Exception {
        int len = LEN + 101;
        Host.Qp[] q = rcPair();
        List<Seen> atB = tap(t.db);
        byte[] before = snapshotB();
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 5, len, Ops.IOVA + 100, ops.mb.rkey()), null));
        ops.one(q[0].scq());
        onlyWritten(before, 5, 100, len);
        assertEquals(List.of(new Seen(WRITE_FIRST, PSN0, 20, false, false, false, MTU, 0, 12 + RETH, true),
                new Seen(WRITE_LAST, PSN0 + 20, 1, false, true, false, 101, 3, 12, false)), atB);
        assertEquals(21, delta(t.da, ca, RvtCounter.SENT_PKTS));
        assertEquals(21, delta(t.db, cb, RvtCounter.RCVD_PKTS));

        Path f = dir.resolve("short.pcap");
        before = snapshotB();
        try (Capture c = t.db.fabricPort(1).link().capture(f)) {
            assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 2, 30001, len, Ops.IOVA + 40001, ops.mb.rkey()), null));
            ops.one(q[0].scq());
        }
        onlyWritten(before, 30001, 40001, len);
        List<byte[]> data = fromA(CaptureTest.frames(f));
        checkMessage(data, opcodes(WRITE_FIRST, WRITE_MIDDLE, WRITE_LAST, 21), ext(RETH, 0, 21), PSN0 + 21, q[1].qpn(),
                30001, len);
        byte[] last = data.get(20);
        assertEquals(3, pad(last), "PadCnt of the 101-byte LAST");
        assertEquals((BASE + 101 + 3) / 4, u16(last, 4) & 0x7FF, "LRH PktLen of the LAST");
        assertEquals(0, t.da.rxDropped() + t.db.rxDropped());
        tshark(f, 19, WRITE_MIDDLE);
    }

    /** 6. A WRITE one byte beyond the target MR: REM_ACCESS_ERR, and B's memory stays as it was. */
    @Test
    void aWriteBeyondTheMrFailsAndWritesNothing() {
        Host.Qp[] q = rcPair();
        int acc = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        long iova = 0x800000;
        // 20 KiB - 1 bytes of B's buffer, from offset 8192
        FakeMr small = ops.b.regMr(ops.pb, ops.bb.slice(8192, LEN - 1), iova, acc);
        byte[] before = snapshotB();
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 0, LEN, iova, small.rkey()), null));
        List<Wc> wcs = ops.waiter.await(q[0].scq(), 1);
        assertEquals(1, wcs.size(), "one completion: " + wcs);
        assertEquals(WcStatus.REM_ACCESS_ERR, wcs.get(0).status, wcs.get(0).toString());
        assertEquals(1, wcs.get(0).wrId);
        assertArrayEquals(before, ops.bb.array(), "B's memory changed");
        assertEquals(1, delta(t.db, cb, RvtCounter.SENT_PKTS), "B's NAK");
        assertEquals(1, delta(t.da, ca, RvtCounter.RCVD_PKTS), "A got the NAK");
        assertEquals(0, t.da.rxDropped() + t.db.rxDropped());

        // the WRITE fitting the MR exactly succeeds (same QPs are in error now: a new pair)
        Host.Qp[] q2 = rcPair();
        assertEquals(0, q2[0].p().postSend(write(WrOpcode.RDMA_WRITE, 2, 0, LEN - 1, iova, small.rkey()), null));
        ops.one(q2[0].scq());
        onlyWritten(before, 0, 8192, LEN - 1);
    }

    /**
     * 6b. The packets B drops after it refused a WRITE's FIRST (its QP is in error by then) are
     * counted one by one in RCV_DROPPED whether or not they travelled as a train: every packet
     * A sent is either received by a QP or counted dropped.
     */
    @Test
    void packetsOfARefusedWriteAreEachCountedDropped() throws Exception {
        // split by a capture on B's link, the 19 packets after the FIRST arrive one by one
        refusedWrite(dir.resolve("refused.pcap"), 20);
        // on a clean link they arrive as one train, and must count the same
        refusedWrite(null, 1);
    }

    /** A 20 KiB WRITE into a 4 KiB MR; {@code deliveries}: how many times B's port hands the driver something. */
    private void refusedWrite(Path capture, int deliveries) throws Exception {
        Host.Qp[] q = rcPair();
        int acc = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        FakeMr small = ops.b.regMr(ops.pb, ops.bb.slice(8192, 4096), 0x800000, acc);
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        List<Seen> atB = tap(t.db);
        Capture c = capture == null ? null : t.db.fabricPort(1).link().capture(capture);
        try {
            assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 0, LEN, 0x800000, small.rkey()), null));
            List<Wc> wcs = ops.waiter.await(q[0].scq(), 1);
            assertEquals(WcStatus.REM_ACCESS_ERR, wcs.get(0).status);
        } finally {
            if (c != null) {
                c.close();
            }
        }
        long sent = delta(t.da, ca, RvtCounter.SENT_PKTS);
        assertEquals(20, sent, "A sent the whole WRITE before it saw the NAK");
        long arrived = 0;
        for (Seen s : atB) {
            arrived += s.segments();
        }
        assertEquals(sent, arrived, "packets that reached B's driver: " + atB);
        assertEquals(deliveries, atB.size(), "deliveries to B's driver: " + atB);
        String how = capture == null ? "as a train" : "one by one";
        assertEquals(sent, delta(t.db, cb, RvtCounter.RCVD_PKTS) + delta(t.db, cb, RvtCounter.RCV_DROPPED),
                "packets arriving " + how + ": A sent " + sent + " (" + atB + "); B's RCVD_PKTS "
                        + delta(t.db, cb, RvtCounter.RCVD_PKTS) + " + RCV_DROPPED " + delta(t.db, cb, RvtCounter.RCV_DROPPED));
        assertEquals(1, delta(t.db, cb, RvtCounter.RCVD_PKTS), "only the FIRST reached the QP (" + how + ")");
    }

    /**
     * 6c. A WRITE that crosses in several trains (path MTU 256: every 64th packet asks for an ACK
     * and ends a train), its target deregistered before the second arrives: B executes the first
     * train, refuses the second at its first packet (REM_ACCESS_ERR, as for any packet into a
     * region no longer valid) and moves none of its bytes.
     */
    @Test
    void aTrainContinuingAWriteIntoADeregisteredRegionMovesNoByte() {
        Host.Qp[] q = rcPair(Mtu.MTU_256);
        int len = 40 * 1024;
        long iova = 0x800000;
        FakeMr target = ops.b.regMr(ops.pb, ops.bb.slice(0, len), iova,
                AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        List<Seen> atB = tap(t.db, p -> {
            if (p.opcode(p.bthOffset()) == WRITE_MIDDLE && p.segments() > 1) {
                target.dereg();
            }
        });
        byte[] before = snapshotB();
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 0, len, iova, target.rkey()), null));

        List<Wc> wcs = ops.waiter.await(q[0].scq(), 1);
        assertEquals(WcStatus.REM_ACCESS_ERR, wcs.get(0).status, wcs.get(0).toString());
        assertEquals(List.of(new Seen(WRITE_FIRST, PSN0, 64, false, true, false, 256, 0, 12 + RETH, true),
                new Seen(WRITE_MIDDLE, PSN0 + 64, 64, false, true, false, 256, 0, 12, false)), atB.subList(0, 2),
                "the first two trains B's port received: " + atB);
        byte[] now = ops.bb.array();
        for (int i = 0; i < now.length; i++) {
            assertEquals(i < 64 * 256 ? ops.ba.get(i) : before[i], now[i], "B's byte " + i);
        }
        assertEquals(64 + 1, delta(t.db, cb, RvtCounter.RCVD_PKTS), "the first train and the refused packet");
        assertEquals(delta(t.da, ca, RvtCounter.SENT_PKTS) - 65, delta(t.db, cb, RvtCounter.RCV_DROPPED),
                "every other packet A sent was dropped");
    }

    /**
     * 7. A crafted train of WRITE FIRST packets (RETH: not a train) is dropped whole by B's rvt and
     * counted once per packet; the same bytes as a single packet are a valid WRITE FIRST.
     */
    @Test
    void aCraftedTrainOfFirstPacketsIsDroppedWhole() {
        FabricPort fa = t.da.fabricPort(1);
        ByteBuffer data = ByteBuffer.allocate(3 * MTU);
        for (int i = 0; i < data.capacity(); i++) {
            data.put(i, (byte) (i * 31 + 5));
        }
        // control: the crafted FIRST as one packet is accepted and written
        Host.Qp[] control = rcPair();
        EnumMap<RvtCounter, Long> cb = counters(t.db);
        byte[] before = snapshotB();
        fa.transmit(craftWriteFirst(fa, control[1].qpn(), Ops.IOVA + 50000, data, 1));
        t.clock.advance(1, java.util.concurrent.TimeUnit.MILLISECONDS);
        assertEquals(1, delta(t.db, cb, RvtCounter.RCVD_PKTS), "the single crafted FIRST reached the QP");
        assertEquals(0, delta(t.db, cb, RvtCounter.RCV_DROPPED));
        for (int i = 0; i < MTU; i++) {
            assertEquals(data.get(i), ops.bb.get(50000 + i), "control byte " + i);
        }
        for (int i = 0; i < before.length; i++) {
            if (i < 50000 || i >= 50000 + MTU) {
                assertEquals(before[i], ops.bb.get(i), "byte " + i);
            }
        }

        // the train: dropped whole, counted per packet, nothing written, nothing answered
        Host.Qp[] q = rcPair();
        List<Seen> atB = tap(t.db);
        cb = counters(t.db);
        EnumMap<RvtCounter, Long> ca = counters(t.da);
        PortCounterSnapshot pb = t.db.fabricPort(1).counters();
        before = snapshotB();
        fa.transmit(craftWriteFirst(fa, q[1].qpn(), Ops.IOVA + 4096, data, 3));
        t.clock.advance(1, java.util.concurrent.TimeUnit.MILLISECONDS);
        assertEquals(List.of(new Seen(WRITE_FIRST, PSN0, 3, false, false, false, MTU, 0, 12 + RETH, false)), atB,
                "the train crossed the fabric whole");
        assertEquals(3, t.db.fabricPort(1).counters().portRcvPkts() - pb.portRcvPkts(), "B's port counted 3 packets");
        assertEquals(3, delta(t.db, cb, RvtCounter.RCV_DROPPED), "B's RCV_DROPPED");
        assertEquals(0, delta(t.db, cb, RvtCounter.RCVD_PKTS));
        assertEquals(0, delta(t.db, cb, RvtCounter.SENT_PKTS), "B answered nothing");
        assertEquals(0, t.db.rxDropped(), "the driver passed it on");
        assertArrayEquals(before, ops.bb.array(), "B's memory changed");

        // B's QP was not disturbed: A's real WRITE from PSN 100 on goes through
        assertEquals(0, q[0].p().postSend(write(WrOpcode.RDMA_WRITE, 1, 500, LEN, Ops.IOVA + 4096, ops.mb.rkey()), null));
        ops.one(q[0].scq());
        onlyWritten(before, 500, 4096, LEN);
        assertEquals(0, delta(t.db, cb, RvtCounter.DUPLICATE_REQUEST));
        assertEquals(0, delta(t.db, cb, RvtCounter.OUT_OF_SEQUENCE));
        assertEquals(0, delta(t.da, ca, RvtCounter.RETRANSMITTED_PKTS));
        assertEquals(3, delta(t.db, cb, RvtCounter.RCV_DROPPED));
    }

    /**
     * An RC WRITE FIRST from A's LID to {@code dqpn} at B, PSN {@value #PSN0}, no AckReq, RETH for
     * {@code 3 * MTU} bytes at {@code va}; {@code segments} packets of {@link #MTU} bytes from
     * {@code data}.
     */
    Packet craftWriteFirst(FabricPort from, int dqpn, long va, ByteBuffer data, int segments) {
        Packet p = from.allocPacket();
        byte[] h = p.header;
        int hdr = 8 + 12 + RETH;
        h[0] = 0; // VL 0, LVer 0
        h[1] = (byte) Lrh.LNH_IBA_LOCAL; // SL 0
        MadFrames.put16(h, 2, IbSubnetTest.LID_B);
        MadFrames.put16(h, 4, (hdr + MTU + Icrc.ICRC_BYTES) / 4);
        MadFrames.put16(h, 6, IbSubnetTest.LID_A);
        h[8] = (byte) WRITE_FIRST;
        h[9] = 0; // SE 0, M 0, PadCnt 0, TVer 0
        int pkey = t.db.provider().queryPkey(1, 0);
        MadFrames.put16(h, 10, pkey == 0 ? 0xFFFF : pkey);
        h[12] = 0;
        h[13] = (byte) (dqpn >>> 16);
        h[14] = (byte) (dqpn >>> 8);
        h[15] = (byte) dqpn;
        h[16] = 0; // AckReq 0
        h[17] = (byte) (PSN0 >>> 16);
        h[18] = (byte) (PSN0 >>> 8);
        h[19] = (byte) PSN0;
        MadFrames.put64(h, 20, va);
        MadFrames.put32(h, 28, ops.mb.rkey());
        MadFrames.put32(h, 32, 3 * MTU);
        p.headerLength = hdr;
        p.payload = data;
        p.payloadOffset = 0;
        p.payloadLength = MTU;
        p.padCount = 0;
        p.setSegments(segments);
        return p;
    }
}
