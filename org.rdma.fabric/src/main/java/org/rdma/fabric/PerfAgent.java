package org.rdma.fabric;

import java.util.List;
import java.util.function.IntFunction;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortCountersExtended;

/**
 * The answers of a performance management agent (IBTA 16.1, management class 0x04) over the
 * counters of fabric ports: what a switch's PMA and an HCA firmware's PMA (the counters part of
 * mlx4's {@code mlx4_ib_process_mad()}; in software, qib's and hfi1's {@code process_perf()})
 * reply to Get and Set of ClassPortInfo, PortCounters and PortCountersExtended. The agent itself
 * (which QP, which ports a PortSelect names) belongs to the node.
 */
public final class PerfAgent {
    /** ClassPortInfo:RespTimeValue: 4.096 us x 2^18, about 1 s. */
    static final int RESP_TIME_VALUE = 18;

    /** PortCounters CounterSelect bits, in the order of the first components of {@link PortCounterSnapshot}. */
    private static final int[] PC_SELECT = {PortCounters.SEL_SYMBOL_ERROR, PortCounters.SEL_LINK_ERROR_RECOVERY,
        PortCounters.SEL_LINK_DOWNED, PortCounters.SEL_PORT_RCV_ERRORS, PortCounters.SEL_PORT_RCV_REMPHYS_ERRORS,
        PortCounters.SEL_PORT_RCV_SWITCH_RELAY_ERRORS, PortCounters.SEL_PORT_XMIT_DISCARDS,
        PortCounters.SEL_PORT_XMIT_CONSTRAINT_ERRORS, PortCounters.SEL_PORT_RCV_CONSTRAINT_ERRORS,
        PortCounters.SEL_PORT_VL15_DROPPED, PortCounters.SEL_PORT_XMIT_DATA, PortCounters.SEL_PORT_RCV_DATA,
        PortCounters.SEL_PORT_XMIT_PACKETS, PortCounters.SEL_PORT_RCV_PACKETS};
    /** PortCountersExtended CounterSelect bits, for the components from PortXmitData on. */
    private static final int[] PCX_SELECT = {PortCountersExtended.SELX_PORT_XMIT_DATA,
        PortCountersExtended.SELX_PORT_RCV_DATA, PortCountersExtended.SELX_PORT_XMIT_PACKETS,
        PortCountersExtended.SELX_PORT_RCV_PACKETS, PortCountersExtended.SELX_PORT_UNI_XMIT_PACKETS,
        PortCountersExtended.SELX_PORT_UNI_RCV_PACKETS, PortCountersExtended.SELX_PORT_MULTI_XMIT_PACKETS,
        PortCountersExtended.SELX_PORT_MULTI_RCV_PACKETS};
    /** Component index of PortXmitData, the first one PortCountersExtended carries. */
    private static final int XMIT_DATA = 10;

    private PerfAgent() {
    }

    /**
     * {@code process_perf()}: the GetResp (a full MAD) to PerfMgt Get or Set {@code req}
     * ({@code pma_get_classportinfo()}, {@code pma_get_portcounters()} and
     * {@code pma_set_portcounters()}, and their extended forms): ClassPortInfo with
     * {@code capabilityMask} ({@code IB_PMA_CLASS_CAP_*}); PortCounters and PortCountersExtended
     * summed over the ports {@code select} returns for the request's PortSelect (none is an
     * invalid attribute value), a Set clearing the selected counters first; PortCounters fields
     * stop at their maximum instead of wrapping (16.1.3.5). Another class version is BAD_VERSION,
     * anything else UNSUPPORTED_METHOD_ATTRIB.
     */
    public static byte[] process(PerfMgmtMad req, int capabilityMask, IntFunction<List<? extends FabricPort>> select) {
        PerfMgmtMad resp = req.copy();
        resp.madHdr.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        boolean set = req.madHdr.method == MadHdr.IB_MGMT_METHOD_SET;
        int status;
        if (req.madHdr.classVersion != PerfMgmtMad.IB_PMA_CLASS_VERSION) {
            status = MadHdr.IB_MGMT_MAD_STATUS_BAD_VERSION;
        } else {
            status = switch (req.madHdr.attrId) {
                case PerfMgmtMad.IB_PMA_CLASS_PORT_INFO -> set ? MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB
                        : classPortInfo(resp, capabilityMask);
                case PerfMgmtMad.IB_PMA_PORT_COUNTERS -> portCounters(req, resp, set, select);
                case PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT -> portCountersExt(req, resp, set, select);
                default -> MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
            };
        }
        resp.madHdr.status = status;
        byte[] out = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        resp.pack(out, 0);
        return out;
    }

    private static int classPortInfo(PerfMgmtMad resp, int capabilityMask) {
        ClassPortInfo cpi = new ClassPortInfo();
        cpi.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
        cpi.classVersion = PerfMgmtMad.IB_PMA_CLASS_VERSION;
        cpi.capabilityMask = capabilityMask;
        cpi.respTimeValue = RESP_TIME_VALUE;
        resp.setData(cpi);
        return 0;
    }

    private static int portCounters(PerfMgmtMad req, PerfMgmtMad resp, boolean set,
            IntFunction<List<? extends FabricPort>> select) {
        PortCounters in = new PortCounters().unpack(req.data, 0);
        List<? extends FabricPort> ports = select.apply(in.portSelect);
        if (ports.isEmpty()) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            clear(ports, in.counterSelect, PC_SELECT, 0);
        }
        long[] v = sum(ports);
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

    private static int portCountersExt(PerfMgmtMad req, PerfMgmtMad resp, boolean set,
            IntFunction<List<? extends FabricPort>> select) {
        PortCountersExtended in = new PortCountersExtended().unpack(req.data, 0);
        List<? extends FabricPort> ports = select.apply(in.portSelect);
        if (ports.isEmpty()) {
            return MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        }
        if (set) {
            clear(ports, in.counterSelect, PCX_SELECT, XMIT_DATA);
        }
        long[] v = sum(ports);
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

    /** Clears on every port the components whose select bit ({@code bits[i]} for component {@code first + i}) is set. */
    private static void clear(List<? extends FabricPort> ports, int counterSelect, int[] bits, int first) {
        long components = 0;
        for (int i = 0; i < bits.length; i++) {
            if ((counterSelect & bits[i]) != 0) {
                components |= 1L << (first + i);
            }
        }
        for (FabricPort p : ports) {
            p.clearCounters(components);
        }
    }

    private static long[] sum(List<? extends FabricPort> ports) {
        long[] v = new long[PortCounterSnapshot.COMPONENTS];
        for (FabricPort p : ports) {
            long[] c = p.counters().toArray();
            for (int i = 0; i < v.length; i++) {
                v[i] += c[i];
            }
        }
        return v;
    }

    private static int sat(long v, int bits) {
        long max = bits == 32 ? 0xFFFF_FFFFL : (1L << bits) - 1;
        return (int) Math.min(v, max);
    }
}
