package org.rdma.hca.mlx4sim.internal;

import org.rdma.fabric.Packet;
import org.rdma.fabric.PortCounterSnapshot;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortCountersExtended;

/**
 * The performance management agent of one IB port on QP1 (class 0x04, IBTA 16.1): the counters
 * part of {@code mlx4_ib_process_mad()} ({@code iboe_process_mad_port_info()} /
 * {@code MAD_IFC} for PortCounters, {@code edit_counter()} for PortCountersExtended in
 * drivers/infiniband/hw/mlx4/mad.c). Counters come from the fabric port; a Set(PortCounters)
 * clears the selected counters by moving a per-counter baseline, because the fabric port can
 * only clear all of them at once.
 */
final class Pma {
    private static final int N = 19;
    private final Mlx4Port port;
    /** Baselines subtracted from the fabric counters (selective clear). */
    private final long[] base = new long[N];

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

    /** Builds the GetResp of one PerfMgt request. */
    byte[] process(PerfMgmtMad req) {
        PerfMgmtMad resp = req.copy();
        resp.madHdr.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        boolean set = req.madHdr.method == MadHdr.IB_MGMT_METHOD_SET;
        int status = 0;
        if (req.madHdr.classVersion != PerfMgmtMad.IB_PMA_CLASS_VERSION) {
            status = MadHdr.IB_MGMT_MAD_STATUS_BAD_VERSION;
        } else {
            switch (req.madHdr.attrId) {
                case PerfMgmtMad.IB_PMA_CLASS_PORT_INFO:
                    if (set) {
                        status = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
                        break;
                    }
                    ClassPortInfo cpi = new ClassPortInfo();
                    cpi.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
                    cpi.classVersion = PerfMgmtMad.IB_PMA_CLASS_VERSION;
                    cpi.capabilityMask = PerfMgmtMad.IB_PMA_CLASS_CAP_EXT_WIDTH;
                    cpi.respTimeValue = 18;
                    resp.setData(cpi);
                    break;
                case PerfMgmtMad.IB_PMA_PORT_COUNTERS:
                    status = portCounters(req, resp, set);
                    break;
                case PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT:
                    status = portCountersExt(req, resp, set);
                    break;
                default:
                    status = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
                    break;
            }
        }
        resp.madHdr.status = status;
        byte[] out = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        resp.pack(out, 0);
        return out;
    }

    private boolean selects(int portSelect) {
        return portSelect == port.num || portSelect == PortCounters.PORT_SELECT_ALL || portSelect == 0;
    }

    /** The fabric counters in the order of {@link PortCounterSnapshot}'s components. */
    private static long[] raw(PortCounterSnapshot s) {
        return new long[] {s.symbolErrorCounter(), s.linkErrorRecoveryCounter(), s.linkDownedCounter(),
            s.portRcvErrors(), s.portRcvRemotePhysicalErrors(), s.portRcvSwitchRelayErrors(), s.portXmitDiscards(),
            s.portXmitConstraintErrors(), s.portRcvConstraintErrors(), s.vl15Dropped(), s.portXmitData(),
            s.portRcvData(), s.portXmitPkts(), s.portRcvPkts(), s.portUnicastXmitPkts(), s.portUnicastRcvPkts(),
            s.portMulticastXmitPkts(), s.portMulticastRcvPkts(), s.portRcvStateDiscards()};
    }

    private synchronized long[] current() {
        long[] v = raw(port.fport.counters());
        for (int i = 0; i < N; i++) {
            v[i] = Math.max(0, v[i] - base[i]);
        }
        return v;
    }

    private synchronized void clear(int counter) {
        base[counter] = raw(port.fport.counters())[counter];
    }

    private static final int[] PC_SELECT = {PortCounters.SEL_SYMBOL_ERROR, PortCounters.SEL_LINK_ERROR_RECOVERY,
        PortCounters.SEL_LINK_DOWNED, PortCounters.SEL_PORT_RCV_ERRORS, PortCounters.SEL_PORT_RCV_REMPHYS_ERRORS,
        PortCounters.SEL_PORT_RCV_SWITCH_RELAY_ERRORS, PortCounters.SEL_PORT_XMIT_DISCARDS,
        PortCounters.SEL_PORT_XMIT_CONSTRAINT_ERRORS, PortCounters.SEL_PORT_RCV_CONSTRAINT_ERRORS,
        PortCounters.SEL_PORT_VL15_DROPPED, PortCounters.SEL_PORT_XMIT_DATA, PortCounters.SEL_PORT_RCV_DATA,
        PortCounters.SEL_PORT_XMIT_PACKETS, PortCounters.SEL_PORT_RCV_PACKETS};

    private int portCounters(PerfMgmtMad req, PerfMgmtMad resp, boolean set) {
        PortCounters in = new PortCounters().unpack(req.data, 0);
        if (!selects(in.portSelect)) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            for (int i = 0; i < PC_SELECT.length; i++) {
                if ((in.counterSelect & PC_SELECT[i]) != 0) {
                    clear(i);
                }
            }
        }
        long[] v = current();
        PortCounters pc = new PortCounters();
        pc.portSelect = in.portSelect;
        pc.counterSelect = in.counterSelect;
        pc.symbolErrorCounter = sat(v[0], 16);
        pc.linkErrorRecoveryCounter = sat(v[1], 8);
        pc.linkDownedCounter = sat(v[2], 8);
        pc.portRcvErrors = sat(v[3], 16);
        pc.portRcvRemotePhysicalErrors = sat(v[4], 16);
        pc.portRcvSwitchRelayErrors = sat(v[5], 16);
        pc.portXmitDiscards = sat(v[6], 16);
        pc.portXmitConstraintErrors = sat(v[7], 8);
        pc.portRcvConstraintErrors = sat(v[8], 8);
        pc.vl15Dropped = sat(v[9], 16);
        pc.portXmitData = sat(v[10], 32);
        pc.portRcvData = sat(v[11], 32);
        pc.portXmitPkts = sat(v[12], 32);
        pc.portRcvPkts = sat(v[13], 32);
        resp.setData(pc);
        return 0;
    }

    private static final int[] PCX_SELECT = {PortCountersExtended.SELX_PORT_XMIT_DATA,
        PortCountersExtended.SELX_PORT_RCV_DATA, PortCountersExtended.SELX_PORT_XMIT_PACKETS,
        PortCountersExtended.SELX_PORT_RCV_PACKETS, PortCountersExtended.SELX_PORT_UNI_XMIT_PACKETS,
        PortCountersExtended.SELX_PORT_UNI_RCV_PACKETS, PortCountersExtended.SELX_PORT_MULTI_XMIT_PACKETS,
        PortCountersExtended.SELX_PORT_MULTI_RCV_PACKETS};

    private int portCountersExt(PerfMgmtMad req, PerfMgmtMad resp, boolean set) {
        PortCountersExtended in = new PortCountersExtended().unpack(req.data, 0);
        if (!selects(in.portSelect)) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            for (int i = 0; i < PCX_SELECT.length; i++) {
                if ((in.counterSelect & PCX_SELECT[i]) != 0) {
                    clear(10 + i);
                }
            }
        }
        long[] v = current();
        PortCountersExtended pc = new PortCountersExtended();
        pc.portSelect = in.portSelect;
        pc.counterSelect = in.counterSelect;
        pc.portXmitData = v[10];
        pc.portRcvData = v[11];
        pc.portXmitPkts = v[12];
        pc.portRcvPkts = v[13];
        pc.portUnicastXmitPkts = v[14];
        pc.portUnicastRcvPkts = v[15];
        pc.portMulticastXmitPkts = v[16];
        pc.portMulticastRcvPkts = v[17];
        resp.setData(pc);
        return 0;
    }

    /** PortCounters fields stop at their maximum (IBTA 16.1.3.5). */
    private static int sat(long v, int bits) {
        long max = bits == 32 ? 0xFFFF_FFFFL : (1L << bits) - 1;
        return (int) Math.min(v, max);
    }
}
