package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.Vcrc;

/** Segment trains of one packet object: setSegments, splitFirst, and what materialize, retainPayload, copyFrom and release do with them. */
class PacketTrainTest {
    private static final int LEN = 256;
    private static final int OFF = 7;
    private static final int BTH = Lrh.IB_LRH_BYTES;

    /** A port stand-in that only hands out standalone packets (as in PacketTest). */
    private static EthernetPort fakeEthernetPort() {
        return (EthernetPort) java.lang.reflect.Proxy.newProxyInstance(PacketTrainTest.class.getClassLoader(),
                new Class<?>[] {EthernetPort.class}, (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "allocPacket":
                            return new Packet(LinkLayer.ETHERNET);
                        case "macAddress":
                            return MacAddress.parse("02:00:00:00:00:01");
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    /** The sender's memory: {@code n * len} bytes from {@link #OFF} ({@link Pkts#trainMemory}). */
    private static ByteBuffer memory(int n, int len) {
        return Pkts.trainMemory(ByteBuffer.allocate(OFF + n * len + 11), OFF, n, len);
    }

    private static byte expected(int segment, int i) {
        return Pkts.trainByte(segment, i);
    }

    /** A train of {@code n} RC WRITE MIDDLE packets of LEN bytes, unpooled; FECN, SE, M and reserved bits set so header copies are checked bit for bit. */
    private static Packet ibTrain(int psn, boolean ackReq, ByteBuffer mr, int n) {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 0x1234, 0x0567, 0xABCDEF, psn, ackReq, mr, OFF, LEN);
        p.header[0] = (byte) (p.header[0] | 0x30);         // VL 3
        p.header[1] = (byte) (p.header[1] | 0x50);         // SL 5
        p.header[BTH + 1] = (byte) (p.header[BTH + 1] | 0xC0);   // SE, M
        p.header[BTH + 4] = (byte) 0x80;                   // FECN
        p.header[BTH + 8] = (byte) (p.header[BTH + 8] | 0x2A);   // reserved bits beside AckReq
        p.setSegments(n);
        return p;
    }

    /** The header a packet of the train must have: the train's with this PSN and AckReq. */
    private static byte[] headerWith(byte[] trainHeader, int len, int bth, int psn, boolean ackReq) {
        byte[] h = Arrays.copyOf(trainHeader, len);
        h[bth + 8] = (byte) (ackReq ? h[bth + 8] | 0x80 : h[bth + 8] & 0x7F);
        h[bth + 9] = (byte) (psn >>> 16);
        h[bth + 10] = (byte) (psn >>> 8);
        h[bth + 11] = (byte) psn;
        return h;
    }

    private static byte[] payloadOf(Packet p) {
        byte[] b = new byte[p.payloadLength];
        p.readBytes(p.headerLength, b, 0, b.length);
        return b;
    }

    private static void assertSegmentPayload(int segment, Packet p) {
        assertEquals(LEN, p.payloadLength);
        byte[] b = payloadOf(p);
        for (int i = 0; i < LEN; i++) {
            assertEquals(expected(segment, i), b[i], "segment " + segment + " byte " + i);
        }
    }

    /** Splits the whole train: the packets in order, the train itself last. */
    private static List<Packet> splitAll(Packet train, LinkLayer ll) {
        List<Packet> out = new ArrayList<>();
        while (train.segments() > 1) {
            int before = train.segments();
            Packet into = new Packet(ll);
            assertSame(into, train.splitFirst(into));
            assertEquals(before - 1, train.segments());
            out.add(into);
        }
        out.add(train);
        return out;
    }

    // ------------------------------------------------------------------ splitFirst

    @Test
    void splitPacketsHaveTheTrainHeaderExceptPsnAndAckReqByteForByte() {
        ByteBuffer mr = memory(5, LEN);
        Packet train = ibTrain(0x100, true, mr, 5);
        byte[] trainHeader = Arrays.copyOf(train.header, train.headerLength);
        List<Packet> packets = splitAll(train, LinkLayer.INFINIBAND);
        assertEquals(5, packets.size());
        for (int i = 0; i < 5; i++) {
            Packet p = packets.get(i);
            assertEquals(Pkts.RC_HDR, p.headerLength);
            assertArrayEquals(headerWith(trainHeader, Pkts.RC_HDR, BTH, 0x100 + i, i == 4),
                    Arrays.copyOf(p.header, p.headerLength), "header of packet " + i);
            assertEquals(0, p.padCount);
            assertEquals(1, p.segments());
        }
    }

    @Test
    void splitPsnsCountUpByOneAndWrapFrom0xFFFFFFTo0() {
        Packet train = ibTrain(0xFFFFFD, false, memory(6, LEN), 6);
        List<Integer> psns = new ArrayList<>();
        for (Packet p : splitAll(train, LinkLayer.INFINIBAND)) {
            psns.add(p.psn(p.bthOffset()));
        }
        assertEquals(List.of(0xFFFFFD, 0xFFFFFE, 0xFFFFFF, 0, 1, 2), psns);
    }

    @Test
    void ackReqOfTheTrainStaysOnTheLastPacketOnly() {
        List<Packet> packets = splitAll(ibTrain(0xFFFFFE, true, memory(4, LEN), 4), LinkLayer.INFINIBAND);
        List<Boolean> acks = new ArrayList<>();
        for (Packet p : packets) {
            acks.add(p.ackReq(p.bthOffset()));
            Bth bth = new Bth().unpack(p.header, p.bthOffset());
            assertEquals(Pkts.RC_RDMA_WRITE_MIDDLE, bth.opcode);
            assertEquals(0xABCDEF, bth.destQpn);
            assertTrue(bth.fecn(), "FECN kept");
            assertTrue(bth.solicitedEvent, "SE kept");
            assertTrue(bth.migReq, "M kept");
        }
        assertEquals(List.of(false, false, false, true), acks);
    }

    @Test
    void aTrainWithoutAckReqSplitsIntoPacketsWithoutAckReq() {
        for (Packet p : splitAll(ibTrain(9, false, memory(3, LEN), 3), LinkLayer.INFINIBAND)) {
            assertFalse(p.ackReq(p.bthOffset()));
        }
    }

    @Test
    void splitPacketsCarryConsecutivePayloadSlicesOfTheSendersMemory() {
        ByteBuffer mr = memory(5, LEN);
        List<Packet> packets = splitAll(ibTrain(0, true, mr, 5), LinkLayer.INFINIBAND);
        for (int i = 0; i < 5; i++) {
            Packet p = packets.get(i);
            assertSame(mr, p.payload, "by reference: no copy");
            assertEquals(OFF + i * LEN, p.payloadOffset);
            assertSegmentPayload(i, p);
            assertEquals(expected(i, 0) & 0xFF, p.byteAt(p.headerLength));
            assertEquals(expected(i, LEN - 1) & 0xFF, p.byteAt(p.headerLength + LEN - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> p.byteAt(p.headerLength + LEN),
                    "one packet's payload, not the train's");
        }
    }

    @Test
    void splitPacketsAreWellFormedSinglePacketsWithValidCrcs() {
        List<Packet> packets = splitAll(ibTrain(0xFFFFFF, true, memory(3, LEN), 3), LinkLayer.INFINIBAND);
        for (int i = 0; i < packets.size(); i++) {
            Packet p = packets.get(i);
            assertEquals(1, p.segments());
            int len = p.materialize();
            assertEquals(Pkts.RC_HDR + LEN + Icrc.ICRC_BYTES + Vcrc.VCRC_BYTES, len);
            assertEquals(len, p.wireLength());
            assertEquals((len - Vcrc.VCRC_BYTES) / 4, p.lrhPacketLength(), "LRH:PktLen of one packet");
            assertTrue(p.verifyCrcs());
            assertTrue(Icrc.verifyIb(p.frame(), 0, len - Vcrc.VCRC_BYTES));
            assertEquals((i + 0xFFFFFF) & 0xFFFFFF, p.psn(p.bthOffset()));
            for (int b = 0; b < LEN; b++) {
                assertEquals(expected(i, b), p.frame()[Pkts.RC_HDR + b]);
            }
        }
    }

    /**
     * A train that starts and ends its message: its FIRST as described (RETH and all), then MIDDLEs
     * and a LAST that carry the BTH alone, with LRH:PktLen (and the GRH PayLen) 16 bytes shorter,
     * each a well-formed packet whose CRCs verify.
     */
    @Test
    void aTrainThatStartsItsMessageSplitsIntoItsFirstThenPacketsWithTheBthAlone() {
        for (boolean grh : new boolean[] {false, true}) {
            int bth = Lrh.IB_LRH_BYTES + (grh ? 40 : 0);
            Packet train = Pkts.rcWriteFirst(new Packet(LinkLayer.INFINIBAND), grh, 1, 2, 3, 0xFFFFFF, memory(3, LEN), OFF,
                    LEN, 3);
            train.header[bth + 8] |= (byte) 0x80;
            byte[] first = Arrays.copyOf(train.header, train.headerLength);
            train.setSegments(3, true, true);
            assertTrue(train.startsMessage());
            assertEquals(16, train.firstExtra());
            List<Packet> packets = splitAll(train, LinkLayer.INFINIBAND);
            int[] opcodes = {0x06, 0x07, 0x08};
            for (int i = 0; i < 3; i++) {
                Packet p = packets.get(i);
                assertEquals(i == 0 ? bth + 28 : bth + 12, p.headerLength, "header of packet " + i);
                assertEquals(opcodes[i], p.opcode(bth));
                assertEquals((0xFFFFFF + i) & 0xFFFFFF, p.psn(bth));
                assertEquals(i == 2, p.ackReq(bth), "AckReq on the LAST only");
                assertFalse(p.startsMessage());
                assertEquals(0, p.firstExtra());
                if (i == 0) {
                    byte[] h = Arrays.copyOf(p.header, p.headerLength);
                    first[bth + 8] &= 0x7F;
                    assertArrayEquals(first, h, "the FIRST as described, AckReq clear");
                } else if (grh) {
                    assertEquals(12 + LEN + 4, (p.header[12] & 0xFF) << 8 | p.header[13] & 0xFF, "GRH PayLen");
                }
                int len = p.materialize();
                assertEquals(p.headerLength + LEN + Icrc.ICRC_BYTES + Vcrc.VCRC_BYTES, len);
                assertEquals((len - Vcrc.VCRC_BYTES) / 4, p.lrhPacketLength(), "LRH:PktLen of packet " + i);
                assertTrue(p.verifyCrcs());
                for (int b = 0; b < LEN; b++) {
                    assertEquals(expected(i, b), p.frame()[p.headerLength + b]);
                }
            }
        }
    }

    @Test
    void onlyAnInfinibandTrainStartsItsMessage() throws Exception {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, memory(2, LEN), OFF, LEN);
        p.setSegments(2, true, false);
        assertTrue(p.startsMessage());
        assertEquals(0, p.firstExtra());
        Packet roce = Pkts.roce(fakeEthernetPort(), MacAddress.parse("02:00:00:00:00:02"),
                InetAddress.getByName("10.0.0.1"), InetAddress.getByName("10.0.0.2"), 0x11, 0, memory(2, LEN), OFF, LEN);
        assertThrows(IllegalArgumentException.class, () -> roce.setSegments(2, true, false));
        assertEquals(1, roce.segments());
    }

    @Test
    void splitFirstOfASinglePacketThrows() {
        Packet single = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, true, memory(1, LEN), OFF, LEN);
        assertEquals(1, single.segments());
        assertThrows(IllegalStateException.class, () -> single.splitFirst(new Packet(LinkLayer.INFINIBAND)));
        Packet train = ibTrain(0, false, memory(2, LEN), 2);
        train.splitFirst(new Packet(LinkLayer.INFINIBAND));
        assertThrows(IllegalStateException.class, () -> train.splitFirst(new Packet(LinkLayer.INFINIBAND)),
                "the last packet is no train any more");
    }

    @Test
    void splitFirstIntoAPacketOfAnotherLinkLayerIsRefused() {
        Packet train = ibTrain(0, false, memory(2, LEN), 2);
        assertThrows(IllegalArgumentException.class, () -> train.splitFirst(new Packet(LinkLayer.ETHERNET)));
    }

    @Test
    void roceTrainsSplitAtTheBthAfterUdpAndKeepTheOtherHeaders() throws Exception {
        ByteBuffer mr = memory(3, LEN);
        Packet train = Pkts.roce(fakeEthernetPort(), MacAddress.parse("02:00:00:00:00:02"),
                InetAddress.getByName("10.0.0.1"), InetAddress.getByName("10.0.0.2"), 0x11, 0xFFFFFF, mr, OFF, LEN);
        train.header[train.bthOffset() + 8] = (byte) 0x80;     // AckReq
        train.setSegments(3);
        int bth = train.bthOffset();
        assertEquals(14 + 20 + 8, bth);
        byte[] trainHeader = Arrays.copyOf(train.header, train.headerLength);
        int hl = train.headerLength;
        List<Packet> packets = splitAll(train, LinkLayer.ETHERNET);
        for (int i = 0; i < 3; i++) {
            Packet p = packets.get(i);
            assertArrayEquals(headerWith(trainHeader, hl, bth, (0xFFFFFF + i) & 0xFFFFFF, i == 2),
                    Arrays.copyOf(p.header, p.headerLength), "header of packet " + i);
            assertSegmentPayload(i, p);
            p.materialize();
            assertTrue(p.verifyCrcs());
        }
    }

    // ------------------------------------------------------------------ setSegments

    @Test
    void setSegmentsRejectsCountsBelowOne() {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, memory(1, LEN), OFF, LEN);
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(0));
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(-1));
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(Integer.MIN_VALUE));
        assertEquals(1, p.segments());
    }

    @Test
    void setSegmentsRejectsMoreThanMaxSegmentsAndAcceptsMax() {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false,
                memory(Packet.MAX_SEGMENTS, LEN), OFF, LEN);
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(Packet.MAX_SEGMENTS + 1));
        assertEquals(1, p.segments());
        p.setSegments(Packet.MAX_SEGMENTS);
        assertEquals(Packet.MAX_SEGMENTS, p.segments());
        p.setSegments(1);
        assertEquals(1, p.segments(), "a train may be made a single packet again");
    }

    @Test
    void setSegmentsRejectsAnInfinibandPacketWithoutBth() {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, memory(2, LEN), OFF, LEN);
        p.header[1] = (byte) (p.header[1] & ~3 | Lrh.LNH_RAW);
        assertEquals(-1, p.bthOffset());
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(2));
        p.header[1] = (byte) (p.header[1] & ~3 | Lrh.LNH_IP);
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(2));
        assertEquals(1, p.segments());
        p.setSegments(1);
        assertEquals(1, p.segments(), "one packet needs no BTH");
    }

    @Test
    void setSegmentsRejectsAnEthernetFrameWithoutBth() {
        Packet p = new Packet(LinkLayer.ETHERNET);
        MacAddress.BROADCAST.writeTo(p.header, 0);
        MacAddress.parse("02:00:00:00:00:01").writeTo(p.header, 6);
        p.header[12] = 0x08;
        p.header[13] = 0x06;                 // ARP
        p.headerLength = 42;
        p.payload = memory(2, LEN);
        p.payloadOffset = OFF;
        p.payloadLength = LEN;
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(2));
        assertEquals(1, p.segments());
    }

    @Test
    void setSegmentsRejectsAPaddedPayload() {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, memory(2, LEN), OFF, LEN - 1);
        assertEquals(1, p.padCount);
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(2));
        assertEquals(1, p.segments());
    }

    @Test
    void setSegmentsRejectsAnEmptyPayload() {
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, null, 0, 0);
        assertEquals(0, p.padCount);
        assertThrows(IllegalArgumentException.class, () -> p.setSegments(2));
        assertEquals(1, p.segments());
    }

    @Test
    void setSegmentsRejectsAPacketWhoseBytesAreAlreadyLaidOutOrCopied() {
        Packet laidOut = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, memory(3, 3 * LEN), OFF, LEN);
        laidOut.materialize();
        assertThrows(IllegalArgumentException.class, () -> laidOut.setSegments(3));
        assertEquals(1, laidOut.segments());
        Packet copied = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 4, false, memory(3, 3 * LEN), OFF, LEN);
        copied.retainPayload();
        assertThrows(IllegalArgumentException.class, () -> copied.setSegments(3));
        assertEquals(1, copied.segments());
    }

    // ------------------------------------------------------------------ materialize, retainPayload, copyFrom, release

    @Test
    void materializeOfATrainThrowsAndLeavesItUnmaterialized() {
        Packet train = ibTrain(0, true, memory(3, LEN), 3);
        assertThrows(IllegalStateException.class, train::materialize);
        assertThrows(IllegalStateException.class, train::corruptibleBits);
        assertThrows(IllegalStateException.class, () -> train.flipBit(0));
        assertFalse(train.isMaterialized());
        assertEquals(0, train.frameLength());
        assertEquals(3, train.segments());
        assertTrue(train.verifyCrcs(), "never laid out, so known good");
    }

    @Test
    void retainPayloadOfATrainCopiesEverySegmentBeforeTheSenderReusesItsMemory() {
        ByteBuffer mr = memory(5, LEN);
        Packet train = ibTrain(0x10, true, mr, 5);
        assertFalse(train.ownsPayload());
        assertSame(train, train.retainPayload());
        assertTrue(train.ownsPayload());
        assertNotSame(mr, train.payload);
        for (int i = 0; i < mr.capacity(); i++) {
            mr.put(i, (byte) 0xEE);              // the sender got its completion and reuses the memory
        }
        List<Packet> packets = splitAll(train, LinkLayer.INFINIBAND);
        for (int i = 0; i < 5; i++) {
            assertSegmentPayload(i, packets.get(i));
            assertEquals(0x10 + i, packets.get(i).psn(BTH));
        }
    }

    @Test
    void retainPayloadOfTheLargestTrainCopiesEveryByte() {
        int len = Packet.MAX_PAYLOAD;
        int n = Packet.MAX_SEGMENTS;
        ByteBuffer mr = ByteBuffer.allocateDirect(n * len);
        for (int i = 0; i < n * len; i++) {
            mr.put(i, (byte) (i * 13 + i / len));
        }
        Packet train = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND), 1, 2, 3, 0, true, mr, 0, len);
        train.setSegments(n);
        train.retainPayload();
        for (int i = 0; i < n * len; i++) {
            mr.put(i, (byte) 0);
        }
        List<Packet> packets = splitAll(train, LinkLayer.INFINIBAND);
        assertEquals(n, packets.size());
        for (int s = 0; s < n; s++) {
            byte[] b = payloadOf(packets.get(s));
            for (int i = 0; i < len; i++) {
                int at = s * len + i;
                if (b[i] != (byte) (at * 13 + at / len)) {
                    throw new AssertionError("segment " + s + " byte " + i);
                }
            }
        }
    }

    @Test
    void aRetainedTrainSplitsIntoPacketsThatMaterializeTheRightBytes() {
        ByteBuffer mr = memory(3, LEN);
        Packet train = ibTrain(0, false, mr, 3).retainPayload();
        mr.put(OFF + LEN, (byte) 0);
        List<Packet> packets = splitAll(train, LinkLayer.INFINIBAND);
        for (int i = 0; i < 3; i++) {
            Packet p = packets.get(i);
            p.materialize();
            assertTrue(p.verifyCrcs());
            assertSegmentPayload(i, p);
        }
    }

    @Test
    void copyFromOfATrainCopiesSegmentsHeaderAndPayloadReference() {
        ByteBuffer mr = memory(4, LEN);
        Packet train = ibTrain(0xFFFFFF, true, mr, 4);
        Packet copy = new Packet(LinkLayer.INFINIBAND).copyFrom(train);
        assertEquals(4, copy.segments());
        assertSame(mr, copy.payload);
        assertEquals(OFF, copy.payloadOffset);
        assertEquals(LEN, copy.payloadLength);
        assertArrayEquals(Arrays.copyOf(train.header, train.headerLength), Arrays.copyOf(copy.header, copy.headerLength));
        // Splitting the copy leaves the original where it was.
        List<Packet> fromCopy = splitAll(copy, LinkLayer.INFINIBAND);
        assertEquals(4, train.segments());
        assertEquals(0xFFFFFF, train.psn(BTH));
        assertEquals(OFF, train.payloadOffset);
        List<Packet> fromTrain = splitAll(train, LinkLayer.INFINIBAND);
        for (int i = 0; i < 4; i++) {
            Packet a = fromCopy.get(i);
            Packet b = fromTrain.get(i);
            assertArrayEquals(Arrays.copyOf(b.header, b.headerLength), Arrays.copyOf(a.header, a.headerLength));
            assertSegmentPayload(i, a);
        }
    }

    @Test
    void copyFromOfARetainedTrainCopiesEverySegmentsPayload() {
        ByteBuffer mr = memory(4, LEN);
        Packet train = ibTrain(7, true, mr, 4).retainPayload();
        Packet copy = new Packet(LinkLayer.INFINIBAND).copyFrom(train);
        assertEquals(4, copy.segments());
        assertTrue(copy.ownsPayload());
        assertNotSame(train.payload, copy.payload, "its own storage, not the original's");
        // Neither the sender's memory nor the original's storage matter to the copy any more.
        for (int i = 0; i < mr.capacity(); i++) {
            mr.put(i, (byte) 0);
        }
        train.release();
        List<Packet> packets = splitAll(copy, LinkLayer.INFINIBAND);
        for (int i = 0; i < 4; i++) {
            assertSegmentPayload(i, packets.get(i));
            assertEquals(7 + i, packets.get(i).psn(BTH));
        }
    }

    @Test
    void releaseResetsSegmentsToOneForThePooledPacket() {
        List<Packet> pool = new ArrayList<>();
        Packet p = Pkts.rcWriteMiddle(new Packet(LinkLayer.INFINIBAND, pool::add), 1, 2, 3, 4, false, memory(5, LEN), OFF,
                LEN);
        p.setSegments(5);
        p.retain();
        p.release();
        assertEquals(5, p.segments(), "still referenced: still a train");
        p.release();
        assertEquals(List.of(p), pool);
        assertSame(p, p.reuse());
        assertEquals(1, p.segments());
        // A split packet taken from a pool returns to it as a single packet as well.
        Packet train = ibTrain(0, false, memory(2, LEN), 2);
        Packet into = new Packet(LinkLayer.INFINIBAND, pool::add);
        train.splitFirst(into);
        into.release();
        assertSame(into, pool.get(1).reuse());
        assertEquals(1, into.segments());
        assertEquals(0, into.headerLength);
    }
}
