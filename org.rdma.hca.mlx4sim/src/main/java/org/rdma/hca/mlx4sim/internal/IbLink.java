package org.rdma.hca.mlx4sim.internal;

import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.wire.Grh;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;

/**
 * Packet I/O of an InfiniBand port. Transmit builds the LRH (VL from the SL-to-VL table, VL15 for
 * QP0, SLID = LID | source path bits, permissive SLID for permissive-DLID SMPs as
 * {@code build_mlx_header()} does) and the GRH when the address vector has one, then the transport
 * headers, with the payload by reference. Receive verifies the CRCs of a materialized packet,
 * checks the DLID against the port's LID range (LMC), passes SMPs and PerfMgt MADs to the
 * embedded {@link Sma}/{@link Pma} (what {@code mlx4_ib_process_mad()} leaves to the firmware) and
 * hands everything else to rvt.
 */
final class IbLink implements LinkIo {
    private static final int LRH = Lrh.IB_LRH_BYTES;
    private static final int GRH = Grh.IB_GRH_BYTES;
    private final Mlx4Port port;
    private final RxPool rx = new RxPool();

    IbLink(Mlx4Port port) {
        this.port = port;
    }

    // ================================================================== transmit

    @Override
    public int transmit(RvtPacket pkt) {
        AhAttr av = pkt.av;
        if (pkt.vl15 && port.sma.interceptLocal(pkt)) {
            return 0;
        }
        boolean global = av.hasGrh();
        int hl = LRH + (global ? GRH : 0);
        if (hl + pkt.hdrLen > Packet.HEADER_CAPACITY) {
            port.dev.txDropped.incrementAndGet();
            return 0;
        }
        Packet p = port.fport.allocPacket();
        byte[] h = p.header;
        int sl = av.sl & 15;
        int vl = pkt.vl15 ? Packet.VL15 : port.vlOf(sl);
        int dlid = av.dlid;
        int slid = pkt.vl15 && dlid == MadFrames.PERMISSIVE ? MadFrames.PERMISSIVE : port.slid(av.srcPathBits);
        int tlen = pkt.hdrLen + pkt.payloadLength + pkt.padCount + Icrc.ICRC_BYTES;
        h[0] = (byte) (vl << 4);
        h[1] = (byte) (sl << 4 | (global ? Lrh.LNH_IBA_GLOBAL : Lrh.LNH_IBA_LOCAL));
        MadFrames.put16(h, 2, dlid);
        MadFrames.put16(h, 4, ((hl + tlen) >>> 2) & 0x7FF);
        MadFrames.put16(h, 6, slid);
        if (global) {
            int tc = av.grh.trafficClass & 0xFF;
            int fl = av.grh.flowLabel & 0xFFFFF;
            h[8] = (byte) (0x60 | tc >>> 4);
            h[9] = (byte) (tc << 4 | fl >>> 16);
            h[10] = (byte) (fl >>> 8);
            h[11] = (byte) fl;
            MadFrames.put16(h, 12, tlen);
            h[14] = (byte) Grh.NEXT_HEADER_IBA;
            h[15] = (byte) av.grh.hopLimit;
            int idx = av.grh.sgidIndex;
            long guid = idx >= 0 && idx < Mlx4Port.GUID_CAP ? port.guids[idx] : 0;
            MadFrames.put64(h, 16, port.gidPrefix);
            MadFrames.put64(h, 24, guid);
            av.grh.dgid.writeTo(h, 32);
        }
        System.arraycopy(pkt.hdr, 0, h, hl, pkt.hdrLen);
        p.headerLength = hl + pkt.hdrLen;
        p.payload = pkt.payload;
        p.payloadOffset = pkt.payloadOffset;
        p.payloadLength = pkt.payloadLength;
        p.padCount = pkt.padCount;
        if (pkt.segments > 1) {
            p.setSegments(pkt.segments, pkt.startsMessage, pkt.endsMessage);
        }
        sendFrame(p);
        return 0;
    }

    @Override
    public void sendFrame(Packet p) {
        int dlid = p.dlid();
        if (dlid != MadFrames.PERMISSIVE && dlid < Packet.MULTICAST_LID_BASE && port.ownsLid(dlid)) {
            // ConnectX loopback: a packet to our own LID never reaches the wire
            try {
                receive(p);
            } finally {
                p.release();
            }
            return;
        }
        port.fport.transmit(p);
    }

    // ================================================================== receive

    /** rvt walks the packets of a train itself. */
    @Override
    public boolean receivesTrains() {
        return true;
    }

    @Override
    public void receive(Packet p) {
        Mlx4Device dev = port.dev;
        if (p.isMaterialized() && !p.verifyCrcs()) {
            dev.rxCrcErrors.incrementAndGet();
            return;
        }
        int lnh = p.lnh();
        if (lnh != Lrh.LNH_IBA_LOCAL && lnh != Lrh.LNH_IBA_GLOBAL) {
            dev.rxDropped.addAndGet(p.segments());
            return;
        }
        int bth = lnh == Lrh.LNH_IBA_LOCAL ? LRH : LRH + GRH;
        int hdrLen = p.headerLength - bth;
        if (hdrLen < 12 || hdrLen > RvtPacket.MAX_HDR) {
            dev.rxDropped.addAndGet(p.segments());
            return;
        }
        int dlid = p.dlid();
        boolean vl15 = p.vl() == Packet.VL15;
        boolean mcast = dlid >= Packet.MULTICAST_LID_BASE && dlid != MadFrames.PERMISSIVE;
        if (dlid == MadFrames.PERMISSIVE ? !vl15 : !mcast && !port.ownsLid(dlid)) {
            dev.rxDropped.addAndGet(p.segments());
            return;
        }
        int dqp = p.destQpn(bth);
        if (vl15) {
            if (dqp != 0) {
                dev.rxDropped.addAndGet(p.segments());
                return;
            }
            if (port.sma.handle(p, bth)) {
                return;
            }
        } else if (dqp == 1 && port.pma.handle(p, bth)) {
            return;
        }
        RxPool.Slot slot = rx.take(p, bth, hdrLen, port.num);
        RvtPacket r = slot.pkt;
        r.payloadStable = p.ownsPayload() && p.payloadLength > 0;
        r.slid = p.slid();
        r.dlid = dlid;
        r.sl = p.sl();
        r.vl15 = vl15;
        r.networkHdrType = 0;
        r.vlanId = -1;
        if (lnh == Lrh.LNH_IBA_GLOBAL) {
            r.hasGrh = true;
            System.arraycopy(p.header, LRH, r.grh, 0, GRH);
            r.sgidHi = MadFrames.get64(p.header, LRH + 8);
            r.sgidLo = MadFrames.get64(p.header, LRH + 16);
            r.dgidHi = MadFrames.get64(p.header, LRH + 24);
            r.dgidLo = MadFrames.get64(p.header, LRH + 32);
        } else {
            // the descriptor may still hold the previous packet's GRH (RxPool.take does not clear)
            r.hasGrh = false;
            r.sgidHi = 0;
            r.sgidLo = 0;
            r.dgidHi = 0;
            r.dgidLo = 0;
        }
        try {
            dev.rvt.receive(port.num, r);
        } finally {
            slot.done();
        }
    }
}
