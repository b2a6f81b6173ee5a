package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * Fuzzing of the wire codecs a receiver runs over bytes it did not make: the UD header parsers
 * ({@code ib_ud_header_unpack()} and its Ethernet counterpart, which walk LRH, GRH, Ethernet,
 * VLAN, IPv4, UDP, BTH, DETH and the immediate data) and the ICRC/VCRC checks. Their contract for
 * bad input is a {@code false} verdict or an {@link IllegalArgumentException}; anything else
 * escaping is a finding. The seeds are packets the encoders of this package build
 * ({@link #seeds()}), so the corpus follows the encoders.
 */
class WireFuzzTest {
    /**
     * One packet: the first byte chooses the framing (bit 0: Ethernet, else native InfiniBand),
     * the rest is the packet from its first header byte through the CRCs.
     */
    @FuzzTest
    void packet(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] pkt = Arrays.copyOfRange(input, 1, input.length);
        if ((input[0] & 1) == 0) {
            ib(pkt);
        } else {
            ethernet(pkt);
        }
    }

    private static void ib(byte[] pkt) {
        IbUdHeader h = new IbUdHeader();
        try {
            roundTrip(h, h.unpack(pkt, 0), false);
        } catch (IllegalArgumentException e) {
            assertEinval(e);
        }
        int lnh = pkt.length >= 2 ? pkt[1] & 3 : 0;
        if (pkt.length >= Vcrc.VCRC_BYTES) {
            Vcrc.verify(pkt, 0, pkt.length);
        }
        if ((lnh & 2) != 0 && pkt.length >= Vcrc.VCRC_BYTES + Icrc.ICRC_BYTES) {
            try {
                Icrc.verifyIb(pkt, 0, pkt.length - Vcrc.VCRC_BYTES);
            } catch (IllegalArgumentException e) {
                // documented: shorter than the headers the LNH announces
            }
        }
    }

    private static void ethernet(byte[] frame) {
        IbUdHeader h = new IbUdHeader();
        try {
            roundTrip(h, h.unpackEth(frame, 0), true);
        } catch (IllegalArgumentException e) {
            assertEinval(e);
        }
        int l3 = frame.length >= 14 && (frame[12] & 0xFF) == 0x81 && frame[13] == 0 ? 18 : 14;
        int len = frame.length - l3;
        if (len >= Icrc.ICRC_BYTES) {
            try {
                Icrc.verifyRoceV2(frame, l3, len);
            } catch (IllegalArgumentException e) {
                // documented: not IPv4/IPv6, IHL below 5, or shorter than the headers
            }
            try {
                Icrc.verifyRoceV1(frame, l3, len);
            } catch (IllegalArgumentException e) {
                // documented: shorter than GRH + BTH
            }
        }
    }

    /** A parsed header packs to as many bytes as were parsed, and those parse to the same header. */
    private static void roundTrip(IbUdHeader h, int parsed, boolean eth) {
        assertEquals(h.packedLength(), parsed);
        byte[] again = new byte[parsed];
        assertEquals(parsed, h.pack(again, 0));
        IbUdHeader h2 = new IbUdHeader();
        assertEquals(parsed, eth ? h2.unpackEth(again, 0) : h2.unpack(again, 0));
        assertEquals(h, h2);
    }

    private static void assertEinval(IllegalArgumentException e) {
        assertTrue(e.getMessage() != null && e.getMessage().startsWith("EINVAL: "), () -> "undocumented: " + e);
    }

    // ---------------------------------------------------------------- the corpus

    /** The seeds: UD packets of every framing, made by the encoders, with their CRCs. */
    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        s.put("ib-local-ud", ib(new IbUdHeader().init(13, true, false, false, false, 0, false, false), 13));
        s.put("ib-global-ud-imm", ib(new IbUdHeader().init(32, true, false, false, true, 0, false, true), 32));
        s.put("rocev2-ipv4-vlan", eth(new IbUdHeader().init(7, false, true, true, false, 4, true, false), 7));
        s.put("rocev2-ipv6-imm", eth(new IbUdHeader().init(20, false, true, false, false, 6, true, true), 20));
        s.put("rocev1", eth(new IbUdHeader().init(4, false, true, false, true, 0, false, false), 4));
        return s;
    }

    private static byte[] ib(IbUdHeader h, int payload) {
        h.lrh.dlid = 0x12;
        h.lrh.slid = 0x34;
        fill(h);
        byte[] b = new byte[1 + h.packedLength() + payload + h.bth.padCount + Icrc.ICRC_BYTES + Vcrc.VCRC_BYTES];
        int len = h.pack(b, 1) + payload + h.bth.padCount;
        len = Icrc.appendIb(b, 1, len);
        Vcrc.append(b, 1, len);
        return b;
    }

    private static byte[] eth(IbUdHeader h, int payload) {
        if (h.vlanPresent) {
            h.vlan.tci = 5;
            h.vlan.etherType = EthHeader.ETH_P_IP;
        } else {
            h.eth.etherType = h.ipv4Present ? EthHeader.ETH_P_IP : h.udpPresent ? EthHeader.ETH_P_IPV6 : EthHeader.ETH_P_IBOE;
        }
        h.eth.smac = new byte[] {2, 0, 0, 0, 0, 1};
        h.eth.dmac = new byte[] {2, 0, 0, 0, 0, 2};
        if (h.ipv4Present) {
            h.ip4.ttl = 64;
            h.ip4.saddr = 0xC0A80A01;
            h.ip4.daddr = 0xC0A80A02;
            h.ip4.checksum = h.ipv4Checksum();
        }
        h.grh.hopLimit = 64;
        h.grh.sgid[15] = 1;
        h.grh.dgid[15] = 2;
        h.udp.sport = 0xC000;
        h.udp.dport = UdpHeader.ROCE_V2_UDP_DPORT;
        fill(h);
        byte[] b = new byte[1 + h.packedLength() + payload + h.bth.padCount + Icrc.ICRC_BYTES];
        b[0] = 1;
        int end = h.pack(b, 1) + payload + h.bth.padCount;
        int l3 = 1 + EthHeader.IB_ETH_BYTES + (h.vlanPresent ? VlanHeader.IB_VLAN_BYTES : 0);
        int l3Len = end + 1 - l3;
        if (h.udpPresent) {
            Icrc.appendRoceV2(b, l3, l3Len);
        } else {
            Icrc.appendRoceV1(b, l3, l3Len);
        }
        return b;
    }

    private static void fill(IbUdHeader h) {
        h.bth.pkey = 0xFFFF;
        h.bth.destQpn = 0x11;
        h.bth.psn = 0x123;
        h.deth.qkey = 0x80010000;
        h.deth.srcQpn = 1;
        h.immediateData = 0x01020304;
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(WireFuzzTest.class, "packet", seeds());
    }

    /** The seeds are good packets, so fuzzing starts from inputs that reach every header. */
    @Test
    void seedsParseAndCarryGoodCrcs() {
        for (Map.Entry<String, byte[]> e : seeds().entrySet()) {
            byte[] in = e.getValue();
            byte[] pkt = Arrays.copyOfRange(in, 1, in.length);
            IbUdHeader h = new IbUdHeader();
            boolean good;
            if (in[0] == 0) {
                h.unpack(pkt, 0);
                good = Vcrc.verify(pkt, 0, pkt.length) && Icrc.verifyIb(pkt, 0, pkt.length - Vcrc.VCRC_BYTES);
            } else {
                h.unpackEth(pkt, 0);
                int l3 = h.vlanPresent ? 18 : 14;
                good = h.udpPresent ? Icrc.verifyRoceV2(pkt, l3, pkt.length - l3) : Icrc.verifyRoceV1(pkt, l3, pkt.length - l3);
            }
            assertTrue(good, e.getKey());
        }
    }
}
