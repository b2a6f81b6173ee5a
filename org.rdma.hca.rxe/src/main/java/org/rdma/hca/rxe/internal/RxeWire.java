package org.rdma.hca.rxe.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.wire.Icrc;

/**
 * The RoCEv2 encapsulation facts of the driver, in one place: the UDP port, the source-port hash,
 * the transport header length of each BTH opcode (to split header from payload on receive), and
 * the pseudo IP/UDP headers over which the ICRC is computed (IBTA annex A17).
 *
 * <h2>The IPv4 Identification field</h2>
 * The ICRC covers the IPv4 Identification, which the kernel chooses for a UDP socket (a per-socket
 * or per-destination counter; measured on Linux 6.18 with {@code tshark -i lo}: 0x555a, 0x555b,
 * ... for an unconnected socket, a random start for a connected one) and which neither the sender
 * nor the receiver can read through a {@code DatagramChannel}. This driver therefore computes and
 * checks IPv4 ICRCs with Identification 0 — the value Linux rxe and RoCE NICs put in DF packets —
 * so instances of this driver interoperate; the ICRC of its IPv4 packets does not match the
 * header the kernel actually wrote unless that Identification is 0. A received IPv4 UD datagram
 * whose ICRC does not verify with 0 is checked again with the Identification its ICRC was
 * computed over, recovered from the ICRC itself ({@link Ipv4Ident}: a weaker check, 2^-16), so
 * UD and multicast from Linux rxe and RoCE NICs arrive. IPv6 has no such field and is byte-exact.
 */
final class RxeWire {
    /** The IANA RoCEv2 port ({@code ROCE_V2_UDP_DPORT}). */
    static final int ROCE_V2_PORT = 4791;
    /** The base of the source ports ({@code RXE_ROCE_V2_SPORT}). */
    static final int SPORT_BASE = 0xC000;
    /** Bits of the source-port hash. */
    static final int SPORT_BITS = 14;
    /** IPv4 header without options. */
    static final int IP4 = 20;
    /** IPv6 header. */
    static final int IP6 = 40;
    /** UDP header. */
    static final int UDP = 8;
    /** BTH. */
    static final int BTH = 12;
    /** ICRC. */
    static final int ICRC = 4;
    /** The RoCE header overhead rxe subtracts from the netdev MTU ({@code RXE_MAX_HDR_LENGTH}). */
    static final int MAX_HDR_OVERHEAD = 80;
    /** Room before a UDP payload in a datagram buffer for the largest pseudo IP/UDP header (IPv6). */
    static final int HEADROOM = IP6 + UDP;
    /** The largest UDP payload: transport headers, 4096 bytes of payload, pad, ICRC, with room to spare. */
    static final int MAX_DATAGRAM = 8192;

    /** {@link #decode}: a packet for the transport. */
    static final int RX_OK = 0;
    /** {@link #decode}: too short, cut off by the buffer, an opcode rxe does not carry, or a bad length. */
    static final int RX_MALFORMED = 1;
    /** {@link #decode}: the ICRC does not match. */
    static final int RX_BAD_ICRC = 2;
    /** {@link #decode}: a packet for the transport, an IPv4 UD one whose Identification was recovered. */
    static final int RX_OK_IDENT = 3;

    private static final int GOLDEN_RATIO_32 = 0x61C88647;
    private static final int RETH = 16;
    private static final int AETH = 4;
    private static final int IMM = 4;
    private static final int ATMETH = 28;
    private static final int ATMACK = 8;
    private static final int DETH = 8;

    /** Transport header bytes (BTH + extension headers) by opcode; 0 = not supported. */
    private static final byte[] LENGTH = new byte[256];

    static {
        int[] rcUc = new int[0x18];
        rcUc[0x00] = 0;               // SEND_FIRST
        rcUc[0x01] = 0;               // SEND_MIDDLE
        rcUc[0x02] = 0;               // SEND_LAST
        rcUc[0x03] = IMM;             // SEND_LAST_WITH_IMMEDIATE
        rcUc[0x04] = 0;               // SEND_ONLY
        rcUc[0x05] = IMM;             // SEND_ONLY_WITH_IMMEDIATE
        rcUc[0x06] = RETH;            // RDMA_WRITE_FIRST
        rcUc[0x07] = 0;               // RDMA_WRITE_MIDDLE
        rcUc[0x08] = 0;               // RDMA_WRITE_LAST
        rcUc[0x09] = IMM;             // RDMA_WRITE_LAST_WITH_IMMEDIATE
        rcUc[0x0A] = RETH;            // RDMA_WRITE_ONLY
        rcUc[0x0B] = RETH + IMM;      // RDMA_WRITE_ONLY_WITH_IMMEDIATE
        rcUc[0x0C] = RETH;            // RDMA_READ_REQUEST
        rcUc[0x0D] = AETH;            // RDMA_READ_RESPONSE_FIRST
        rcUc[0x0E] = 0;               // RDMA_READ_RESPONSE_MIDDLE
        rcUc[0x0F] = AETH;            // RDMA_READ_RESPONSE_LAST
        rcUc[0x10] = AETH;            // RDMA_READ_RESPONSE_ONLY
        rcUc[0x11] = AETH;            // ACKNOWLEDGE
        rcUc[0x12] = AETH + ATMACK;   // ATOMIC_ACKNOWLEDGE
        rcUc[0x13] = ATMETH;          // COMPARE_SWAP
        rcUc[0x14] = ATMETH;          // FETCH_ADD
        rcUc[0x15] = -1;              // RESYNC (RD only)
        rcUc[0x16] = IMM;             // SEND_LAST_WITH_INVALIDATE (IETH)
        rcUc[0x17] = IMM;             // SEND_ONLY_WITH_INVALIDATE (IETH)
        for (int op = 0; op < 0x18; op++) {
            if (rcUc[op] >= 0) {
                LENGTH[op] = (byte) (BTH + rcUc[op]);
            }
            // UC: sends and writes only
            if (op <= 0x0B) {
                LENGTH[0x20 | op] = (byte) (BTH + rcUc[op]);
            }
        }
        LENGTH[0x64] = (byte) (BTH + DETH);         // UD SEND_ONLY
        LENGTH[0x65] = (byte) (BTH + DETH + IMM);   // UD SEND_ONLY_WITH_IMMEDIATE
    }

    private RxeWire() {
    }

    /** @return the BTH + extension header bytes of {@code opcode}, or 0 if the driver does not carry it */
    static int headerLength(int opcode) {
        return LENGTH[opcode & 0xFF];
    }

    /** The UDP source port of a flow: {@code 0xC000 | hash_32(qpn, 14)}. */
    static int sourcePort(int qpn) {
        return SPORT_BASE | ((qpn * GOLDEN_RATIO_32) >>> (32 - SPORT_BITS));
    }

    /** rxe_set_mtu(): the IB path MTU (bytes) for a netdev MTU, 256..4096. */
    static int pathMtu(int netdevMtu) {
        int room = netdevMtu - MAX_HDR_OVERHEAD;
        for (int m = 4096; m >= 256; m >>= 1) {
            if (room >= m) {
                return m;
            }
        }
        return 256;
    }

    /**
     * Writes the IPv4 + UDP headers a receiver sees in front of a RoCEv2 datagram, with the
     * variant fields (TOS, TTL, checksums) zero and Identification 0 (see the class comment).
     *
     * @return the offset of the UDP payload ({@code off + 28})
     */
    static int pseudo4(byte[] b, int off, byte[] src4, byte[] dst4, int sport, int dport, int udpPayload) {
        int total = IP4 + UDP + udpPayload;
        b[off] = 0x45;
        b[off + 1] = 0;
        put16(b, off + 2, total);
        put16(b, off + 4, 0);
        put16(b, off + 6, 0x4000);  // DF, as the kernel sends with path MTU discovery
        b[off + 8] = 64;
        b[off + 9] = 17;
        put16(b, off + 10, 0);
        System.arraycopy(src4, 0, b, off + 12, 4);
        System.arraycopy(dst4, 0, b, off + 16, 4);
        return udp(b, off + IP4, sport, dport, udpPayload);
    }

    /**
     * Writes the IPv6 + UDP headers a receiver sees in front of a RoCEv2 datagram (traffic class,
     * flow label, hop limit and UDP checksum are masked by the ICRC and left zero / 64).
     *
     * @return the offset of the UDP payload ({@code off + 48})
     */
    static int pseudo6(byte[] b, int off, byte[] src16, byte[] dst16, int sport, int dport, int udpPayload) {
        b[off] = 0x60;
        b[off + 1] = 0;
        b[off + 2] = 0;
        b[off + 3] = 0;
        put16(b, off + 4, UDP + udpPayload);
        b[off + 6] = 17;
        b[off + 7] = 64;
        System.arraycopy(src16, 0, b, off + 8, 16);
        System.arraycopy(dst16, 0, b, off + 24, 16);
        return udp(b, off + IP6, sport, dport, udpPayload);
    }

    private static int udp(byte[] b, int off, int sport, int dport, int udpPayload) {
        put16(b, off, sport);
        put16(b, off + 2, dport);
        put16(b, off + 4, UDP + udpPayload);
        put16(b, off + 6, 0);
        return off + UDP;
    }

    /**
     * Lays out a datagram ({@code rxe_prepare()}): the pseudo IP/UDP header from
     * {@code bb[HEADROOM - 28 or - 48]}, then the transport headers, payload, pad and ICRC.
     *
     * @param h      scratch of {@link #HEADROOM} + {@link RvtPacket#MAX_HDR} bytes
     * @param bb     the datagram buffer, {@link #HEADROOM} + {@link #MAX_DATAGRAM} bytes
     * @param srcIp  the source address (4 or 16 bytes; the length chooses IPv4 or IPv6)
     * @param dstIp  the destination address, of the same family
     * @return the index of the UDP payload in {@code bb} ({@link #HEADROOM})
     */
    static int encode(RvtPacket pkt, byte[] h, ByteBuffer bb, byte[] srcIp, byte[] dstIp, int sport, int dport) {
        int udpPayload = pkt.hdrLen + pkt.payloadLength + pkt.padCount + ICRC;
        int ip = srcIp.length == 4 ? IP6 - IP4 : 0;
        int at = ip == 0 ? pseudo6(h, ip, srcIp, dstIp, sport, dport, udpPayload)
                : pseudo4(h, ip, srcIp, dstIp, sport, dport, udpPayload);
        System.arraycopy(pkt.hdr, 0, h, at, pkt.hdrLen);
        bb.clear();
        int p = at + pkt.hdrLen;
        bb.put(ip, h, ip, p - ip);
        if (pkt.payloadLength > 0) {
            bb.put(p, pkt.payload, pkt.payloadOffset, pkt.payloadLength);
            p += pkt.payloadLength;
        }
        for (int i = 0; i < pkt.padCount; i++) {
            bb.put(p++, (byte) 0);
        }
        Icrc.put(Icrc.computeRoceV2(bb, ip, p - ip), bb, p);
        return at;
    }

    /**
     * Takes a received UDP payload apart ({@code rxe_udp_encap_recv()}, {@code rxe_icrc_check()}
     * and the header split of {@code rxe_rcv()}): checks the length and the ICRC over the pseudo
     * IP/UDP header the receiver sees, splits transport headers, payload and pad by the opcode,
     * and fills {@code r} with them and the RoCE v2 network facts. Never throws for any bytes.
     *
     * @param bb    the datagram buffer: the UDP payload in {@code [HEADROOM, HEADROOM + n)}; a
     *              payload that reached the buffer's end may have been cut off
     * @param n     the UDP payload length
     * @param h     scratch of {@link #HEADROOM} + {@link RvtPacket#MAX_HDR} bytes
     * @param srcIp the sender's address (4 or 16 bytes), {@code sport} its UDP port
     * @param dstIp the local address the datagram arrived on (the same family), {@code dport} its port
     * @param r     the packet to fill; the payload stays in {@code bb}
     * @param ident recovers the Identification of an IPv4 UD datagram whose ICRC does not verify
     *              with 0 (see {@link Ipv4Ident}); {@code null}: no recovery
     * @return {@link #RX_OK}, {@link #RX_OK_IDENT}, {@link #RX_MALFORMED} or {@link #RX_BAD_ICRC}
     */
    static int decode(ByteBuffer bb, int n, byte[] h, byte[] srcIp, int sport, byte[] dstIp, int dport, RvtPacket r,
            Ipv4Ident ident) {
        if (n < BTH + ICRC || HEADROOM + n >= bb.capacity()) {
            return RX_MALFORMED;
        }
        boolean v4 = srcIp.length == 4;
        int ip = v4 ? IP6 - IP4 : 0;
        if (v4) {
            pseudo4(h, ip, srcIp, dstIp, sport, dport, n);
        } else {
            pseudo6(h, ip, srcIp, dstIp, sport, dport, n);
        }
        bb.put(ip, h, ip, HEADROOM - ip);
        int covered = HEADROOM - ip + n - ICRC;
        int verdict = RX_OK;
        int computed = Icrc.computeRoceV2(bb, ip, covered);
        int received = Icrc.get(bb, ip + covered);
        if (computed != received) {
            int id = v4 && ident != null && isUd(bb.get(HEADROOM))
                    ? ident.recover(computed, received, covered - Ipv4Ident.FIELD - 2) : -1;
            if (id < 0) {
                return RX_BAD_ICRC;
            }
            put16(h, ip + Ipv4Ident.FIELD, id);
            verdict = RX_OK_IDENT;
        }
        bb.get(HEADROOM, h, HEADROOM, Math.min(n, RvtPacket.MAX_HDR));
        int hl = headerLength(h[HEADROOM]);
        int pad = (h[HEADROOM + 1] >>> 4) & 3;
        int payload = n - hl - pad - ICRC;
        if (hl == 0 || hl > RvtPacket.MAX_HDR || payload < 0) {
            return RX_MALFORMED;
        }
        System.arraycopy(h, HEADROOM, r.hdr, 0, hl);
        r.hdrLen = hl;
        r.padCount = pad;
        r.payload = payload > 0 ? bb : null;
        r.payloadOffset = HEADROOM + hl;
        r.payloadLength = payload;
        r.payloadStable = false;
        r.port = 1;
        r.hasGrh = true;
        if (v4) {
            Arrays.fill(r.grh, 0, 20, (byte) 0);
            System.arraycopy(h, ip, r.grh, 20, IP4);
            r.sgidHi = 0;
            r.sgidLo = 0xFFFF_0000_0000L | (get32(h, ip + 12) & 0xFFFF_FFFFL);
            r.dgidHi = 0;
            r.dgidLo = 0xFFFF_0000_0000L | (get32(h, ip + 16) & 0xFFFF_FFFFL);
            r.networkHdrType = 2;
        } else {
            System.arraycopy(h, 0, r.grh, 0, IP6);
            r.sgidHi = get64(h, 8);
            r.sgidLo = get64(h, 16);
            r.dgidHi = get64(h, 24);
            r.dgidLo = get64(h, 32);
            r.networkHdrType = 3;
        }
        r.vlanId = -1;
        return verdict;
    }

    /** Whether a BTH opcode is of the UD transport (SEND_ONLY, SEND_ONLY_WITH_IMMEDIATE). */
    private static boolean isUd(byte opcode) {
        return (opcode & 0xE0) == 0x60;
    }

    private static int get32(byte[] b, int o) {
        return (b[o] & 0xFF) << 24 | (b[o + 1] & 0xFF) << 16 | (b[o + 2] & 0xFF) << 8 | b[o + 3] & 0xFF;
    }

    private static long get64(byte[] b, int o) {
        return (long) get32(b, o) << 32 | get32(b, o + 4) & 0xFFFF_FFFFL;
    }

    static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    /** A MAC as EUI-64 (universal/local bit flipped, FF:FE in the middle), the node GUID. */
    static long eui64(byte[] mac) {
        return (long) ((mac[0] ^ 0x02) & 0xFF) << 56 | (long) (mac[1] & 0xFF) << 48 | (long) (mac[2] & 0xFF) << 40
                | 0xFFL << 32 | 0xFEL << 24 | (mac[3] & 0xFF) << 16 | (mac[4] & 0xFF) << 8 | mac[5] & 0xFF;
    }

    /**
     * The MAC of an interface without one (loopback, tunnels): a locally administered unicast
     * address {@code 02:xx:xx:xx:xx:xx} whose 40 low bits are the CRC-32 of
     * {@code "rxe:<netdev>:<udp port>"} and the port's low byte — stable across restarts and
     * distinct for two devices on the same interface with different UDP ports.
     */
    static byte[] syntheticMac(String netdev, int udpPort) {
        CRC32 c = new CRC32();
        c.update(("rxe:" + netdev + ":" + udpPort).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        long v = c.getValue();
        return new byte[] {0x02, (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v, (byte) udpPort};
    }
}
