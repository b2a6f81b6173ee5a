package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/** Tests of {@code ib_ud_header_init/pack/unpack} and {@code ib_ud_ip4_csum}. */
class IbUdHeaderTest {

    // ---------------------------------------------------------------- init: the kernel's lengths

    @Test
    void initNativeLocal() {
        IbUdHeader h = new IbUdHeader().init(256, true, false, false, false, 0, false, false);
        assertTrue(h.lrhPresent);
        assertFalse(h.grhPresent || h.ethPresent || h.vlanPresent || h.ipv4Present || h.udpPresent || h.immediatePresent);
        assertEquals(0, h.lrh.lver);
        assertEquals(Lrh.LNH_IBA_LOCAL, h.lrh.lnh);
        // (LRH 8 + BTH 12 + DETH 8 + 256 + ICRC 4 + 3) / 4 = 291 / 4 = 72 words
        assertEquals(72, h.lrh.packetLength);
        assertEquals(Bth.OPCODE_UD_SEND_ONLY, h.bth.opcode);
        assertEquals(0, h.bth.padCount);
        assertEquals(0, h.bth.tver);
        assertEquals(28, h.packedLength());
    }

    @Test
    void initNativeGlobalWithImmediate() {
        IbUdHeader h = new IbUdHeader().init(13, true, false, false, true, 0, false, true);
        assertTrue(h.grhPresent);
        assertEquals(Lrh.LNH_IBA_GLOBAL, h.lrh.lnh);
        // (8 + 12 + 8 + 40 + 13 + 4 + 3) / 4 = 88 / 4 = 22 (the kernel does not count the immediate data)
        assertEquals(22, h.lrh.packetLength);
        assertEquals(6, h.grh.ipVersion);
        // (12 + 8 + 13 + 4 + 3) & ~3 = 40
        assertEquals(40, h.grh.payloadLength);
        assertEquals(Grh.NEXT_HEADER_IBA, h.grh.nextHeader);
        assertEquals(Bth.OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE, h.bth.opcode);
        assertEquals(3, h.bth.padCount); // (4 - 13) & 3
        assertEquals(72, h.packedLength());
    }

    @Test
    void initPadCounts() {
        int[] expected = {0, 3, 2, 1, 0, 3, 2, 1};
        for (int p = 0; p < expected.length; p++) {
            assertEquals(expected[p], new IbUdHeader().init(p, true, false, false, false, 0, false, false).bth.padCount);
        }
        // packet length rounds up to whole words: 8+12+8+1+4 = 33 bytes -> 9 words
        assertEquals(9, new IbUdHeader().init(1, true, false, false, false, 0, false, false).lrh.packetLength);
        assertEquals(8, new IbUdHeader().init(0, true, false, false, false, 0, false, false).lrh.packetLength);
    }

    @Test
    void initRoceV2Ipv4() {
        IbUdHeader h = new IbUdHeader().init(256, false, true, true, true, 4, true, false);
        assertFalse(h.lrhPresent);
        assertTrue(h.ethPresent && h.vlanPresent && h.ipv4Present && h.udpPresent);
        assertFalse(h.grhPresent, "an IP version overrides grh_present");
        assertEquals(EthHeader.ETH_P_8021Q, h.eth.etherType);
        assertEquals(4, h.ip4.version);
        assertEquals(5, h.ip4.ihl);
        // 20 + 8 + 12 + 8 + 256 + 4 = 308
        assertEquals(308, h.ip4.totalLength);
        assertEquals(Ipv4Header.IPPROTO_UDP, h.ip4.protocol);
        assertEquals(0, h.ip4.ttl, "like the kernel, TTL is the caller's business");
        // 8 + 12 + 8 + 256 + 4 = 288
        assertEquals(288, h.udp.length);
        assertEquals(0, h.lrh.packetLength);
        assertEquals(66, h.packedLength());
    }

    @Test
    void initRoceV2Ipv6() {
        IbUdHeader h = new IbUdHeader().init(255, false, true, false, false, 6, true, true);
        assertTrue(h.grhPresent, "IPv6 is carried in the GRH");
        assertFalse(h.ipv4Present);
        assertEquals(6, h.grh.ipVersion);
        // (8 + 12 + 8 + 255 + 4 + 3) & ~3 = 290 & ~3 = 288
        assertEquals(288, h.grh.payloadLength);
        assertEquals(Grh.NEXT_HEADER_UDP, h.grh.nextHeader);
        // 8 + 12 + 8 + 255 + 4 = 287: UDP length is not rounded
        assertEquals(287, h.udp.length);
        assertEquals(1, h.bth.padCount);
        assertEquals(0, h.eth.etherType, "without VLAN the caller sets the EtherType");
    }

    @Test
    void initRoceV1() {
        IbUdHeader h = new IbUdHeader().init(100, false, true, false, true, 0, false, false);
        assertTrue(h.grhPresent);
        assertEquals(Grh.NEXT_HEADER_IBA, h.grh.nextHeader);
        assertEquals((12 + 8 + 100 + 4 + 3) & ~3, h.grh.payloadLength);
        assertFalse(h.udpPresent);
    }

    @Test
    void initClearsPreviousContent() {
        IbUdHeader h = new IbUdHeader().init(16, true, false, false, true, 0, false, true);
        h.deth.qkey = 7;
        h.grh.hopLimit = 9;
        h.immediateData = 5;
        h.init(16, true, false, false, false, 0, false, false);
        assertEquals(new IbUdHeader().init(16, true, false, false, false, 0, false, false), h);
        assertEquals(0, h.deth.qkey);
    }

    @Test
    void initRejectsWhatTheKernelRejects() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new IbUdHeader().init(0, false, true, false, false, 0, true, false));
        assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
        assertTrue(e.getMessage().contains("UDP"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new IbUdHeader().init(0, false, true, false, false, 5, false, false));
        assertTrue(e.getMessage().startsWith("EINVAL: ") && e.getMessage().contains("IP version"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new IbUdHeader().init(-1, true, false, false, false, 0, false, false));
        assertTrue(e.getMessage().startsWith("EINVAL: ") && e.getMessage().contains("payload"), e.getMessage());
    }

    // ---------------------------------------------------------------- full packets, byte for byte

    /** IB, LRH + BTH + DETH (a QP1 MAD as mlx4 would send it). */
    static IbUdHeader ibLocal() {
        IbUdHeader h = new IbUdHeader().init(256, true, false, false, false, 0, false, false);
        h.lrh.dlid = 0x0001;
        h.lrh.slid = 0x0002;
        h.bth.pkey = 0xFFFF;
        h.bth.destQpn = 1;
        h.deth.qkey = 0x80010000;
        h.deth.srcQpn = 1;
        return h;
    }

    static final String IB_LOCAL_WIRE =
            // LRH: VL0|LVer0, SL0|LNH2, DLID 0001, PktLen 72 = 0x0048, SLID 0002
            "00 02 00 01 00 48 00 02"
            // BTH: UD SEND_ONLY 0x64, SE0 M0 Pad0 TVer0, P_Key ffff, resv8a 00, QP 000001, A0, PSN 0
            + "64 00 ff ff 00 00 00 01 00 00 00 00"
            // DETH: Q_Key 80010000, rsv 00, SrcQP 000001
            + "80 01 00 00 00 00 00 01";

    @Test
    void packIbLocal() {
        IbUdHeader h = ibLocal();
        byte[] buf = new byte[40];
        Arrays.fill(buf, (byte) 0xCC);
        assertEquals(28, h.pack(buf, 2));
        assertArrayEquals(Hex.bytes(IB_LOCAL_WIRE), Arrays.copyOfRange(buf, 2, 30));
        assertEquals((byte) 0xCC, buf[1]);
        assertEquals((byte) 0xCC, buf[30]);
        IbUdHeader back = new IbUdHeader();
        assertEquals(28, back.unpack(buf, 2));
        assertEquals(h, back);
    }

    /** IB with GRH and immediate data; 13-byte payload. */
    static IbUdHeader ibGlobal() {
        IbUdHeader h = new IbUdHeader().init(13, true, false, false, true, 0, false, true);
        h.lrh.vl = 2;
        h.lrh.sl = 5;
        h.lrh.dlid = 0xC001;
        h.lrh.slid = 0x0017;
        h.grh.trafficClass = 0xA5;
        h.grh.flowLabel = 0x54321;
        h.grh.hopLimit = 0x3F;
        h.grh.sgid = Hex.bytes("fe80 0000 0000 0000 0002 c903 00ab cdef");
        h.grh.dgid = Hex.bytes("ff12 401b ffff 0000 0000 0000 ffff ffff");
        h.bth.solicitedEvent = true;
        h.bth.pkey = 0x8001;
        h.bth.destQpn = 0xFFFFFF;
        h.bth.psn = 0xABCDEF;
        h.deth.qkey = 0x12345678;
        h.deth.srcQpn = 0xABC;
        h.immediateData = 0xDEADBEEF;
        return h;
    }

    static final String IB_GLOBAL_WIRE =
            // LRH: VL2|LVer0 = 20, SL5|rsv|LNH3 = 53, DLID c001, PktLen 22 = 0x0016, SLID 0017
            "20 53 c0 01 00 16 00 17"
            // GRH: 6<<28 | a5<<20 | 54321 = 6a554321; PayLen 40 = 0028, NxtHdr 1b, HopLmt 3f
            + "6a 55 43 21 00 28 1b 3f"
            + "fe80 0000 0000 0000 0002 c903 00ab cdef"
            + "ff12 401b ffff 0000 0000 0000 ffff ffff"
            // BTH: 65, SE1|M0|Pad 3|TVer0 = 1011 0000 = b0, P_Key 8001, 00 ffffff, A0 00, PSN abcdef
            + "65 b0 80 01 00 ff ff ff 00 ab cd ef"
            // DETH: Q_Key 12345678, 00, SrcQP 000abc; then the immediate data, big-endian
            + "12 34 56 78 00 00 0a bc"
            + "de ad be ef";

    @Test
    void packIbGlobalWithImmediate() {
        IbUdHeader h = ibGlobal();
        byte[] buf = new byte[h.packedLength()];
        assertEquals(72, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes(IB_GLOBAL_WIRE), buf);
        IbUdHeader back = new IbUdHeader();
        assertEquals(72, back.unpack(buf, 0));
        assertEquals(h, back);
        assertEquals(0xDEADBEEF, back.immediateData);
    }

    /** RoCEv2 over IPv4 with an 802.1Q tag; 256-byte payload. */
    static IbUdHeader roceV2Ipv4Vlan() {
        IbUdHeader h = new IbUdHeader().init(256, false, true, true, false, 4, true, false);
        h.eth.dmac = Hex.bytes("001122334455");
        h.eth.smac = Hex.bytes("66778899aabb");
        h.vlan.tci = VlanHeader.tci(3, false, 5);
        h.vlan.etherType = EthHeader.ETH_P_IP;
        h.ip4.tos = 0x68;
        h.ip4.id = 0x1234;
        h.ip4.fragOff = Ipv4Header.IP_DF;
        h.ip4.ttl = 64;
        h.ip4.saddr = 0xC0A8010A; // 192.168.1.10
        h.ip4.daddr = 0xC0A80114; // 192.168.1.20
        h.ip4.checksum = h.ipv4Checksum();
        h.udp.sport = 0xC000;
        h.udp.dport = UdpHeader.ROCE_V2_UDP_DPORT;
        h.bth.pkey = 0xFFFF;
        h.bth.destQpn = 1;
        h.bth.psn = 0x10;
        h.deth.qkey = 0x80010000;
        h.deth.srcQpn = 1;
        return h;
    }

    static final String ROCE_V2_IPV4_VLAN_WIRE =
            "00 11 22 33 44 55 66 77 88 99 aa bb 81 00" // Ethernet, TPID 8100
            + "60 05 08 00"                              // PCP 3, VID 5, IPv4
            // IPv4: 45, TOS 68, total 308 = 0134, id 1234, DF 4000, TTL 40, UDP 11, csum a3ae,
            // 192.168.1.10, 192.168.1.20. Checksum by hand: 4568+0134+1234+4000+4011+c0a8+010a
            // +c0a8+0114 = 0x25c4f; fold 0x5c4f + 2 = 0x5c51; ~ = 0xa3ae (Python RFC 1071 agrees)
            + "45 68 01 34 12 34 40 00 40 11 a3 ae c0 a8 01 0a c0 a8 01 14"
            // UDP: 49152 -> 4791, length 288 = 0120, checksum 0
            + "c0 00 12 b7 01 20 00 00"
            + "64 00 ff ff 00 00 00 01 00 00 00 10"
            + "80 01 00 00 00 00 00 01";

    @Test
    void packRoceV2Ipv4WithVlan() {
        IbUdHeader h = roceV2Ipv4Vlan();
        assertEquals(0xA3AE, h.ip4.checksum);
        byte[] buf = new byte[66];
        assertEquals(66, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes(ROCE_V2_IPV4_VLAN_WIRE), buf);
        assertEquals(0, Ipv4Header.internetChecksum(buf, 18, 20));
        IbUdHeader back = new IbUdHeader();
        assertEquals(66, back.unpackEth(buf, 0));
        assertEquals(h, back);
    }

    /** RoCEv2 over IPv6 with immediate data; 256-byte payload. */
    static IbUdHeader roceV2Ipv6() {
        IbUdHeader h = new IbUdHeader().init(256, false, true, false, true, 6, true, true);
        h.eth.dmac = Hex.bytes("020000000002");
        h.eth.smac = Hex.bytes("020000000001");
        h.eth.etherType = EthHeader.ETH_P_IPV6;
        h.grh.trafficClass = 0x68;
        h.grh.flowLabel = 0xABCDE;
        h.grh.hopLimit = 64;
        h.grh.sgid = Hex.bytes("fd00 0000 0000 0000 0000 0000 0000 0001");
        h.grh.dgid = Hex.bytes("fd00 0000 0000 0000 0000 0000 0000 0002");
        h.udp.sport = 0xD3A1;
        h.udp.dport = UdpHeader.ROCE_V2_UDP_DPORT;
        h.bth.pkey = 0xFFFF;
        h.bth.destQpn = 1;
        h.bth.ackReq = true;
        h.bth.psn = 2;
        h.deth.qkey = 0x80010000;
        h.deth.srcQpn = 1;
        h.immediateData = 0x01020304;
        return h;
    }

    static final String ROCE_V2_IPV6_WIRE =
            "02 00 00 00 00 02 02 00 00 00 00 01 86 dd"
            // IPv6: 6<<28 | 68<<20 | abcde = 668abcde; PayLen (8+12+8+256+4+3)&~3 = 288 = 0120, UDP, hop 64
            + "66 8a bc de 01 20 11 40"
            + "fd00 0000 0000 0000 0000 0000 0000 0001"
            + "fd00 0000 0000 0000 0000 0000 0000 0002"
            // UDP: d3a1 -> 12b7, length 8+12+8+256+4 = 288 = 0120, checksum 0
            + "d3 a1 12 b7 01 20 00 00"
            // BTH: 65, pad 0, P_Key ffff, QP 1, A1 -> 80, PSN 000002
            + "65 00 ff ff 00 00 00 01 80 00 00 02"
            + "80 01 00 00 00 00 00 01"
            + "01 02 03 04";

    @Test
    void packRoceV2Ipv6() {
        IbUdHeader h = roceV2Ipv6();
        byte[] buf = new byte[86];
        assertEquals(86, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes(ROCE_V2_IPV6_WIRE), buf);
        IbUdHeader back = new IbUdHeader();
        assertEquals(86, back.unpackEth(buf, 0));
        assertEquals(h, back);
    }

    @Test
    void packRoceV1RoundTrip() {
        IbUdHeader h = new IbUdHeader().init(64, false, true, true, true, 0, false, false);
        h.vlan.tci = 7;
        h.vlan.etherType = EthHeader.ETH_P_IBOE;
        h.grh.hopLimit = 1;
        h.grh.sgid[15] = 1;
        h.bth.destQpn = 0x10;
        byte[] buf = new byte[h.packedLength()];
        assertEquals(14 + 4 + 40 + 12 + 8, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("81 00"), Arrays.copyOfRange(buf, 12, 14));
        assertArrayEquals(Hex.bytes("00 07 89 15"), Arrays.copyOfRange(buf, 14, 18));
        IbUdHeader back = new IbUdHeader();
        assertEquals(buf.length, back.unpackEth(buf, 0));
        assertEquals(h, back);
    }

    @Test
    void ipv4ChecksumForcesVersionAndIhlLikeTheKernel() {
        IbUdHeader h = roceV2Ipv4Vlan();
        h.ip4.version = 0;
        h.ip4.ihl = 0;
        h.ip4.checksum = 0x1111;
        assertEquals(0xA3AE, h.ipv4Checksum());
        assertEquals(0, h.ip4.version, "the header itself is not modified");
        assertEquals(0x1111, h.ip4.checksum);
    }

    @Test
    void packIntoATooSmallBufferWritesNothing() {
        IbUdHeader h = ibGlobal();
        byte[] buf = new byte[71];
        assertThrows(IndexOutOfBoundsException.class, () -> h.pack(buf, 0));
        assertArrayEquals(new byte[71], buf);
        assertThrows(IndexOutOfBoundsException.class, () -> h.pack(new byte[80], 9));
    }

    @Test
    void unpackResetsAbsentHeaders() {
        IbUdHeader h = roceV2Ipv6();
        byte[] buf = new byte[28];
        ibLocal().pack(buf, 0);
        assertEquals(28, h.unpack(buf, 0));
        assertFalse(h.ethPresent || h.udpPresent || h.grhPresent || h.immediatePresent);
        assertEquals(new EthHeader(), h.eth);
        assertEquals(0, h.immediateData);
        assertEquals(ibLocal(), h);
    }

    // ---------------------------------------------------------------- unpack error paths

    private static void assertEinval(byte[] buf, boolean eth, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> {
                    if (eth) {
                        new IbUdHeader().unpackEth(buf, 0);
                    } else {
                        new IbUdHeader().unpack(buf, 0);
                    }
                });
        assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' should mention " + fragment);
    }

    private static byte[] packed(IbUdHeader h, Consumer<byte[]> corrupt) {
        byte[] buf = new byte[h.packedLength()];
        h.pack(buf, 0);
        corrupt.accept(buf);
        return buf;
    }

    @Test
    void unpackRejectsLinkVersion() {
        assertEinval(packed(ibLocal(), b -> b[0] |= 0x01), false, "link version must be 0, got 1");
    }

    @Test
    void unpackRejectsRawAndIpLinkNextHeaders() {
        assertEinval(packed(ibLocal(), b -> b[1] &= ~3), false, "link next header");
        assertEinval(packed(ibLocal(), b -> b[1] = (byte) ((b[1] & ~3) | 1)), false, "got 1");
    }

    @Test
    void unpackRejectsGrhVersion() {
        assertEinval(packed(ibGlobal(), b -> b[8] = (byte) ((b[8] & 0x0F) | 0x40)), false, "GRH IP version must be 6, got 4");
    }

    @Test
    void unpackRejectsGrhNextHeader() {
        assertEinval(packed(ibGlobal(), b -> b[8 + 6] = 0x11), false, "GRH next header must be 0x1b, got 0x11");
    }

    @Test
    void unpackRejectsNonUdSendOpcodes() {
        // 0x04 RC SEND_ONLY, 0x66 (next UD opcode), 0x81 CNP
        for (int op : new int[] {0x04, 0x66, 0x81, 0x24}) {
            String expected = String.format("got 0x%02x", op);
            assertEinval(packed(ibLocal(), b -> b[8] = (byte) op), false, expected);
            assertEinval(packed(roceV2Ipv4Vlan(), b -> b[46] = (byte) op), true, expected);
        }
    }

    @Test
    void unpackRejectsTransportHeaderVersion() {
        assertEinval(packed(ibLocal(), b -> b[9] |= 0x01), false, "transport header version must be 0, got 1");
        assertEinval(packed(roceV2Ipv6(), b -> b[62 + 1] |= 0x0F), true, "got 15");
    }

    @Test
    void unpackRejectsTruncatedPackets() {
        byte[] local = packed(ibLocal(), b -> { });
        assertEinval(Arrays.copyOf(local, 7), false, "LRH");
        assertEinval(Arrays.copyOf(local, 19), false, "BTH");
        assertEinval(Arrays.copyOf(local, 27), false, "DETH");
        byte[] global = packed(ibGlobal(), b -> { });
        assertEinval(Arrays.copyOf(global, 47), false, "GRH");
        assertEinval(Arrays.copyOf(global, 71), false, "immediate data");
        byte[] v4 = packed(roceV2Ipv4Vlan(), b -> { });
        assertEinval(Arrays.copyOf(v4, 13), true, "Ethernet");
        assertEinval(Arrays.copyOf(v4, 17), true, "VLAN");
        assertEinval(Arrays.copyOf(v4, 37), true, "IPv4");
        assertEinval(Arrays.copyOf(v4, 45), true, "UDP");
        byte[] v6 = packed(roceV2Ipv6(), b -> { });
        assertEinval(Arrays.copyOf(v6, 53), true, "GRH");
        assertEinval(Arrays.copyOf(v6, 61), true, "UDP");
        assertEinval(Arrays.copyOf(v6, 85), true, "immediate data");
        // a negative offset is reported the same way
        assertThrows(IllegalArgumentException.class, () -> new IbUdHeader().unpack(local, -1));
    }

    @Test
    void unpackEthRejectsNonRoceEtherTypes() {
        assertEinval(packed(roceV2Ipv6(), b -> { b[12] = 0x08; b[13] = 0x06; }), true, "EtherType 0x0806");
        assertEinval(packed(roceV2Ipv4Vlan(), b -> { b[16] = (byte) 0x88; b[17] = (byte) 0xcc; }), true, "EtherType 0x88cc");
    }

    @Test
    void unpackEthRejectsBadIpv4() {
        assertEinval(packed(roceV2Ipv4Vlan(), b -> b[18] = 0x55), true, "IPv4 version must be 4, got 5");
        assertEinval(packed(roceV2Ipv4Vlan(), b -> b[18] = 0x46), true, "IPv4 header length must be 5");
        assertEinval(packed(roceV2Ipv4Vlan(), b -> b[18 + 9] = 6), true, "protocol must be UDP (17), got 6");
    }

    @Test
    void unpackEthRejectsWrongUdpPort() {
        assertEinval(packed(roceV2Ipv4Vlan(), b -> b[38 + 3] = (byte) 0xB8), true, "4791");
        assertEinval(packed(roceV2Ipv6(), b -> b[54 + 2] = 0), true, "got 183");
    }

    @Test
    void unpackEthRejectsBadIpv6AndRoceV1Grh() {
        assertEinval(packed(roceV2Ipv6(), b -> b[14] = 0x46), true, "GRH IP version must be 6, got 4");
        assertEinval(packed(roceV2Ipv6(), b -> b[14 + 6] = 0x1B), true, "next header must be 0x11, got 0x1b");
        IbUdHeader v1 = new IbUdHeader().init(0, false, true, false, true, 0, false, false);
        v1.eth.etherType = EthHeader.ETH_P_IBOE;
        assertEinval(packed(v1, b -> b[14 + 6] = 0x11), true, "next header must be 0x1b, got 0x11");
    }

    @Test
    void equalsHashCodeAndToString() {
        assertEquals(ibGlobal(), ibGlobal());
        assertEquals(ibGlobal().hashCode(), ibGlobal().hashCode());
        IbUdHeader other = ibGlobal();
        other.immediateData++;
        assertFalse(ibGlobal().equals(other));
        String s = roceV2Ipv4Vlan().toString();
        assertTrue(s.contains("Ipv4Header") && s.contains("UdpHeader") && s.contains("VlanHeader"), s);
        assertTrue(ibGlobal().toString().contains("imm=0xdeadbeef"));
    }
}
