package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact known-answer vectors for each header, worked out by hand from the IBTA / RFC layouts
 * (the bit arithmetic is spelled out next to each vector), plus generated round trips.
 */
class HeadersTest {

    private static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    // ---------------------------------------------------------------- LRH

    @Test
    void lrhKnownAnswer() {
        // From the local packet of Mellanox's MPGA test data: 70 12 37 5c 00 0e 17 d2
        //   byte0 = VL 7 << 4 | LVer 0           = 0x70
        //   byte1 = SL 1 << 4 | rsv 00 | LNH 10  = 0x12
        //   DLID 0x375c, rsv 00000 | PktLen 14 (0x00e), SLID 0x17d2
        Lrh h = new Lrh();
        h.vl = 7;
        h.lver = 0;
        h.sl = 1;
        h.lnh = Lrh.LNH_IBA_LOCAL;
        h.dlid = 0x375C;
        h.packetLength = 14;
        h.slid = 0x17D2;
        byte[] expected = Hex.bytes("70 12 37 5c 00 0e 17 d2");
        byte[] buf = new byte[8];
        assertEquals(8, h.pack(buf, 0));
        assertArrayEquals(expected, buf);
        assertEquals(h, new Lrh().unpack(expected, 0));
    }

    @Test
    void lrhMaximaAndReservedBitsCleared() {
        //   byte0 = VL 15 | LVer 0 = 0xf0; byte1 = SL 15 | rsv 00 | LNH 11 = 0xf3
        //   word1 = rsv 00000 | PktLen 0x7ff (11 ones) -> 0x07ff, SLID 0x0001
        Lrh h = new Lrh();
        h.vl = 15;
        h.sl = 15;
        h.lnh = Lrh.LNH_IBA_GLOBAL;
        h.dlid = 0xFFFF;
        h.packetLength = 0x7FF;
        h.slid = 1;
        byte[] buf = filled(8, 0xFF); // reserved bits must be cleared, not inherited
        h.pack(buf, 0);
        assertArrayEquals(Hex.bytes("f0 f3 ff ff 07 ff 00 01"), buf);
        Lrh back = new Lrh().unpack(Hex.bytes("ff ff ff ff ff ff ff ff"), 0);
        assertEquals(15, back.vl);
        assertEquals(15, back.lver);
        assertEquals(3, back.lnh);
        assertEquals(0x7FF, back.packetLength); // the 5 reserved bits above are ignored
    }

    // ---------------------------------------------------------------- GRH / IPv6

    @Test
    void grhKnownAnswer() {
        // word0 = IPVer 6 << 28 | TClass 0xab << 20 | FlowLabel 0xcdef1 = 0x6abcdef1
        // word1 = PayLen 0x0120 << 16 | NxtHdr 0x1b << 8 | HopLmt 0x40  = 0x01201b40
        Grh h = new Grh();
        h.ipVersion = 6;
        h.trafficClass = 0xAB;
        h.flowLabel = 0xCDEF1;
        h.payloadLength = 0x120;
        h.nextHeader = Grh.NEXT_HEADER_IBA;
        h.hopLimit = 0x40;
        h.sgid = Hex.bytes("fe80 0000 0000 0000 0002 c903 0001 2345");
        h.dgid = Hex.bytes("ff02 0000 0000 0000 0000 0000 0000 0001");
        byte[] expected = Hex.bytes("6abcdef1 01201b40"
                + "fe800000 00000000 0002c903 00012345"
                + "ff020000 00000000 00000000 00000001");
        byte[] buf = new byte[40];
        assertEquals(40, h.pack(buf, 0));
        assertArrayEquals(expected, buf);
        assertEquals(h, new Grh().unpack(expected, 0));
    }

    @Test
    void grhAsRoceV2Ipv6Header() {
        // IPv6 header of a RoCEv2 packet: 6 | TC 0x68 (DSCP 26) | flow 0x12345; plen 40, next UDP, hop 64
        byte[] wire = Hex.bytes("66812345 00281140"
                + "fd000000 00000000 00000000 00000001 fd000000 00000000 00000000 00000002");
        Grh h = new Grh().unpack(wire, 0);
        assertEquals(6, h.ipVersion);
        assertEquals(0x68, h.trafficClass);
        assertEquals(0x12345, h.flowLabel);
        assertEquals(40, h.payloadLength);
        assertEquals(Grh.NEXT_HEADER_UDP, h.nextHeader);
        assertEquals(64, h.hopLimit);
        assertEquals(1, h.sgid[15]);
        assertEquals(2, h.dgid[15]);
        byte[] again = new byte[40];
        h.pack(again, 0);
        assertArrayEquals(wire, again);
    }

    // ---------------------------------------------------------------- BTH

    @Test
    void bthKnownAnswer() {
        // byte1 = SE 1 | M 1 | PadCnt 11 | TVer 0000 = 0xf0; word2 = A 1 | rsv 0000000 | PSN 0x123456
        Bth h = new Bth();
        h.opcode = Bth.OPCODE_UD_SEND_ONLY;
        h.solicitedEvent = true;
        h.migReq = true;
        h.padCount = 3;
        h.pkey = 0xFFFF;
        h.destQpn = 1;
        h.ackReq = true;
        h.psn = 0x123456;
        byte[] buf = filled(12, 0xFF);
        assertEquals(12, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("64 f0 ff ff 00 00 00 01 80 12 34 56"), buf);
        assertEquals(h, new Bth().unpack(buf, 0));
    }

    @Test
    void bthOfACapturedCongestionNotification() {
        // BTH bytes of the ConnectX-4 Lx CNP capture (scapy test/contrib/roce.uts)
        Bth h = new Bth().unpack(Hex.bytes("81 00 ff ff 40 00 01 18 00 00 00 00"), 0);
        assertEquals(Bth.OPCODE_ROCE_CNP, h.opcode);
        assertEquals(0xFFFF, h.pkey);
        assertEquals(0x40, h.resv8a);
        assertTrue(h.becn());
        assertFalse(h.fecn());
        assertEquals(0x118, h.destQpn);
        assertEquals(0, h.psn);
        assertFalse(h.ackReq);
        h.resv8a = Bth.RESV8A_FECN;
        assertTrue(h.fecn());
        assertFalse(h.becn());
    }

    // ---------------------------------------------------------------- DETH

    @Test
    void dethKnownAnswer() {
        // Q_Key 0x80010000 (the well-known GSI Q_Key), rsv 0x00, SrcQP 0x000001
        Deth h = new Deth();
        h.qkey = 0x80010000;
        h.srcQpn = 1;
        byte[] buf = filled(8, 0xFF);
        assertEquals(8, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("80 01 00 00 00 00 00 01"), buf);
        Deth back = new Deth().unpack(Hex.bytes("ff ff ff ff ff ab cd ef"), 0);
        assertEquals(0xFFFF_FFFF, back.qkey);
        assertEquals(0xABCDEF, back.srcQpn);
    }

    // ---------------------------------------------------------------- Ethernet, VLAN

    @Test
    void ethernetKnownAnswer() {
        EthHeader h = new EthHeader();
        h.dmac = Hex.bytes("001122334455");
        h.smac = Hex.bytes("66778899aabb");
        h.etherType = EthHeader.ETH_P_8021Q;
        byte[] buf = new byte[14];
        assertEquals(14, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("00 11 22 33 44 55 66 77 88 99 aa bb 81 00"), buf);
        // the Ethernet header of the ConnectX-4 Lx capture
        EthHeader cx = new EthHeader().unpack(Hex.bytes("e41d2dab2bc2 7cfe90643b32 0800"), 0);
        assertArrayEquals(Hex.bytes("e41d2dab2bc2"), cx.dmac);
        assertArrayEquals(Hex.bytes("7cfe90643b32"), cx.smac);
        assertEquals(EthHeader.ETH_P_IP, cx.etherType);
    }

    @Test
    void vlanKnownAnswer() {
        // TCI = PCP 3 << 13 | DEI 0 << 12 | VID 5 = 0x6005, then inner EtherType 0x0800
        VlanHeader h = new VlanHeader();
        h.tci = VlanHeader.tci(3, false, 5);
        assertEquals(0x6005, h.tci);
        h.etherType = EthHeader.ETH_P_IP;
        byte[] buf = new byte[4];
        assertEquals(4, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("60 05 08 00"), buf);
        VlanHeader back = new VlanHeader().unpack(Hex.bytes("f0 01 86 dd"), 0);
        assertEquals(7, back.pcp());
        assertTrue(back.dei());
        assertEquals(1, back.vid());
        assertEquals(EthHeader.ETH_P_IPV6, back.etherType);
        assertEquals(0xFFFF, VlanHeader.tci(7, true, 0xFFF));
        assertThrows(IllegalArgumentException.class, () -> VlanHeader.tci(8, false, 0));
        assertThrows(IllegalArgumentException.class, () -> VlanHeader.tci(0, false, 0x1000));
    }

    // ---------------------------------------------------------------- IPv4

    @Test
    void ipv4KnownAnswerWithChecksum() {
        // The classic worked example of the IPv4 header checksum (e.g. Wikipedia "IPv4 header checksum"):
        // 4500 0073 0000 4000 4011 [b861] c0a8 0001 c0a8 00c7, also recomputed with a one-off Python
        // RFC 1071 sum: 4500+0073+0000+4000+4011+c0a8+0001+c0a8+00c7 = 0x2479c; fold 0x479c + 2 =
        // 0x479e; ones' complement 0xb861.
        Ipv4Header h = new Ipv4Header();
        h.version = 4;
        h.ihl = 5;
        h.totalLength = 0x73;
        h.fragOff = Ipv4Header.IP_DF;
        h.ttl = 64;
        h.protocol = Ipv4Header.IPPROTO_UDP;
        h.saddr = 0xC0A80001;
        h.daddr = 0xC0A800C7;
        assertEquals(0xB861, h.computeChecksum());
        h.checksum = h.computeChecksum();
        byte[] buf = new byte[20];
        assertEquals(20, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7"), buf);
        assertEquals(0, Ipv4Header.internetChecksum(buf, 0, 20)); // a correct header sums to 0xffff
        assertEquals(h, new Ipv4Header().unpack(buf, 0));
    }

    @Test
    void ipv4ChecksumOfACapturedHeader() {
        // IPv4 header of the ConnectX-4 Lx CNP capture, checksum 0x9161 set by hardware
        byte[] wire = Hex.bytes("45c2 003c 718c 4000 4011 9161 0a00 1101 0a00 1201");
        Ipv4Header h = new Ipv4Header().unpack(wire, 0);
        assertEquals(0xC2, h.tos);
        assertEquals(0x3C, h.totalLength);
        assertEquals(0x718C, h.id);
        assertEquals(0x0A001101, h.saddr);
        assertEquals(0x0A001201, h.daddr);
        assertEquals(0x9161, h.checksum);
        assertEquals(0x9161, h.computeChecksum());
        assertEquals(0, Ipv4Header.internetChecksum(wire, 0, 20));
        assertTrue(h.toString().contains("10.0.17.1"));
    }

    @Test
    void internetChecksumRfc1071Example() {
        // RFC 1071 section 3: the bytes 00 01 f2 03 f4 f5 f6 f7 sum to 0xddf2; the checksum is ~0xddf2
        assertEquals(0x220D, Ipv4Header.internetChecksum(Hex.bytes("00 01 f2 03 f4 f5 f6 f7"), 0, 8));
        // odd length: the last byte is padded with a zero byte: ~(0x0001 + 0xf200) = 0x0dfe
        assertEquals(0x0DFE, Ipv4Header.internetChecksum(Hex.bytes("00 01 f2"), 0, 3));
        assertEquals(0xFFFF, Ipv4Header.internetChecksum(new byte[4], 0, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> Ipv4Header.internetChecksum(new byte[4], 2, 4));
    }

    // ---------------------------------------------------------------- UDP

    @Test
    void udpKnownAnswer() {
        // sport 49152 = 0xc000, dport 4791 = 0x12b7, length 44 = 0x002c, checksum 0
        UdpHeader h = new UdpHeader();
        h.sport = 0xC000;
        h.dport = UdpHeader.ROCE_V2_UDP_DPORT;
        h.length = 44;
        byte[] buf = new byte[8];
        assertEquals(8, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("c0 00 12 b7 00 2c 00 00"), buf);
        assertEquals(h, new UdpHeader().unpack(buf, 0));
    }

    // ---------------------------------------------------------------- table sanity

    @Test
    void tablesSpanTheirHeaderSizes() {
        assertEquals(Lrh.IB_LRH_BYTES, IbPack.byteLength(Lrh.TABLE));
        assertEquals(Grh.IB_GRH_BYTES, IbPack.byteLength(Grh.TABLE));
        assertEquals(Bth.IB_BTH_BYTES, IbPack.byteLength(Bth.TABLE));
        assertEquals(Deth.IB_DETH_BYTES, IbPack.byteLength(Deth.TABLE));
        assertEquals(EthHeader.IB_ETH_BYTES, IbPack.byteLength(EthHeader.TABLE));
        assertEquals(VlanHeader.IB_VLAN_BYTES, IbPack.byteLength(VlanHeader.TABLE));
        assertEquals(Ipv4Header.IB_IP4_BYTES, IbPack.byteLength(Ipv4Header.TABLE));
        assertEquals(UdpHeader.IB_UDP_BYTES, IbPack.byteLength(UdpHeader.TABLE));
        assertEquals(8, Lrh.IB_LRH_BYTES);
        assertEquals(40, Grh.IB_GRH_BYTES);
        assertEquals(12, Bth.IB_BTH_BYTES);
        assertEquals(8, Deth.IB_DETH_BYTES);
        assertEquals(14, EthHeader.IB_ETH_BYTES);
        assertEquals(4, VlanHeader.IB_VLAN_BYTES);
        assertEquals(20, Ipv4Header.IB_IP4_BYTES);
        assertEquals(8, UdpHeader.IB_UDP_BYTES);
    }

    @Test
    void tablesCoverEveryBitExactlyOnce() {
        assertCoversOnce(Lrh.TABLE, 8);
        assertCoversOnce(Grh.TABLE, 40);
        assertCoversOnce(Bth.TABLE, 12);
        assertCoversOnce(Deth.TABLE, 8);
        assertCoversOnce(EthHeader.TABLE, 14);
        assertCoversOnce(VlanHeader.TABLE, 4);
        assertCoversOnce(Ipv4Header.TABLE, 20);
        assertCoversOnce(UdpHeader.TABLE, 8);
    }

    private static <T> void assertCoversOnce(java.util.List<IbField<T>> table, int bytes) {
        int[] count = new int[bytes * 8];
        for (IbField<T> f : table) {
            for (int b = 0; b < f.sizeBits(); b++) {
                count[f.bitOffset() + b]++;
            }
        }
        for (int i = 0; i < count.length; i++) {
            assertEquals(1, count[i], "bit " + i);
        }
    }

    // ---------------------------------------------------------------- generated round trips

    private static final int ITERATIONS = 3_000;

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** Packs into a random background at a random offset, unpacks into a fresh object. */
    private static byte[] packAt(Random r, int size, int off, java.util.function.BiConsumer<byte[], Integer> pack) {
        byte[] buf = randomBytes(r, off + size + 3);
        pack.accept(buf, off);
        return buf;
    }

    @Test
    void lrhRoundTrips() {
        Random r = new Random(1);
        for (int i = 0; i < ITERATIONS; i++) {
            Lrh h = new Lrh();
            h.vl = r.nextInt(16);
            h.lver = r.nextInt(16);
            h.sl = r.nextInt(16);
            h.lnh = r.nextInt(4);
            h.dlid = r.nextInt(1 << 16);
            h.packetLength = r.nextInt(1 << 11);
            h.slid = r.nextInt(1 << 16);
            int off = r.nextInt(4);
            byte[] buf = packAt(r, 8, off, (b, o) -> h.pack(b, o));
            assertEquals(h, new Lrh().unpack(buf, off));
            // wider values are truncated to the field
            Lrh wide = h.copy();
            wide.packetLength |= r.nextInt(1 << 20) << 11;
            wide.dlid |= 0x10000;
            wide.pack(buf, off);
            assertEquals(h, new Lrh().unpack(buf, off));
        }
    }

    @Test
    void grhRoundTrips() {
        Random r = new Random(2);
        for (int i = 0; i < ITERATIONS; i++) {
            Grh h = new Grh();
            h.ipVersion = r.nextInt(16);
            h.trafficClass = r.nextInt(256);
            h.flowLabel = r.nextInt(1 << 20);
            h.payloadLength = r.nextInt(1 << 16);
            h.nextHeader = r.nextInt(256);
            h.hopLimit = r.nextInt(256);
            h.sgid = randomBytes(r, 16);
            h.dgid = randomBytes(r, 16);
            int off = r.nextInt(4);
            byte[] buf = packAt(r, 40, off, (b, o) -> h.pack(b, o));
            Grh back = new Grh().unpack(buf, off);
            assertEquals(h, back);
            assertEquals(h.hashCode(), back.hashCode());
            Grh c = h.copy();
            assertEquals(h, c);
            assertNotSame(h.sgid, c.sgid);
            c.sgid[0] ^= 1;
            assertNotEquals(h, c);
        }
    }

    @Test
    void bthRoundTrips() {
        Random r = new Random(3);
        for (int i = 0; i < ITERATIONS; i++) {
            Bth h = new Bth();
            h.opcode = r.nextInt(256);
            h.solicitedEvent = r.nextBoolean();
            h.migReq = r.nextBoolean();
            h.padCount = r.nextInt(4);
            h.tver = r.nextInt(16);
            h.pkey = r.nextInt(1 << 16);
            h.resv8a = r.nextInt(256);
            h.destQpn = r.nextInt(1 << 24);
            h.ackReq = r.nextBoolean();
            h.psn = r.nextInt(1 << 24);
            int off = r.nextInt(4);
            byte[] buf = packAt(r, 12, off, (b, o) -> h.pack(b, o));
            assertEquals(h, new Bth().unpack(buf, off));
            assertEquals(0, buf[off + 8] & 0x7F, "the 7 reserved bits after AckReq are cleared");
            assertEquals(h, h.copy());
        }
    }

    @Test
    void dethRoundTrips() {
        Random r = new Random(4);
        for (int i = 0; i < ITERATIONS; i++) {
            Deth h = new Deth();
            h.qkey = r.nextInt();
            h.srcQpn = r.nextInt(1 << 24);
            int off = r.nextInt(4);
            byte[] buf = packAt(r, 8, off, (b, o) -> h.pack(b, o));
            assertEquals(h, new Deth().unpack(buf, off));
            assertEquals(0, buf[off + 4], "reserved byte is cleared");
            assertEquals(h, h.copy());
        }
    }

    @Test
    void ethVlanUdpRoundTrip() {
        Random r = new Random(5);
        for (int i = 0; i < ITERATIONS; i++) {
            EthHeader e = new EthHeader();
            e.dmac = randomBytes(r, 6);
            e.smac = randomBytes(r, 6);
            e.etherType = r.nextInt(1 << 16);
            VlanHeader v = new VlanHeader();
            v.tci = r.nextInt(1 << 16);
            v.etherType = r.nextInt(1 << 16);
            UdpHeader u = new UdpHeader();
            u.sport = r.nextInt(1 << 16);
            u.dport = r.nextInt(1 << 16);
            u.length = r.nextInt(1 << 16);
            u.checksum = r.nextInt(1 << 16);
            int off = r.nextInt(4);
            byte[] buf = packAt(r, 14, off, (b, o) -> e.pack(b, o));
            assertEquals(e, new EthHeader().unpack(buf, off));
            assertArrayEquals(e.dmac, Arrays.copyOfRange(buf, off, off + 6));
            assertArrayEquals(e.smac, Arrays.copyOfRange(buf, off + 6, off + 12));
            buf = packAt(r, 4, off, (b, o) -> v.pack(b, o));
            assertEquals(v, new VlanHeader().unpack(buf, off));
            buf = packAt(r, 8, off, (b, o) -> u.pack(b, o));
            assertEquals(u, new UdpHeader().unpack(buf, off));
            assertEquals(e, e.copy());
            assertEquals(v, v.copy());
            assertEquals(u, u.copy());
        }
    }

    @Test
    void ipv4RoundTripsAndChecksumVerifies() {
        Random r = new Random(6);
        for (int i = 0; i < ITERATIONS; i++) {
            Ipv4Header h = new Ipv4Header();
            h.version = 4;
            h.ihl = 5;
            h.tos = r.nextInt(256);
            h.totalLength = r.nextInt(1 << 16);
            h.id = r.nextInt(1 << 16);
            h.fragOff = r.nextInt(1 << 16);
            h.ttl = r.nextInt(256);
            h.protocol = r.nextInt(256);
            h.saddr = r.nextInt();
            h.daddr = r.nextInt();
            h.checksum = h.computeChecksum();
            int off = r.nextInt(4);
            byte[] buf = packAt(r, 20, off, (b, o) -> h.pack(b, o));
            assertEquals(h, new Ipv4Header().unpack(buf, off));
            assertEquals(0, Ipv4Header.internetChecksum(buf, off, 20));
            assertEquals(h, h.copy());
        }
    }

    @Test
    void toStringsNameTheFields() {
        assertTrue(new Lrh().toString().startsWith("Lrh{"));
        assertTrue(new Grh().toString().contains("sgid="));
        assertTrue(new Bth().toString().contains("psn="));
        assertTrue(new Deth().toString().contains("qkey="));
        assertTrue(new EthHeader().toString().contains("00:00:00:00:00:00"));
        assertTrue(new VlanHeader().toString().contains("tci="));
        assertTrue(new UdpHeader().toString().contains("dport="));
    }
}
