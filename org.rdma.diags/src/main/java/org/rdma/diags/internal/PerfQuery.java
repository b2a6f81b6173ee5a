package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rdma.diags.internal.MadFields.Field;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * The work of {@code perfquery} (infiniband-diags/perfquery.c): PerfMgt ClassPortInfo for the
 * agent's capabilities, PortCounters or PortCountersExtended of one port, a list of ports, or
 * all of them (by AllPortSelect, or summed port by port when the agent lacks it), and the
 * counter reset ({@code performance_reset_via()}).
 */
final class PerfQuery {
    /** {@code IB_PM_ALL_PORT_SELECT}. */
    static final int CAP_ALL_PORT_SELECT = 1 << 8;
    /** {@code IB_PM_EXT_WIDTH_SUPPORTED}. */
    static final int CAP_EXT_WIDTH = 1 << 9;
    /** {@code IB_PM_PC_XMIT_WAIT_SUP}. */
    static final int CAP_XMIT_WAIT = 1 << 12;
    /** {@code IB_PM_IS_QP1_DROP_SUP}. */
    static final int CAP_QP1_DROP = 1 << 15;
    /** PortXmitWait in PortCounters: word 10, which a PMA without {@link #CAP_XMIT_WAIT} may not fill. */
    private static final int XMIT_WAIT_OFFSET = 40;

    private final MadRpc rpc;
    private final PortId dest;
    private final boolean extended;
    private int capMask;
    private int capMask2;

    PerfQuery(MadRpc rpc, PortId dest, boolean extended) {
        this.rpc = rpc;
        this.dest = dest;
        this.extended = extended;
    }

    /** ClassPortInfo through {@code port}: perfquery's first question; sets the capabilities. */
    void classPortInfo(int port) {
        byte[] cpi;
        try {
            cpi = rpc.pmaGet(dest, PerfMgmtMad.IB_PMA_CLASS_PORT_INFO, port);
        } catch (RdmaException e) {
            throw DiagText.fail("classportinfo query", e);
        }
        capMask = MadRpc.capMask(cpi);
        capMask2 = MadRpc.capMask2(cpi);
    }

    int capMask() {
        return capMask;
    }

    boolean allPortSelect() {
        return (capMask & CAP_ALL_PORT_SELECT) != 0;
    }

    /** The counters of one port (or of AllPortSelect 255) as {@code dump_perfcounters()} prints them. */
    List<String> counters(int port) {
        List<String> out = new ArrayList<>();
        out.add(header(port));
        out.addAll(MadFields.dump(fields(), query(port), 0));
        return out;
    }

    /** The counters of {@code ports} summed as perfquery aggregates them, reported as port 255. */
    List<String> aggregate(List<Integer> ports) {
        List<Field> fields = fields();
        long[] sum = new long[fields.size()];
        for (int p : ports) {
            byte[] d = query(p);
            for (int i = 0; i < fields.size(); i++) {
                Field f = fields.get(i);
                if (f.name().equals("PortSelect") || f.name().equals("CounterSelect")) {
                    sum[i] = f.value(d, 0);
                } else {
                    long max = f.bits() == 64 ? -1L : (1L << f.bits()) - 1;
                    long s = sum[i] + f.value(d, 0);
                    sum[i] = f.bits() == 64 ? s : Math.min(s, max);
                }
            }
        }
        List<String> out = new ArrayList<>();
        out.add(header(MadRpc.ALL_PORTS));
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            long v = f.name().equals("PortSelect") ? MadRpc.ALL_PORTS : sum[i];
            out.add(MadFields.label(f.name()) + MadFields.render(f.fmt(), v, f.bits()));
        }
        return out;
    }

    /**
     * {@code reset_counters()}: clears the counters of {@code mask} on {@code port}; perfquery's
     * mask grows by PortXmitWait and QP1Dropped (and the extended counters) the agent supports.
     */
    void reset(int port, long mask, boolean maskGiven) {
        long m = mask;
        if (!maskGiven && !extended) {
            m |= (capMask & CAP_XMIT_WAIT) != 0 ? 1L << 16 : 0;
            m |= (capMask & CAP_QP1_DROP) != 0 ? 1L << 17 : 0;
        }
        if (extended) {
            m |= 0xfff0000L;
            m |= (capMask & CAP_XMIT_WAIT) != 0 ? 1L << 28 : 0;
            m |= (capMask & CAP_QP1_DROP) != 0 ? 1L << 29 : 0;
        }
        try {
            rpc.pmaReset(dest, extended ? PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT : PerfMgmtMad.IB_PMA_PORT_COUNTERS, port, m);
        } catch (RdmaException e) {
            throw DiagText.fail(extended ? "perf ext reset" : "perf reset", e);
        }
    }

    private byte[] query(int port) {
        byte[] d;
        try {
            d = rpc.pmaGet(dest, extended ? PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT : PerfMgmtMad.IB_PMA_PORT_COUNTERS, port);
        } catch (RdmaException e) {
            throw DiagText.fail(extended ? "perfextquery" : "perfquery", e);
        }
        if (!extended && (capMask & CAP_XMIT_WAIT) == 0) {
            // PortXmitWait not announced: perfquery ignores what the agent put there
            Arrays.fill(d, XMIT_WAIT_OFFSET, XMIT_WAIT_OFFSET + 4, (byte) 0);
        }
        return d;
    }

    private List<Field> fields() {
        if (!extended) {
            return AttrDumps.PORT_COUNTERS;
        }
        List<Field> f = new ArrayList<>(AttrDumps.PORT_COUNTERS_EXT);
        if ((capMask & CAP_EXT_WIDTH) != 0) {
            f.addAll(AttrDumps.PORT_COUNTERS_EXT_WIDTH);
        }
        return f;
    }

    private String header(int port) {
        if (extended) {
            return String.format(Locale.ROOT, "# Port extended counters: %s port %d (CapMask: 0x%02X CapMask2: 0x%07X)",
                    dest, port, capMask, capMask2);
        }
        return String.format(Locale.ROOT, "# Port counters: %s port %d (CapMask: 0x%02X)", dest, port, capMask);
    }

    /** The ports perfquery iterates: 1..NumPorts, from 0 on a switch with an enhanced port 0. */
    List<Integer> allPorts() {
        NodeInfo ni;
        try {
            ni = new NodeInfo().unpack(rpc.smpGet(dest, NodeInfo.ATTR_ID, 0), 0);
        } catch (RdmaException e) {
            throw DiagText.fail("smp query nodeinfo failed", e);
        }
        int start = 1;
        if (ni.nodeType == NodeInfo.NODE_TYPE_SWITCH) {
            SwitchInfo si = new SwitchInfo().unpack(rpc.smpGet(dest, SwitchInfo.ATTR_ID, 0), 0);
            start = si.enhancedPort0 ? 0 : 1;
        }
        List<Integer> out = new ArrayList<>();
        for (int p = start; p <= ni.numPorts; p++) {
            out.add(p);
        }
        return out;
    }

    /**
     * perfquery's port argument: {@code 1}, {@code 1,4,8} or {@code 1-10}; EINVAL for anything
     * else or a range that does not grow.
     */
    static List<Integer> ports(String arg, DiagOptions o) {
        List<Integer> out = new ArrayList<>();
        if (arg.contains(",")) {
            for (String p : arg.split(",")) {
                out.add((int) o.number("port", p, 0, 255));
            }
        } else if (arg.indexOf('-') > 0) {
            int min = (int) o.number("port", arg.substring(0, arg.indexOf('-')), 0, 255);
            int max = (int) o.number("port", arg.substring(arg.indexOf('-') + 1), 0, 255);
            if (min >= max) {
                throw new RdmaException(Errno.EINVAL, "max port must be greater than min port in range");
            }
            for (int p = min; p <= max; p++) {
                out.add(p);
            }
        } else {
            out.add((int) o.number("port", arg, 0, 255));
        }
        return out;
    }
}
