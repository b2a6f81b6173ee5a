package org.rdma.rvt.internal.qp;

import org.rdma.rvt.RvtCounter;
import org.rdma.rvt.RvtPacket;
import org.rdma.rvt.internal.wire.Hdr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;

/**
 * The receive demultiplexer ({@code rxe_recv.c}, {@code rvt_mcast_find()}): decodes the BTH,
 * checks the opcode, header length, QP, QP type and state, P_Key, Q_Key, VL15 for QP0 and the
 * source address of connected QPs, then hands the packet to the QP's responder (requests) or
 * completer (responses). Multicast packets go to every QP attached to the group. Everything
 * rejected here is dropped silently and counted.
 */
public final class Receiver {
    private static final int MULTICAST_QPN = 0xffffff;

    private final RvtContext dev;

    /** A demultiplexer for {@code dev}. */
    public Receiver(RvtContext dev) {
        this.dev = dev;
    }

    /** {@code rxe_rcv()}: one packet from the driver. */
    public void receive(int port, RvtPacket pkt) {
        byte[] h = pkt.hdr;
        if (pkt.hdrLen < Opcodes.BTH_BYTES) {
            drop(pkt);
            return;
        }
        int op = Hdr.bthOpcode(h);
        int mask = Opcodes.mask(op);
        if (mask == 0 || pkt.hdrLen < Opcodes.length(op) || Hdr.bthTver(h) != 0
                || (mask & Opcodes.PAYLOAD) == 0 && pkt.payloadLength != 0) {
            drop(pkt);
            return;
        }
        if (pkt.segments != 1 && !trainable(op, mask, pkt)) {
            drop(pkt);
            return;
        }
        pkt.opcode = op;
        pkt.mask = mask;
        pkt.psn = Hdr.bthPsn(h);
        pkt.port = port;
        int qpn = Hdr.bthQpn(h);
        if (qpn == MULTICAST_QPN) {
            multicast(port, pkt);
            return;
        }
        RvtQp qp = dev.qps.lookup(port, qpn);
        if (qp == null || !accept(qp, port, pkt)) {
            drop(pkt);
            return;
        }
        qp.deliver(pkt, (mask & Opcodes.ACK) != 0);
    }

    /**
     * A train holds RC SEND or WRITE MIDDLE packets with no header beyond the BTH and no pad; one
     * that starts its message starts with the FIRST one opcode below, one that ends it ends with
     * the LAST one opcode up, of the MIDDLE's length.
     */
    private static boolean trainable(int op, int mask, RvtPacket pkt) {
        int middle = pkt.startsMessage ? op + 1 : op;
        return pkt.segments > 1 && pkt.segments <= RvtQp.MAX_TRAIN && Opcodes.transport(op) == Opcodes.RC
                && pkt.padCount == 0 && pkt.payloadLength > 0 && pkt.hdrLen == Opcodes.length(op)
                && is(middle, Opcodes.MIDDLE) && Opcodes.length(middle) == Opcodes.BTH_BYTES
                && (!pkt.startsMessage || is(op, Opcodes.START))
                && (!pkt.endsMessage || is(middle + 1, Opcodes.END) && Opcodes.length(middle + 1) == Opcodes.BTH_BYTES);
    }

    /** Whether {@code op} is a request with {@code kind} (START, MIDDLE or END) in its mask. */
    private static boolean is(int op, int kind) {
        int m = Opcodes.mask(op);
        return (m & (Opcodes.REQ | kind)) == (Opcodes.REQ | kind);
    }

    private void multicast(int port, RvtPacket pkt) {
        if (Opcodes.transport(pkt.opcode) != Opcodes.UD || !pkt.hasGrh
                || !Gid.isMulticastAddr(pkt.dgidHi, pkt.dgidLo)) {
            drop(pkt);
            return;
        }
        McastTable.Group g = dev.mcast.find(port, pkt.dgidHi, pkt.dgidLo, dev.isRoce(port) ? 0 : pkt.dlid);
        if (g == null) {
            drop(pkt);
            return;
        }
        RvtQp[] qps = g.qps;
        for (int i = 0; i < qps.length; i++) {
            RvtQp qp = qps[i];
            if (accept(qp, port, pkt)) {
                qp.deliver(pkt, false);
            } else {
                drop(pkt);
            }
        }
    }

    /** {@code check_type_state()}, {@code check_keys()}, {@code check_addr()}. */
    private boolean accept(RvtQp qp, int port, RvtPacket pkt) {
        int mask = pkt.mask;
        if (Opcodes.transport(pkt.opcode) != qp.transport() || qp.destroyed) {
            return false;
        }
        QpState st = qp.state;
        if ((mask & Opcodes.REQ) != 0) {
            if (st == QpState.RESET || st == QpState.INIT || st == QpState.ERR) {
                return false;
            }
        } else if (st != QpState.RTS && st != QpState.SQD && st != QpState.SQE) {
            return false;
        }
        if (qp.type != QpType.GSI && qp.type != QpType.SMI && qp.port != port) {
            return false;
        }
        if (qp.type == QpType.SMI) {
            return pkt.vl15;
        }
        if (pkt.vl15) {
            return false;
        }
        int pkey = Hdr.bthPkey(pkt.hdr);
        boolean pkeyOk = qp.type == QpType.GSI ? dev.findPkey(port, pkey) >= 0
                : RvtContext.pkeyMatch(pkey, dev.pkey(port, qp.pkeyIndex));
        if (!pkeyOk) {
            dev.count(RvtCounter.BAD_PKEY, Math.max(1, pkt.segments));
            return false;
        }
        if ((mask & Opcodes.DETH) != 0 && Hdr.dethQkey(pkt.hdr, pkt.opcode) != qp.qkey) {
            dev.count(RvtCounter.BAD_QKEY);
            return false;
        }
        if (qp.isUd()) {
            return true;
        }
        AhAttr av = qp.av;
        if (av.hasGrh()) {
            return pkt.hasGrh && pkt.sgidHi == av.grh.dgid.subnetPrefix() && pkt.sgidLo == av.grh.dgid.interfaceId();
        }
        return pkt.slid == av.dlid;
    }

    /** Counts every packet {@code pkt} stands for (a train's too) as dropped. */
    private void drop(RvtPacket pkt) {
        dev.count(RvtCounter.RCV_DROPPED, Math.max(1, pkt.segments));
    }
}
