package org.rdma.hca.mlx4sim.internal;

import java.util.List;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PerfAgent;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;

/**
 * The performance management agent of one IB port on QP1 (class 0x04, IBTA 16.1): the counters
 * part of {@code mlx4_ib_process_mad()} ({@code iboe_process_mad_port_info()} /
 * {@code MAD_IFC} for PortCounters, {@code edit_counter()} for PortCountersExtended in
 * drivers/infiniband/hw/mlx4/mad.c), answered by the fabric's {@link PerfAgent} over the port's
 * fabric counters.
 */
final class Pma {
    private final Mlx4Port port;

    Pma(Mlx4Port port) {
        this.port = port;
    }

    /**
     * A GMP arrived for QP1: answers PerfMgt Get/Set, leaves everything else to the host's QP1.
     *
     * @return whether the PMA consumed the packet
     */
    boolean handle(Packet p, int bth) {
        byte[] mad = MadFrames.madOf(p, bth);
        if (mad == null || (mad[1] & 0xFF) != MadHdr.IB_MGMT_CLASS_PERF_MGMT) {
            return false;
        }
        int deth = bth + Bth.IB_BTH_BYTES;
        if (p.u32(deth) != MadHdr.IB_QP1_QKEY) {
            return false;
        }
        int method = mad[3] & 0xFF;
        if (method != MadHdr.IB_MGMT_METHOD_GET && method != MadHdr.IB_MGMT_METHOD_SET) {
            return false;
        }
        byte[] out = process(new PerfMgmtMad().unpack(mad, 0));
        int sl = p.sl();
        int srcQp = p.u32(deth + 4) & 0xFF_FFFF;
        int own = port.fport.lid();
        port.io.sendFrame(MadFrames.ud(port, port.vlOf(sl), sl, p.slid(), own, srcQp, p.pkey(bth),
                MadHdr.IB_QP1_QKEY, 1, out));
        return true;
    }

    /** Builds the GetResp of one PerfMgt request: this port alone (its number, 0 or all ports). */
    byte[] process(PerfMgmtMad req) {
        return PerfAgent.process(req, PerfMgmtMad.IB_PMA_CLASS_CAP_EXT_WIDTH,
                sel -> sel == port.num || sel == PortCounters.PORT_SELECT_ALL || sel == 0 ? List.of(port.fport) : List.of());
    }
}
