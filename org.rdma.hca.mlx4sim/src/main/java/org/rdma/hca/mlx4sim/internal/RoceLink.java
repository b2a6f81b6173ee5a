package org.rdma.hca.mlx4sim.internal;

import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.wire.EthHeader;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Ipv4Header;
import org.rdma.verbs.wire.UdpHeader;

/**
 * Packet I/O of an Ethernet (RoCEv2) port: Ethernet [802.1Q] IPv4|IPv6 UDP(4791) BTH..., as the
 * ConnectX-3 builds RoCEv2 frames from the address vector (mlx4 {@code fill_eth_header} /
 * {@code build_mlx_header()} with {@code ib_ud_header_init()} for RoCE). The UDP source port is
 * {@code 0xC000 | hash_32(QPN, 14)} as Linux rxe derives it; the UDP checksum is 0 (allowed for
 * IPv4 and, as rxe sends it, for IPv6). Receive checks the destination MAC, VLAN and IP address,
 * strips the headers and fills the RoCE fields of the transport packet (the IPv4 or IPv6 header in
 * the 40-byte GRH area, the IPv4-mapped GIDs, SMAC, VLAN, network header type).
 */
final class RoceLink implements LinkIo {
    private static final int IP4 = Ipv4Header.IB_IP4_BYTES;
    private static final int IP6 = 40;
    private static final int UDP = UdpHeader.IB_UDP_BYTES;
    private static final int GOLDEN_RATIO_32 = 0x61C88647;

    private final Mlx4Port port;
    private final EthernetPort eth;
    private final RxPool rx = new RxPool();

    RoceLink(Mlx4Port port, EthernetPort eth) {
        this.port = port;
        this.eth = eth;
    }

    /**
     * The RoCEv2 UDP source port of a flow ({@code rxe_qp_init_misc()}:
     * {@code RXE_ROCE_V2_SPORT + (hash_32(qpn, 14) & 0x3fff)}).
     */
    static int udpSourcePort(int qpn) {
        return 0xC000 | (((qpn * GOLDEN_RATIO_32) >>> 18) & 0x3FFF);
    }

    // ================================================================== transmit

    @Override
    public int transmit(RvtPacket pkt) {
        AhAttr av = pkt.av;
        GidEntry src = av.hasGrh() ? port.roce.entry(av.grh.sgidIndex) : null;
        if (src == null) {
            port.dev.txDropped.incrementAndGet();
            return 0;
        }
        Gid dgid = av.grh.dgid;
        boolean v4 = dgid.isV4Mapped();
        if (v4 != src.gid.isV4Mapped()) {
            port.dev.txDropped.incrementAndGet();
            return 0;
        }
        Packet p = eth.allocPacket();
        byte[] h = p.header;
        System.arraycopy(av.dmac, 0, h, 0, 6);
        port.roce.mac().writeTo(h, 6);
        int at = 12;
        int vlan = port.params.vlan;
        if (vlan >= 0) {
            MadFrames.put16(h, at, EthHeader.ETH_P_8021Q);
            MadFrames.put16(h, at + 2, (av.sl & 7) << 13 | (vlan & 0xFFF));
            at += 4;
        }
        MadFrames.put16(h, at, v4 ? EthHeader.ETH_P_IP : EthHeader.ETH_P_IPV6);
        at += 2;
        int tlen = pkt.hdrLen + pkt.payloadLength + pkt.padCount + Icrc.ICRC_BYTES;
        int hop = av.grh.hopLimit == 0 ? 64 : av.grh.hopLimit;
        int tc = av.grh.trafficClass & 0xFF;
        if (v4) {
            h[at] = 0x45;
            h[at + 1] = (byte) tc;
            MadFrames.put16(h, at + 2, IP4 + UDP + tlen);
            MadFrames.put16(h, at + 4, 0);
            MadFrames.put16(h, at + 6, Ipv4Header.IP_DF);
            h[at + 8] = (byte) hop;
            h[at + 9] = (byte) Ipv4Header.IPPROTO_UDP;
            MadFrames.put16(h, at + 10, 0);
            MadFrames.put32(h, at + 12, (int) src.gid.interfaceId());
            MadFrames.put32(h, at + 16, (int) dgid.interfaceId());
            MadFrames.put16(h, at + 10, Ipv4Header.internetChecksum(h, at, IP4));
            at += IP4;
        } else {
            int fl = av.grh.flowLabel & 0xFFFFF;
            h[at] = (byte) (0x60 | tc >>> 4);
            h[at + 1] = (byte) (tc << 4 | fl >>> 16);
            h[at + 2] = (byte) (fl >>> 8);
            h[at + 3] = (byte) fl;
            MadFrames.put16(h, at + 4, UDP + tlen);
            h[at + 6] = (byte) Ipv4Header.IPPROTO_UDP;
            h[at + 7] = (byte) hop;
            src.gid.writeTo(h, at + 8);
            dgid.writeTo(h, at + 24);
            at += IP6;
        }
        int qpn = (pkt.hdr[5] & 0xFF) << 16 | (pkt.hdr[6] & 0xFF) << 8 | pkt.hdr[7] & 0xFF;
        MadFrames.put16(h, at, udpSourcePort(qpn));
        MadFrames.put16(h, at + 2, UdpHeader.ROCE_V2_UDP_DPORT);
        MadFrames.put16(h, at + 4, UDP + tlen);
        MadFrames.put16(h, at + 6, 0);
        at += UDP;
        if (at + pkt.hdrLen > Packet.HEADER_CAPACITY) {
            p.release();
            port.dev.txDropped.incrementAndGet();
            return 0;
        }
        System.arraycopy(pkt.hdr, 0, h, at, pkt.hdrLen);
        p.headerLength = at + pkt.hdrLen;
        p.payload = pkt.payload;
        p.payloadOffset = pkt.payloadOffset;
        p.payloadLength = pkt.payloadLength;
        p.padCount = pkt.padCount;
        if (port.roce.isOwn(dgid.subnetPrefix(), dgid.interfaceId())) {
            loopback(p);
            return 0;
        }
        sendFrame(p);
        return 0;
    }

    private void loopback(Packet p) {
        try {
            receive(p);
        } finally {
            p.release();
        }
    }

    @Override
    public void sendFrame(Packet p) {
        eth.transmit(p);
    }

    // ================================================================== receive

    @Override
    public void receive(Packet p) {
        Mlx4Device dev = port.dev;
        if (p.isMaterialized() && !p.verifyCrcs()) {
            dev.rxCrcErrors.incrementAndGet();
            return;
        }
        if (!p.isRoce()) {
            dev.rxDropped.incrementAndGet();
            return;
        }
        long dmac = p.destMac();
        if (dmac != port.roce.mac().value() && (dmac & 0x0100_0000_0000L) == 0) {
            dev.rxDropped.incrementAndGet();
            return;
        }
        int vlan = port.params.vlan;
        int tci = p.vlanTci();
        if (vlan >= 0 ? tci < 0 || (tci & 0xFFF) != vlan : tci >= 0) {
            dev.rxDropped.incrementAndGet();
            return;
        }
        int l3 = p.l3Offset();
        int bth = p.bthOffset();
        int hdrLen = p.headerLength - bth;
        if (bth < 0 || hdrLen < 12 || hdrLen > RvtPacket.MAX_HDR) {
            dev.rxDropped.incrementAndGet();
            return;
        }
        byte[] h = p.header;
        boolean v4 = p.etherType() == EthHeader.ETH_P_IP;
        long sHi;
        long sLo;
        long dHi;
        long dLo;
        if (v4) {
            sHi = 0;
            sLo = 0xFFFF_0000_0000L | (p.u32(l3 + 12) & 0xFFFF_FFFFL);
            dHi = 0;
            dLo = 0xFFFF_0000_0000L | (p.u32(l3 + 16) & 0xFFFF_FFFFL);
        } else {
            sHi = MadFrames.get64(h, l3 + 8);
            sLo = MadFrames.get64(h, l3 + 16);
            dHi = MadFrames.get64(h, l3 + 24);
            dLo = MadFrames.get64(h, l3 + 32);
        }
        boolean mcast = v4 ? (h[l3 + 16] & 0xF0) == 0xE0 : (h[l3 + 24] & 0xFF) == 0xFF;
        if (!mcast && !port.roce.isOwn(dHi, dLo)) {
            dev.rxDropped.incrementAndGet();
            return;
        }
        RxPool.Slot slot = rx.take(p, bth, hdrLen, port.num);
        RvtPacket r = slot.pkt;
        r.payloadStable = false;
        // no LRH on RoCE; set anyway, the descriptor is not cleared between packets (RxPool.take)
        r.slid = 0;
        r.dlid = 0;
        r.vl15 = false;
        r.sl = tci >= 0 ? tci >>> 13 : 0;
        r.hasGrh = true;
        if (v4) {
            java.util.Arrays.fill(r.grh, 0, 20, (byte) 0);
            System.arraycopy(h, l3, r.grh, 20, IP4);
            r.networkHdrType = 2;
        } else {
            System.arraycopy(h, l3, r.grh, 0, IP6);
            r.networkHdrType = 3;
        }
        r.sgidHi = sHi;
        r.sgidLo = sLo;
        r.dgidHi = dHi;
        r.dgidLo = dLo;
        System.arraycopy(h, 6, r.smac, 0, 6);
        r.vlanId = tci >= 0 ? tci & 0xFFF : -1;
        try {
            dev.rvt.receive(port.num, r);
        } finally {
            slot.done();
        }
    }
}
