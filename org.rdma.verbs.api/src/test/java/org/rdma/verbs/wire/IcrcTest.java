package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

/** ICRC known answers, masking rules, wire order and buffer variants. */
class IcrcTest {

    /**
     * Native IB local packet (LRH + BTH + RETH + 14-byte payload + 2 pad bytes, 52 bytes) and its
     * ICRC {@code 96 25 b7 5a}, both taken from the test data of Mellanox's MPGA packet generator
     * (OpenIB gen1 tree, 2004; arrays {@code test_array} and {@code test_array_vcrc}). Recomputed
     * with Python: {@code zlib.crc32} over the bytes with byte 0 |= 0xf0 and byte 12 = 0xff gives
     * 0x5ab72596, whose little-endian bytes are 96 25 b7 5a.
     */
    static final byte[] MPGA_LOCAL = Hex.bytes(
            "70 12 37 5c 00 0e 17 d2"                           // LRH: VL7 SL1 LNH2 DLID 375c PktLen 14 SLID 17d2
            + "0a 20 24 87 00 87 b1 b3 00 0d ec 2a"             // BTH: RC RDMA WRITE ONLY, pad 2
            + "01 71 0a 1c 01 5d 40 02 38 f2 7a 05 00 00 00 0e" // RETH
            + "bb 88 4d 85 fd 5c fb a4 72 8b c0 69 0e d4 00 00"); // payload + pad
    static final byte[] MPGA_LOCAL_ICRC = Hex.bytes("96 25 b7 5a");

    /**
     * The global variant from the same MPGA data ({@code test_array2}: LRH with LNH 3, a GRH, then
     * the same BTH/RETH/payload; 92 bytes). MPGA has no ICRC for it; the expected value was derived
     * with a one-off Python script: zlib.crc32 over 8 bytes of 0xff (the masked LRH), the GRH with
     * byte 0 |= 0x0f, bytes 1-3 = 0xff and byte 7 = 0xff, the BTH with byte 4 = 0xff, then the
     * rest, giving 0x46ec9314, sent as 14 93 ec 46.
     */
    static final byte[] MPGA_GLOBAL = Hex.bytes(
            "70 13 37 5c 00 18 17 d2"
            + "60 00 00 00 00 32 00 10"
            + "00 00 00 00 00 00 01 25 00 00 00 00 00 00 00 26"
            + "00 00 00 00 00 00 01 17 00 00 00 00 00 00 00 96"
            + "0a 20 24 87 00 87 b1 b3 00 0d ec 2a"
            + "01 71 0a 1c 01 5d 40 02 38 f2 7a 05 00 00 00 0e"
            + "bb 88 4d 85 fd 5c fb a4 72 8b c0 69 0e d4 00 00");
    static final byte[] MPGA_GLOBAL_ICRC = Hex.bytes("14 93 ec 46");

    /**
     * A RoCEv2 CNP captured on a ConnectX-4 Lx (hardware-generated ICRC), as published in scapy's
     * test/contrib/roce.uts: Ethernet | IPv4 (TOS c2, TTL 64) | UDP 0 -> 4791 | BTH opcode 0x81
     * with BECN | 16 reserved bytes | ICRC 82 fd 00 2a. zlib.crc32 of the masked IP..payload
     * prefixed by 8 x 0xff is 0x2a00fd82: the ICRC travels least significant byte first.
     */
    static final byte[] CX4_CNP_FRAME = Hex.bytes(
            "e41d 2dab 2bc2 7cfe 9064 3b32 0800 45c2"
            + "003c 718c 4000 4011 9161 0a00 1101 0a00"
            + "1201 0000 12b7 0028 0000 8100 ffff 4000"
            + "0118 0000 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 82fd 002a");

    /**
     * A RoCEv2-over-IPv6 UD SEND (IPv6 TC 0x68 flow 0x12345 hop 64, UDP checksum 0x1234, BTH, DETH,
     * 8-byte payload), built for this test. Expected ICRC derived with a one-off Python script
     * (zlib.crc32 over 8 x 0xff + the packet with IPv6 byte 0 |= 0x0f, bytes 1-3 and 7 = 0xff,
     * UDP bytes 6-7 = 0xff, BTH byte 4 = 0xff): 0x8b273c0a, sent as 0a 3c 27 8b.
     */
    static final byte[] V6_PACKET = Hex.bytes(
            "66812345 00281140"
            + "fd000000 00000000 00000000 00000001 fd000000 00000000 00000000 00000002"
            + "d3a1 12b7 0028 1234"
            + "6400ffff 00000001 00000007"
            + "80010000 00000001"
            + "0102030405060708");
    static final byte[] V6_ICRC = Hex.bytes("0a 3c 27 8b");

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    // ---------------------------------------------------------------- known answers

    @Test
    void ibLocalKnownAnswer() {
        assertEquals(0x5AB72596, Icrc.computeIb(MPGA_LOCAL, 0, MPGA_LOCAL.length));
        byte[] pkt = Arrays.copyOf(MPGA_LOCAL, 56);
        assertEquals(56, Icrc.appendIb(pkt, 0, 52));
        assertArrayEquals(MPGA_LOCAL_ICRC, Arrays.copyOfRange(pkt, 52, 56));
        assertTrue(Icrc.verifyIb(pkt, 0, 56));
        // LRH.PktLen 14 words = 56 bytes through the ICRC
        assertEquals(14 * 4, pkt.length);
    }

    @Test
    void ibGlobalKnownAnswer() {
        byte[] pkt = Arrays.copyOf(MPGA_GLOBAL, 96);
        Icrc.appendIb(pkt, 0, 92);
        assertArrayEquals(MPGA_GLOBAL_ICRC, Arrays.copyOfRange(pkt, 92, 96));
        assertTrue(Icrc.verifyIb(pkt, 0, 96));
        assertEquals(0x18 * 4, pkt.length); // LRH.PktLen 0x18
    }

    @Test
    void roceV2Ipv4HardwareCapture() {
        int ip = 14;
        int lenWithIcrc = CX4_CNP_FRAME.length - ip;
        assertTrue(Icrc.verifyRoceV2(CX4_CNP_FRAME, ip, lenWithIcrc));
        assertEquals(0x2A00FD82, Icrc.computeRoceV2(CX4_CNP_FRAME, ip, lenWithIcrc - 4));
        assertEquals(0x2A00FD82, Icrc.get(CX4_CNP_FRAME, CX4_CNP_FRAME.length - 4));
        byte[] copy = CX4_CNP_FRAME.clone();
        Arrays.fill(copy, copy.length - 4, copy.length, (byte) 0);
        Icrc.appendRoceV2(copy, ip, lenWithIcrc - 4);
        assertArrayEquals(CX4_CNP_FRAME, copy);
    }

    @Test
    void roceV2Ipv6KnownAnswer() {
        assertEquals(0x8B273C0A, Icrc.computeRoceV2(V6_PACKET, 0, V6_PACKET.length));
        byte[] pkt = concat(V6_PACKET, new byte[4]);
        assertEquals(80, Icrc.appendRoceV2(pkt, 0, 76));
        assertArrayEquals(V6_ICRC, Arrays.copyOfRange(pkt, 76, 80));
        assertTrue(Icrc.verifyRoceV2(pkt, 0, 80));
    }

    @Test
    void roceV1EqualsIbGlobalWithoutTheLrh() {
        // the GRH packet without its LRH: the LRH is all ones in the ICRC anyway
        byte[] grhOnward = Arrays.copyOfRange(MPGA_GLOBAL, 8, MPGA_GLOBAL.length);
        assertEquals(Icrc.computeIb(MPGA_GLOBAL, 0, 92), Icrc.computeRoceV1(grhOnward, 0, grhOnward.length));
        byte[] pkt = Arrays.copyOf(grhOnward, grhOnward.length + 4);
        Icrc.appendRoceV1(pkt, 0, grhOnward.length);
        assertArrayEquals(MPGA_GLOBAL_ICRC, Arrays.copyOfRange(pkt, grhOnward.length, pkt.length));
        assertTrue(Icrc.verifyRoceV1(pkt, 0, pkt.length));
        pkt[30] ^= 1; // SGID
        assertFalse(Icrc.verifyRoceV1(pkt, 0, pkt.length));
    }

    @Test
    void rxeSeedIsTheCrcOfTheMaskedLrh() {
        // rxe_icrc.c starts crc32_le() at 0xdebb20e3 instead of prepending 8 bytes of 0xff: that is
        // the raw CRC-32 register after those 8 bytes, i.e. the complement of CRC32's result.
        CRC32 c = new CRC32();
        c.update(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
        assertEquals(0xDEBB20E3L, ~c.getValue() & 0xFFFF_FFFFL);
    }

    @Test
    void wireOrderIsLeastSignificantByteFirst() {
        byte[] b = new byte[6];
        Icrc.put(0x2A00FD82, b, 1);
        assertArrayEquals(Hex.bytes("00 82 fd 00 2a 00"), b);
        assertEquals(0x2A00FD82, Icrc.get(b, 1));
        ByteBuffer bb = ByteBuffer.allocate(6);
        Icrc.put(0x8B273C0A, bb, 2);
        assertEquals(0x8B273C0A, Icrc.get(bb, 2));
        byte[] out = new byte[6];
        bb.get(0, out);
        assertArrayEquals(Hex.bytes("00 00 0a 3c 27 8b"), out);
        assertThrows(IndexOutOfBoundsException.class, () -> Icrc.put(0, new byte[3], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> Icrc.get(new byte[5], 2));
    }

    // ---------------------------------------------------------------- masking: named variant fields

    private static int ib(byte[] p) {
        return Icrc.computeIb(p, 0, p.length);
    }

    private static int v2(byte[] p) {
        return Icrc.computeRoceV2(p, 0, p.length);
    }

    @Test
    void ibLocalVariantFieldsAreMasked() {
        int ref = ib(MPGA_LOCAL);
        byte[] p = MPGA_LOCAL.clone();
        p[0] = (byte) ((p[0] & 0x0F) | 0x30); // VL 7 -> 3
        assertEquals(ref, ib(p));
        p[12] = (byte) 0xC0;                  // BTH resv8a: FECN + BECN
        assertEquals(ref, ib(p));
        // but LVer, SL, DLID, PktLen, SLID, P_Key are covered
        int[][] invariant = {{0, 0x01}, {1, 0x10}, {2, 0x01}, {5, 0x01}, {7, 0x01}, {10, 0x01}};
        for (int[] flip : invariant) {
            byte[] q = MPGA_LOCAL.clone();
            q[flip[0]] ^= (byte) flip[1];
            assertNotEquals(ref, ib(q), "byte " + flip[0]);
        }
    }

    @Test
    void ibGlobalVariantFieldsAreMasked() {
        int ref = ib(MPGA_GLOBAL);
        byte[] p = MPGA_GLOBAL.clone();
        p[0] = (byte) 0x0F;  // VL 0, LVer 15
        p[1] = (byte) 0xF3;  // SL 15 (LNH kept)
        p[2] = 0x12;         // DLID
        p[3] = 0x34;
        p[4] = 0x07;         // PktLen
        p[6] = 0x00;         // SLID
        p[7] = 0x01;
        assertEquals(ref, ib(p), "the whole LRH is variant when a GRH is present");
        p[8] = 0x6F;         // TClass high nibble
        p[9] = (byte) 0xA5;  // TClass low nibble + flow label
        p[10] = 0x12;
        p[11] = 0x34;
        p[15] = 0x01;        // hop limit
        p[48 + 4] = 0x40;    // BTH resv8a (BECN)
        assertEquals(ref, ib(p));
        // IPVer, PayLen, NxtHdr, SGID, DGID are covered
        int[] invariant = {8, 12, 13, 14, 16, 31, 32, 47};
        for (int i : invariant) {
            byte[] q = MPGA_GLOBAL.clone();
            q[i] ^= (byte) (i == 8 ? 0x10 : 0x01);
            assertNotEquals(ref, ib(q), "byte " + i);
        }
    }

    @Test
    void roceV2Ipv4VariantFieldsAreMasked() {
        byte[] ipOnward = Arrays.copyOfRange(CX4_CNP_FRAME, 14, CX4_CNP_FRAME.length - 4);
        int ref = v2(ipOnward);
        byte[] p = ipOnward.clone();
        p[1] = 0x00;                 // TOS (DSCP/ECN)
        p[8] = 0x01;                 // TTL
        p[10] = 0x12;                // header checksum
        p[11] = 0x34;
        p[26] = (byte) 0xAB;         // UDP checksum
        p[27] = (byte) 0xCD;
        p[28 + 4] = (byte) 0x80;     // BTH resv8a: FECN instead of BECN
        assertEquals(ref, v2(p));
        int[] invariant = {2, 3, 4, 5, 6, 7, 9, 12, 19, 20, 21, 22, 23, 24, 25, 28, 31, 40};
        for (int i : invariant) {
            byte[] q = ipOnward.clone();
            q[i] ^= 0x01;
            assertNotEquals(ref, v2(q), "byte " + i);
        }
    }

    @Test
    void roceV2Ipv6VariantFieldsAreMasked() {
        int ref = v2(V6_PACKET);
        byte[] p = V6_PACKET.clone();
        p[0] = 0x60;                 // TClass high nibble
        p[1] = 0x00;                 // TClass low nibble + flow label
        p[2] = 0x00;
        p[3] = 0x00;
        p[7] = 0x01;                 // hop limit
        p[46] = 0;                   // UDP checksum
        p[47] = 0;
        p[48 + 4] = (byte) 0xC0;     // BTH resv8a
        assertEquals(ref, v2(p));
        int[] invariant = {4, 5, 6, 8, 23, 24, 39, 40, 41, 42, 43, 44, 45, 48, 51, 53, 60, 75};
        for (int i : invariant) {
            byte[] q = V6_PACKET.clone();
            q[i] ^= 0x01;
            assertNotEquals(ref, v2(q), "byte " + i);
        }
    }

    // ---------------------------------------------------------------- masking: every single bit

    /** Variant (masked) bits per byte, from the start of the given layout. */
    private static byte[] variantMask(int len, int... byteAndMask) {
        byte[] m = new byte[len];
        for (int i = 0; i < byteAndMask.length; i += 2) {
            m[byteAndMask[i]] = (byte) byteAndMask[i + 1];
        }
        return m;
    }

    private interface Crc {
        int compute(byte[] p);
    }

    /** Flips every bit; variant bits must not change the ICRC, all others must (or be rejected). */
    private static void everyBit(byte[] pkt, byte[] variant, byte[] skip, Crc crc) {
        int ref = crc.compute(pkt);
        for (int i = 0; i < pkt.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                int m = 1 << bit;
                if (i < skip.length && (skip[i] & m) != 0) {
                    continue;
                }
                byte[] q = pkt.clone();
                q[i] ^= (byte) m;
                Integer got;
                try {
                    got = crc.compute(q);
                } catch (IllegalArgumentException rejected) {
                    got = null;
                }
                boolean isVariant = i < variant.length && (variant[i] & m) != 0;
                if (isVariant) {
                    assertEquals(Integer.valueOf(ref), got, "variant byte " + i + " bit " + bit);
                } else {
                    assertNotEquals(Integer.valueOf(ref), got, "invariant byte " + i + " bit " + bit);
                }
            }
        }
    }

    @Test
    void everyBitOfAnIbLocalPacket() {
        // variant: LRH VL (byte 0, top nibble), BTH resv8a (byte 12). The LNH bits select the layout;
        // flipping them is rejected or re-parses, so they are checked in ibLnhSelectsTheLayout.
        everyBit(MPGA_LOCAL, variantMask(13, 0, 0xF0, 12, 0xFF), variantMask(2, 1, 0x03), IcrcTest::ib);
    }

    @Test
    void everyBitOfAnIbGlobalPacket() {
        everyBit(MPGA_GLOBAL,
                variantMask(53, 0, 0xFF, 1, 0xFF, 2, 0xFF, 3, 0xFF, 4, 0xFF, 5, 0xFF, 6, 0xFF, 7, 0xFF,
                        8, 0x0F, 9, 0xFF, 10, 0xFF, 11, 0xFF, 15, 0xFF, 52, 0xFF),
                variantMask(2, 1, 0x03), IcrcTest::ib);
    }

    @Test
    void everyBitOfARoceV2Ipv4Packet() {
        byte[] ipOnward = Arrays.copyOfRange(CX4_CNP_FRAME, 14, CX4_CNP_FRAME.length - 4);
        everyBit(ipOnward, variantMask(33, 1, 0xFF, 8, 0xFF, 10, 0xFF, 11, 0xFF, 26, 0xFF, 27, 0xFF, 32, 0xFF),
                new byte[0], IcrcTest::v2);
    }

    @Test
    void everyBitOfARoceV2Ipv6Packet() {
        everyBit(V6_PACKET, variantMask(53, 0, 0x0F, 1, 0xFF, 2, 0xFF, 3, 0xFF, 7, 0xFF, 46, 0xFF, 47, 0xFF, 52, 0xFF),
                new byte[0], IcrcTest::v2);
    }

    @Test
    void ibLnhSelectsTheLayout() {
        byte[] p = MPGA_LOCAL.clone();
        p[1] &= ~3; // LNH raw: no ICRC
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ib(p));
        assertTrue(e.getMessage().contains("raw"), e.getMessage());
        p[1] |= 1;  // LNH IP (raw IPv6)
        assertThrows(IllegalArgumentException.class, () -> ib(p));
        // the same bytes read as global: LRH and GRH-position fields are masked, result differs
        byte[] g = MPGA_GLOBAL.clone();
        g[1] = (byte) ((g[1] & ~3) | Lrh.LNH_IBA_LOCAL);
        assertNotEquals(ib(MPGA_GLOBAL), ib(g));
    }

    @Test
    void ipv4OptionsAreCoveredAndStillMasked() {
        // IHL 6: a 4-byte option (NOP NOP NOP EOL) between the IPv4 header and UDP
        byte[] ipOnward = Arrays.copyOfRange(CX4_CNP_FRAME, 14, CX4_CNP_FRAME.length - 4);
        byte[] withOpt = new byte[ipOnward.length + 4];
        System.arraycopy(ipOnward, 0, withOpt, 0, 20);
        System.arraycopy(Hex.bytes("01 01 01 00"), 0, withOpt, 20, 4);
        System.arraycopy(ipOnward, 20, withOpt, 24, ipOnward.length - 20);
        withOpt[0] = 0x46;
        everyBit(withOpt, variantMask(37, 1, 0xFF, 8, 0xFF, 10, 0xFF, 11, 0xFF, 30, 0xFF, 31, 0xFF, 36, 0xFF),
                variantMask(1, 0, 0x0F), IcrcTest::v2);
    }

    // ---------------------------------------------------------------- argument checking

    @Test
    void rejectsShortAndMalformedInput() {
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeIb(MPGA_LOCAL, 0, 19));
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeIb(MPGA_GLOBAL, 0, 59));
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeIb(MPGA_LOCAL, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> Icrc.computeIb(MPGA_LOCAL, 1, 52));
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeRoceV1(MPGA_GLOBAL, 8, 51));
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeRoceV2(V6_PACKET, 0, 59));
        byte[] v4 = Arrays.copyOfRange(CX4_CNP_FRAME, 14, CX4_CNP_FRAME.length - 4);
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeRoceV2(v4, 0, 39));
        assertThrows(IllegalArgumentException.class, () -> Icrc.computeRoceV2(v4, 0, 0));
        byte[] bad = v4.clone();
        bad[0] = 0x55;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v2(bad));
        assertTrue(e.getMessage().contains("IP version 5"), e.getMessage());
        bad[0] = 0x44;
        e = assertThrows(IllegalArgumentException.class, () -> v2(bad));
        assertTrue(e.getMessage().contains("IHL 4"), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> Icrc.computeRoceV2(ByteBuffer.wrap(v4), 0, v4.length + 1));
    }

    @Test
    void verifyDetectsCorruption() {
        byte[] pkt = Arrays.copyOf(MPGA_LOCAL, 56);
        Icrc.appendIb(pkt, 0, 52);
        for (int i : new int[] {2, 20, 40, 51, 52, 55}) {
            byte[] q = pkt.clone();
            q[i] ^= 0x20;
            assertFalse(Icrc.verifyIb(q, 0, 56), "byte " + i);
        }
        byte[] frame = CX4_CNP_FRAME.clone();
        frame[frame.length - 1] ^= 1;
        assertFalse(Icrc.verifyRoceV2(frame, 14, frame.length - 14));
    }

    // ---------------------------------------------------------------- ByteBuffer variants

    @Test
    void byteBufferVariantsMatchArrays() {
        byte[] ipOnward = Arrays.copyOfRange(CX4_CNP_FRAME, 14, CX4_CNP_FRAME.length);
        Random r = new Random(7);
        for (boolean direct : new boolean[] {false, true}) {
            for (int pad : new int[] {0, 3}) {
                ByteBuffer bb = direct ? ByteBuffer.allocateDirect(pad + 200) : ByteBuffer.allocate(pad + 200);
                bb.put(pad, MPGA_GLOBAL);
                bb.position(5).limit(pad + MPGA_GLOBAL.length + 7);
                assertEquals(ib(MPGA_GLOBAL), Icrc.computeIb(bb, pad, MPGA_GLOBAL.length));
                assertEquals(5, bb.position());
                assertEquals(pad + MPGA_GLOBAL.length + 7, bb.limit());

                bb.limit(bb.capacity()).position(0);
                bb.put(pad, MPGA_LOCAL);
                Icrc.put(ib(MPGA_LOCAL), bb, pad + 52);
                assertTrue(Icrc.verifyIb(bb, pad, 56));
                assertEquals(ib(MPGA_LOCAL), Icrc.computeIb(bb.asReadOnlyBuffer(), pad, 52));

                bb.put(pad, ipOnward);
                bb.position(17).limit(150);
                assertTrue(Icrc.verifyRoceV2(bb, pad, ipOnward.length));
                assertEquals(v2(V6_PACKET), Icrc.computeRoceV2(ByteBuffer.wrap(concat(new byte[pad], V6_PACKET)), pad, 76));
                assertEquals(17, bb.position());
                assertEquals(150, bb.limit());
            }
        }
        // random payloads through both paths
        for (int i = 0; i < 200; i++) {
            byte[] p = Arrays.copyOf(V6_PACKET, 60 + r.nextInt(200));
            for (int j = 60; j < p.length; j++) {
                p[j] = (byte) r.nextInt();
            }
            assertEquals(v2(p), Icrc.computeRoceV2(ByteBuffer.wrap(p), 0, p.length));
            assertEquals(v2(p), Icrc.computeRoceV2(ByteBuffer.allocateDirect(p.length).put(0, p), 0, p.length));
        }
    }

    // ---------------------------------------------------------------- whole packets built with IbUdHeader

    @Test
    void fullIbUdPacketWithIcrcAndVcrc() {
        IbUdHeader h = IbUdHeaderTest.ibLocal();
        int payload = 256;
        byte[] pkt = new byte[h.packedLength() + payload + 4 + 2];
        int n = h.pack(pkt, 0);
        for (int i = 0; i < payload; i++) {
            pkt[n + i] = (byte) i;
        }
        int withIcrc = Icrc.appendIb(pkt, 0, n + payload);
        assertEquals(h.lrh.packetLength * 4, withIcrc, "LRH.PktLen counts LRH through ICRC");
        int total = Vcrc.append(pkt, 0, withIcrc);
        assertEquals(pkt.length, total);
        assertTrue(Icrc.verifyIb(pkt, 0, withIcrc));
        assertTrue(Vcrc.verify(pkt, 0, total));
        // a switch moves the packet to another VL: VCRC must be recomputed, ICRC stays valid
        pkt[0] = (byte) 0x50;
        assertTrue(Icrc.verifyIb(pkt, 0, withIcrc));
        assertFalse(Vcrc.verify(pkt, 0, total));
        Vcrc.append(pkt, 0, withIcrc);
        assertTrue(Vcrc.verify(pkt, 0, total));
        IbUdHeader back = new IbUdHeader();
        assertEquals(28, back.unpack(pkt, 0));
        assertEquals(5, back.lrh.vl);
    }

    @Test
    void fullRoceV2PacketSurvivesRouting() {
        IbUdHeader h = IbUdHeaderTest.roceV2Ipv4Vlan();
        int payload = 256;
        byte[] frame = new byte[h.packedLength() + payload + 4];
        int n = h.pack(frame, 0);
        int ip = 18;
        Icrc.appendRoceV2(frame, ip, n - ip + payload);
        assertEquals(h.ip4.totalLength, frame.length - ip, "IPv4 total length runs through the ICRC");
        assertTrue(Icrc.verifyRoceV2(frame, ip, frame.length - ip));
        // a router decrements the TTL, remarks DSCP/ECN and fixes the header checksum
        IbUdHeader routed = new IbUdHeader();
        routed.unpackEth(frame, 0);
        routed.ip4.ttl--;
        routed.ip4.tos = 0x03;
        routed.ip4.checksum = routed.ipv4Checksum();
        routed.ip4.pack(frame, ip);
        assertEquals(0, Ipv4Header.internetChecksum(frame, ip, 20));
        assertTrue(Icrc.verifyRoceV2(frame, ip, frame.length - ip));
    }

    @Test
    void perThreadStateIsIndependent() throws Exception {
        byte[] ipOnward = Arrays.copyOfRange(CX4_CNP_FRAME, 14, CX4_CNP_FRAME.length - 4);
        int a = ib(MPGA_GLOBAL);
        int b = v2(V6_PACKET);
        int c = v2(ipOnward);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        if (ib(MPGA_GLOBAL) != a || v2(V6_PACKET) != b || v2(ipOnward) != c) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
