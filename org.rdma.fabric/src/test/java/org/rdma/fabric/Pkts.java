package org.rdma.fabric;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Deth;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.EthHeader;
import org.rdma.verbs.wire.Grh;
import org.rdma.verbs.wire.Ipv4Header;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.UdpHeader;

/** Builds real IBTA packets for the tests, the way a driver's transmit path does. */
final class Pkts {
    /**
     * Fills {@code mr} with {@code n} payloads of {@code len} bytes from {@code off}, as a sender's
     * memory under a train: byte {@code i} of payload {@code s} is {@link #trainByte(int, int)}.
     */
    static ByteBuffer trainMemory(ByteBuffer mr, int off, int n, int len) {
        for (int s = 0; s < n; s++) {
            for (int i = 0; i < len; i++) {
                mr.put(off + s * len + i, trainByte(s, i));
            }
        }
        return mr;
    }

    /** Byte {@code i} of payload {@code s} in {@link #trainMemory}. */
    static byte trainByte(int s, int i) {
        return (byte) (s * 37 + i * 3 + 1);
    }

    static final int UD_HDR = Lrh.IB_LRH_BYTES + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES;

    private Pkts() {
    }

    /** An IB UD SEND_ONLY: LRH, BTH, DETH in the header, the payload by reference. */
    static Packet ud(FabricPort from, int vl, int sl, int dlid, int slid, int destQp, int psn, ByteBuffer payload,
                     int off, int len) {
        Packet p = from.allocPacket();
        int pad = (4 - (len & 3)) & 3;
        Lrh lrh = new Lrh();
        lrh.vl = vl;
        lrh.sl = sl;
        lrh.lnh = Lrh.LNH_IBA_LOCAL;
        lrh.dlid = dlid;
        lrh.slid = slid;
        lrh.packetLength = (UD_HDR + len + pad + 4) / 4;
        lrh.pack(p.header, 0);
        Bth bth = new Bth();
        bth.opcode = Bth.OPCODE_UD_SEND_ONLY;
        bth.padCount = pad;
        bth.pkey = 0xFFFF;
        bth.destQpn = destQp;
        bth.psn = psn;
        bth.pack(p.header, 8);
        Deth deth = new Deth();
        deth.qkey = 0x11111111;
        deth.srcQpn = 0x42;
        deth.pack(p.header, 20);
        p.headerLength = UD_HDR;
        p.payload = payload;
        p.payloadOffset = off;
        p.payloadLength = len;
        p.padCount = pad;
        return p;
    }

    /** BTH opcode RC RDMA WRITE MIDDLE ({@code IB_OPCODE_RC_RDMA_WRITE_MIDDLE}). */
    static final int RC_RDMA_WRITE_MIDDLE = 0x07;
    /** LRH + BTH: the header of an RC WRITE MIDDLE packet. */
    static final int RC_HDR = Lrh.IB_LRH_BYTES + Bth.IB_BTH_BYTES;

    /**
     * Fills {@code p} with an IB RC RDMA WRITE MIDDLE packet (LRH, BTH; VL 0, SL 0, P_Key 0xFFFF):
     * LRH:PktLen for one packet of {@code len} payload bytes, padded to a multiple of 4 as the BTH
     * PadCnt says.
     */
    static Packet rcWriteMiddle(Packet p, int dlid, int slid, int destQp, int psn, boolean ackReq, ByteBuffer payload,
                                int off, int len) {
        int pad = (4 - (len & 3)) & 3;
        Lrh lrh = new Lrh();
        lrh.lnh = Lrh.LNH_IBA_LOCAL;
        lrh.dlid = dlid;
        lrh.slid = slid;
        lrh.packetLength = (RC_HDR + len + pad + 4) / 4;
        lrh.pack(p.header, 0);
        Bth bth = new Bth();
        bth.opcode = RC_RDMA_WRITE_MIDDLE;
        bth.padCount = pad;
        bth.pkey = 0xFFFF;
        bth.destQpn = destQp;
        bth.ackReq = ackReq;
        bth.psn = psn & 0xFF_FFFF;
        bth.pack(p.header, Lrh.IB_LRH_BYTES);
        p.headerLength = RC_HDR;
        p.payload = payload;
        p.payloadOffset = off;
        p.payloadLength = len;
        p.padCount = pad;
        return p;
    }

    /**
     * A train of {@code n} RC WRITE MIDDLE packets from {@code from}'s pool: the headers of the
     * first (PSN {@code psn}), {@code n * len} payload bytes from {@code off}, AckReq as the last
     * packet would carry it.
     */
    static Packet rcTrain(FabricPort from, int dlid, int slid, int destQp, int psn, boolean ackReq, ByteBuffer payload,
                          int off, int len, int n) {
        Packet p = rcWriteMiddle(from.allocPacket(), dlid, slid, destQp, psn, ackReq, payload, off, len);
        p.setSegments(n);
        return p;
    }

    /** RC RDMA WRITE FIRST with its RETH (VA 0x1000, rkey 0x77, DMA length {@code n * len}), after an LRH [and a GRH]. */
    static Packet rcWriteFirst(Packet p, boolean grh, int dlid, int slid, int destQp, int psn, ByteBuffer payload,
                               int off, int len, int n) {
        rcWriteMiddle(p, dlid, slid, destQp, psn, false, payload, off, len);
        int bth = Lrh.IB_LRH_BYTES;
        if (grh) {
            // LNH global: 40 bytes of GRH between LRH and BTH, PayLen = BTH + RETH + payload + ICRC
            System.arraycopy(p.header, bth, p.header, bth + 40, 12);
            java.util.Arrays.fill(p.header, bth, bth + 40, (byte) 0);
            p.header[1] = (byte) (p.header[1] & ~3 | Lrh.LNH_IBA_GLOBAL);
            p.header[bth] = 0x60;
            int payLen = 12 + 16 + len + 4;
            p.header[bth + 4] = (byte) (payLen >>> 8);
            p.header[bth + 5] = (byte) payLen;
            p.header[bth + 6] = 0x1B;
            p.header[bth + 7] = 64;
            bth += 40;
        }
        p.header[bth] = 0x06;
        java.nio.ByteBuffer.wrap(p.header, bth + 12, 16).putLong(0x1000).putInt(0x77).putInt(n * len);
        p.headerLength = bth + 12 + 16;
        int words = (p.headerLength + len + 4) / 4;
        p.header[4] = (byte) (p.header[4] & 0xF8 | words >>> 8);
        p.header[5] = (byte) words;
        return p;
    }

    /**
     * The packets of a WRITE of {@code n} packets one by one, as a train that starts and ends its message
     * stands for them: FIRST (with RETH), MIDDLEs, LAST with AckReq.
     */
    static void rcWriteSingles(FabricPort from, int dlid, int slid, int destQp, int psn, ByteBuffer payload, int off,
                               int len, int n) {
        from.transmit(rcWriteFirst(from.allocPacket(), false, dlid, slid, destQp, psn, payload, off, len, n));
        for (int i = 1; i < n; i++) {
            Packet p = rcWriteMiddle(from.allocPacket(), dlid, slid, destQp, psn + i, i == n - 1, payload, off + i * len, len);
            if (i == n - 1) {
                p.header[Lrh.IB_LRH_BYTES]++;
            }
            from.transmit(p);
        }
    }

    /** Sends the packets {@link #rcTrain} stands for one by one: PSN {@code psn + i}, AckReq on the last only. */
    static void rcSingles(FabricPort from, int dlid, int slid, int destQp, int psn, boolean ackReq, ByteBuffer payload,
                          int off, int len, int n) {
        for (int i = 0; i < n; i++) {
            from.transmit(rcWriteMiddle(from.allocPacket(), dlid, slid, destQp, psn + i, ackReq && i == n - 1, payload,
                    off + i * len, len));
        }
    }

    /** A UD packet with a fresh heap payload of {@code len} bytes (values i & 0xFF). */
    static Packet ud(FabricPort from, int dlid, int slid, int psn, int len) {
        ByteBuffer b = ByteBuffer.allocate(len);
        for (int i = 0; i < len; i++) {
            b.put(i, (byte) i);
        }
        return ud(from, 0, 0, dlid, slid, 0x100, psn, b, 0, len);
    }

    /** An SMP in a QP0 UD packet on VL15. */
    static Packet smp(FabricPort from, Smp smp, int dlid, int slid) {
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        smp.pack(mad, 0);
        Packet p = ud(from, 15, 0, dlid, slid, 0, 0, ByteBuffer.wrap(mad), 0, mad.length);
        new Deth().pack(p.header, 20);
        return p;
    }

    /** Sends a directed-route SMP from a CA as the SM's SMI does (hop pointer 0 -> 1). */
    static void sendDr(FabricPort from, Smp smp) {
        DrSmp.Decision d = DrSmp.send(smp, false, from.portNum());
        if (d.verdict() != DrSmp.Verdict.FORWARD) {
            throw new AssertionError("SMI refused " + smp + ": " + d);
        }
        from.transmit(smp(from, smp, Smp.IB_LID_PERMISSIVE, Smp.IB_LID_PERMISSIVE));
    }

    /** Decodes the SMP a packet carries. */
    static Smp smpOf(Packet p) {
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        p.readBytes(UD_HDR, mad, 0, mad.length);
        return new Smp().unpack(mad, 0);
    }

    /** Decodes the MAD (256 bytes) after LRH/BTH/DETH. */
    static byte[] madOf(Packet p) {
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        p.readBytes(UD_HDR, mad, 0, mad.length);
        return mad;
    }

    /** A RoCEv2 UD SEND_ONLY over IPv4 (Ethernet, IPv4, UDP 4791, BTH, DETH) or IPv6. */
    static Packet roce(EthernetPort from, MacAddress dmac, InetAddress src, InetAddress dst, int destQp, int psn,
                       ByteBuffer payload, int off, int len) {
        Packet p = from.allocPacket();
        int pad = (4 - (len & 3)) & 3;
        byte[] h = p.header;
        EthHeader eth = new EthHeader();
        eth.dmac = dmac.bytes();
        eth.smac = from.macAddress().bytes();
        boolean v4 = src.getAddress().length == 4;
        eth.etherType = v4 ? EthHeader.ETH_P_IP : EthHeader.ETH_P_IPV6;
        int at = eth.pack(h, 0);
        int udpLen = UdpHeader.IB_UDP_BYTES + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES + len + pad + 4;
        if (v4) {
            Ipv4Header ip = new Ipv4Header();
            ip.version = 4;
            ip.ihl = 5;
            ip.totalLength = Ipv4Header.IB_IP4_BYTES + udpLen;
            ip.fragOff = Ipv4Header.IP_DF;
            ip.ttl = 64;
            ip.protocol = Ipv4Header.IPPROTO_UDP;
            ip.saddr = java.nio.ByteBuffer.wrap(src.getAddress()).getInt();
            ip.daddr = java.nio.ByteBuffer.wrap(dst.getAddress()).getInt();
            ip.checksum = ip.computeChecksum();
            at += ip.pack(h, at);
        } else {
            Grh ip = new Grh();
            ip.ipVersion = 6;
            ip.payloadLength = udpLen;
            ip.nextHeader = Grh.NEXT_HEADER_UDP;
            ip.hopLimit = 64;
            ip.sgid = src.getAddress();
            ip.dgid = dst.getAddress();
            at += ip.pack(h, at);
        }
        UdpHeader udp = new UdpHeader();
        udp.sport = 0xC000 | (destQp & 0x3FFF);
        udp.dport = UdpHeader.ROCE_V2_UDP_DPORT;
        udp.length = udpLen;
        at += udp.pack(h, at);
        Bth bth = new Bth();
        bth.opcode = Bth.OPCODE_UD_SEND_ONLY;
        bth.padCount = pad;
        bth.pkey = 0xFFFF;
        bth.destQpn = destQp;
        bth.psn = psn;
        at += bth.pack(h, at);
        Deth deth = new Deth();
        deth.qkey = 0x11111111;
        deth.srcQpn = 0x42;
        at += deth.pack(h, at);
        p.headerLength = at;
        p.payload = payload;
        p.payloadOffset = off;
        p.payloadLength = len;
        p.padCount = pad;
        return p;
    }

    /** A sink that keeps a copy of what it received (retaining, as a queueing receiver does). */
    static final class Collector implements PacketSink {
        final List<Packet> packets = new ArrayList<>();

        @Override
        public void receive(Packet packet) {
            packets.add(packet.retain().retainPayload());
        }

        int size() {
            return packets.size();
        }

        Packet get(int i) {
            return packets.get(i);
        }

        List<Integer> psns() {
            List<Integer> out = new ArrayList<>();
            for (Packet p : packets) {
                out.add(p.psn(p.bthOffset()));
            }
            return out;
        }

        void clear() {
            for (Packet p : packets) {
                p.release();
            }
            packets.clear();
        }
    }
}
