package org.rdma.hca.mlx4sim.internal;

import java.nio.ByteBuffer;
import org.rdma.fabric.Packet;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Deth;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;

/**
 * MAD datagrams the firmware itself sends on an InfiniBand port (SMA and PMA responses, traps):
 * LRH, BTH SEND_ONLY, DETH and the 256-byte MAD, as the ConnectX firmware builds them for the
 * answers of {@code mlx4_ib_process_mad()} (and as {@code build_mlx_header()} builds QP0/QP1
 * headers for the host).
 */
final class MadFrames {
    /** LRH + BTH + DETH. */
    static final int UD_HEADERS = Lrh.IB_LRH_BYTES + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES;
    /** The permissive LID. */
    static final int PERMISSIVE = 0xFFFF;

    private MadFrames() {
    }

    /** A UD MAD packet from {@code port}'s pool. */
    static Packet ud(Mlx4Port port, int vl, int sl, int dlid, int slid, int destQp, int pkey, int qkey, int srcQp,
                     byte[] mad) {
        Packet p = port.fport.allocPacket();
        byte[] h = p.header;
        int len = UD_HEADERS + mad.length + 4;
        h[0] = (byte) (vl << 4);
        h[1] = (byte) (sl << 4 | Lrh.LNH_IBA_LOCAL);
        put16(h, 2, dlid);
        put16(h, 4, (len >>> 2) & 0x7FF);
        put16(h, 6, slid);
        int b = Lrh.IB_LRH_BYTES;
        h[b] = (byte) Bth.OPCODE_UD_SEND_ONLY;
        h[b + 1] = 0;
        put16(h, b + 2, pkey);
        h[b + 4] = 0;
        put24(h, b + 5, destQp);
        h[b + 8] = 0;
        put24(h, b + 9, 0);
        int d = b + Bth.IB_BTH_BYTES;
        put32(h, d, qkey);
        h[d + 4] = 0;
        put24(h, d + 5, srcQp);
        p.headerLength = UD_HEADERS;
        p.payload = ByteBuffer.wrap(mad);
        p.payloadOffset = 0;
        p.payloadLength = mad.length;
        p.padCount = 0;
        return p;
    }

    /**
     * The MAD a UD packet carries, or {@code null} if it is not a SEND_ONLY of at least 256 bytes
     * after the DETH.
     */
    static byte[] madOf(Packet p, int bth) {
        int deth = bth + Bth.IB_BTH_BYTES;
        int mad = deth + Deth.IB_DETH_BYTES;
        if (p.headerLength < mad || p.opcode(bth) != Bth.OPCODE_UD_SEND_ONLY
                || p.headerLength + p.payloadLength < mad + MadHdr.IB_MGMT_MAD_SIZE) {
            return null;
        }
        byte[] out = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        p.readBytes(mad, out, 0, out.length);
        return out;
    }

    static void put16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    static void put24(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 16);
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) v;
    }

    static void put32(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    static void put64(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long get64(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[at + i] & 0xFF);
        }
        return v;
    }
}
