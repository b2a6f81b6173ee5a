package org.rdma.fabric.ibsim.internal;

import java.nio.ByteBuffer;
import org.rdma.fabric.Packet;
import org.rdma.fabric.ibsim.SimRequest;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.IbUdHeader;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;

/**
 * The two encodings of one MAD: an InfiniBand UD packet on the cable to the HCA (LRH [GRH] BTH
 * DETH, then the 256-byte MAD; IBTA vol. 1, 13.4/13.5) and ibsim's {@link SimRequest} frame,
 * which keeps only the LIDs, the QP numbers and the MAD, because ibsim models the links itself.
 *
 * <p>Packets built here carry what the HCA's receive path checks: VL15 for QP0 (SMPs) and VL0
 * otherwise, SL 0, the default P_Key 0xFFFF and the well-known Q_Key for QP1 (0 for QP0, which
 * ignores it).
 */
final class MadFrame {
    /** The default full-member P_Key, which GSI and SMI traffic uses on ibsim's ports. */
    static final int DEFAULT_PKEY = 0xFFFF;
    private static final int MAD = MadHdr.IB_MGMT_MAD_SIZE;

    private MadFrame() {
    }

    /**
     * The frame for a UD packet the HCA sent: the LRH's LIDs, BTH:DestQP, DETH:SrcQP and the MAD
     * (a GRH, if any, is dropped: ibsim routes by LID only).
     *
     * @param p the packet
     * @return the frame
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for anything but a UD SEND of a
     *                                  whole MAD
     */
    static SimRequest toFrame(Packet p) {
        IbUdHeader h = new IbUdHeader();
        int hdr = h.unpack(p.header, 0);
        if (h.immediatePresent) {
            throw new IllegalArgumentException("EINVAL: a MAD travels in a UD SEND without immediate data");
        }
        if (hdr > p.headerLength || p.headerLength + p.payloadLength < hdr + MAD) {
            throw new IllegalArgumentException("EINVAL: a UD packet of " + (p.headerLength + p.payloadLength)
                    + " bytes does not hold a " + MAD + "-byte MAD");
        }
        SimRequest r = new SimRequest();
        p.readBytes(hdr, r.mad, 0, MAD);
        r.dlid = h.lrh.dlid;
        r.slid = h.lrh.slid;
        r.dqp = h.bth.destQpn;
        r.sqp = h.deth.srcQpn;
        r.length = MAD;
        return r;
    }

    /**
     * Fills {@code p} (from the gateway port's pool) with the UD packet carrying frame {@code r}.
     *
     * @param r the frame
     * @param p an empty packet; its payload becomes a copy of the MAD
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for a QP number beyond 24 bits,
     *                                  which names no QP (masked, it could turn into QP0 off VL15)
     */
    static void toPacket(SimRequest r, Packet p) {
        if (((r.dqp | r.sqp) & ~0xFFFFFF) != 0) {
            throw new IllegalArgumentException(String.format("EINVAL: QP numbers are 24 bits, the frame has 0x%x -> 0x%x",
                    r.sqp, r.dqp));
        }
        boolean smi = r.dqp == 0;
        build(p, smi ? Packet.VL15 : 0, r.dlid, r.slid, r.dqp, smi ? 0 : MadHdr.IB_QP1_QKEY, r.sqp, r.mad.clone());
    }

    /**
     * Fills {@code p} with a UD SEND of {@code mad} ({@code ib_ud_header_init()} for a local
     * route, as {@code build_mlx_header()} builds QP0/QP1 headers).
     */
    static void build(Packet p, int vl, int dlid, int slid, int destQp, int qkey, int srcQp, byte[] mad) {
        IbUdHeader h = new IbUdHeader().init(mad.length, true, false, false, false, 0, false, false);
        h.lrh.vl = vl;
        h.lrh.sl = 0;
        h.lrh.dlid = dlid & 0xFFFF;
        h.lrh.slid = slid & 0xFFFF;
        h.lrh.lnh = Lrh.LNH_IBA_LOCAL;
        h.bth.opcode = Bth.OPCODE_UD_SEND_ONLY;
        h.bth.pkey = DEFAULT_PKEY;
        h.bth.destQpn = destQp & 0xFFFFFF;
        h.deth.qkey = qkey;
        h.deth.srcQpn = srcQp & 0xFFFFFF;
        p.headerLength = h.pack(p.header, 0);
        p.payload = ByteBuffer.wrap(mad);
        p.payloadOffset = 0;
        p.payloadLength = mad.length;
        p.padCount = h.bth.padCount;
    }
}
