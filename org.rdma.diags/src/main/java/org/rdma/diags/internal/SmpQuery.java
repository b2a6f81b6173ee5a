package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.GuidInfo;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PKeyTable;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SlToVlTable;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * The operations of {@code smpquery} (infiniband-diags/smpquery.c): each asks the SMA of one
 * node or port through {@link MadRpc} and returns the tool's lines. A failed query is the
 * RPC's errno with the tool's text ({@code node info query failed}).
 */
final class SmpQuery {
    /** One operation ({@code match_rec_t}). */
    enum Op {
        /** {@code NodeInfo (NI)}. */
        NODE_INFO("NodeInfo", "NI", false),
        /** {@code NodeDesc (ND)}. */
        NODE_DESC("NodeDesc", "ND", false),
        /** {@code PortInfo (PI) [portnum]}. */
        PORT_INFO("PortInfo", "PI", true),
        /** {@code SwitchInfo (SI)}. */
        SWITCH_INFO("SwitchInfo", "SI", false),
        /** {@code PKeyTable (PKeys) [portnum]}. */
        PKEY_TABLE("PKeyTable", "PKeys", true),
        /** {@code SL2VLTable (SL2VL) [portnum]}. */
        SL2VL_TABLE("SL2VLTable", "SL2VL", true),
        /** {@code GUIDInfo (GI)}. */
        GUID_INFO("GUIDInfo", "GI", false);

        final String name;
        final String alias;
        final boolean portArg;

        Op(String name, String alias, boolean portArg) {
            this.name = name;
            this.alias = alias;
            this.portArg = portArg;
        }

        /** {@code match_op()}: by name or alias, case insensitive; {@code null} if none. */
        static Op match(String s) {
            for (Op o : values()) {
                if (o.name.equalsIgnoreCase(s) || o.alias.equalsIgnoreCase(s)) {
                    return o;
                }
            }
            return null;
        }
    }

    private final MadRpc rpc;
    private final boolean showKeys;
    private final boolean extendedSpeeds;

    SmpQuery(MadRpc rpc, boolean showKeys, boolean extendedSpeeds) {
        this.rpc = rpc;
        this.showKeys = showKeys;
        this.extendedSpeeds = extendedSpeeds;
    }

    /** Runs {@code op} on {@code dest} with the operation's own arguments. */
    List<String> run(Op op, PortId dest, List<String> args, DiagOptions o) {
        int port = args.isEmpty() ? 0 : (int) o.number("portnum", args.get(0), 0, 255);
        return switch (op) {
            case NODE_INFO -> nodeInfo(dest);
            case NODE_DESC -> nodeDesc(dest);
            case PORT_INFO -> portInfo(dest, port);
            case SWITCH_INFO -> switchInfo(dest);
            case PKEY_TABLE -> pkeyTable(dest, port);
            case SL2VL_TABLE -> sl2vlTable(dest, port);
            case GUID_INFO -> guidInfo(dest);
        };
    }

    private byte[] get(PortId dest, int attrId, int attrMod, String failed) {
        try {
            return rpc.smpGet(dest, attrId, attrMod);
        } catch (RdmaException e) {
            throw DiagText.fail(failed, e);
        }
    }

    /** {@code node_info()}: {@code # Node info: Lid 2} and the NodeInfo dump. */
    List<String> nodeInfo(PortId dest) {
        byte[] d = get(dest, NodeInfo.ATTR_ID, 0, "node info query failed");
        List<String> out = new ArrayList<>();
        out.add("# Node info: " + dest);
        out.addAll(MadFields.dump(AttrDumps.NODE_INFO, d, 0));
        return out;
    }

    /** {@code node_desc()}: {@code Node Description:....name}, the dots padding to 32. */
    List<String> nodeDesc(PortId dest) {
        get(dest, NodeInfo.ATTR_ID, 0, "node info query failed");
        String name = DiagText.nodeDesc(get(dest, Smp.IB_SMP_ATTR_NODE_DESC, 0, "node desc query failed"), 0);
        String dots = name.length() < 32 ? ".".repeat(32 - name.length()) : ".";
        return List.of("Node Description:" + dots + name);
    }

    /** {@code port_info()}: {@code # Port info: Lid 5 port 1} and {@code dump_portinfo()}. */
    List<String> portInfo(PortId dest, int port) {
        int mod = extendedSpeeds ? port | 1 << 31 : port;
        byte[] d = get(dest, PortInfo.ATTR_ID, mod, "port info query failed");
        List<String> out = new ArrayList<>();
        out.add("# Port info: " + dest + " port " + port);
        out.addAll(AttrDumps.portInfo(d, 0, 0, showKeys));
        return out;
    }

    /** {@code switch_info()}. */
    List<String> switchInfo(PortId dest) {
        byte[] d = get(dest, SwitchInfo.ATTR_ID, 0, "switch info query failed");
        List<String> out = new ArrayList<>();
        out.add("# Switch info: " + dest);
        out.addAll(MadFields.dump(AttrDumps.SWITCH_INFO, d, 0));
        return out;
    }

    /**
     * {@code pkey_table()}: the capacity from NodeInfo (or a switch port's from SwitchInfo), then
     * the table in rows of eight, the last block cut to the capacity rounded up to eight.
     */
    List<String> pkeyTable(PortId dest, int port) {
        NodeInfo ni = new NodeInfo().unpack(get(dest, NodeInfo.ATTR_ID, 0, "node info query failed"), 0);
        if (port > ni.numPorts) {
            throw new RdmaException(Errno.EINVAL, "invalid port number " + port);
        }
        int n;
        if (ni.nodeType == NodeInfo.NODE_TYPE_SWITCH && port != 0) {
            n = new SwitchInfo().unpack(get(dest, SwitchInfo.ATTR_ID, 0, "switch info failed"), 0)
                    .partitionEnforcementCap;
        } else {
            n = ni.partitionCap;
        }
        List<String> out = new ArrayList<>();
        int blocks = (n + 31) / 32;
        for (int i = 0; i < blocks; i++) {
            PKeyTable t = new PKeyTable().unpack(get(dest, PKeyTable.ATTR_ID, i | port << 16,
                    "pkey table query failed"), 0);
            int k = i + 1 == blocks ? (n + 7 - i * 32) / 8 * 8 : 32;
            for (int j = 0; j < k; j += 8) {
                StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%4d:", i * 32 + j));
                for (int e = 0; e < 8; e++) {
                    b.append(String.format(Locale.ROOT, " 0x%04x", t.pkeys[j + e]));
                }
                out.add(b.toString());
            }
        }
        out.add(n + " pkeys capacity for this port");
        return out;
    }

    /** {@code sl2vl_table()}: a CA's one table, or a switch's per input port to {@code port}. */
    List<String> sl2vlTable(PortId dest, int port) {
        NodeInfo ni = new NodeInfo().unpack(get(dest, NodeInfo.ATTR_ID, 0, "node info query failed"), 0);
        if (port > ni.numPorts) {
            throw new RdmaException(Errno.EINVAL, "invalid port number " + port);
        }
        List<String> out = new ArrayList<>();
        out.add("# SL2VL table: " + dest);
        StringBuilder h = new StringBuilder("#                 SL: |");
        for (int i = 0; i < 16; i++) {
            h.append(String.format(Locale.ROOT, "%2d|", i));
        }
        out.add(h.toString());
        if (ni.nodeType != NodeInfo.NODE_TYPE_SWITCH) {
            out.add(sl2vlEntry(dest, 0, 0));
        } else {
            for (int in = 0; in <= ni.numPorts; in++) {
                out.add(sl2vlEntry(dest, in, port));
            }
        }
        return out;
    }

    private String sl2vlEntry(PortId dest, int in, int outPort) {
        SlToVlTable t = new SlToVlTable().unpack(get(dest, SlToVlTable.ATTR_ID, in << 8 | outPort,
                "slvl query failed"), 0);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "ports: in %2d, out %2d: |", in, outPort));
        for (int sl = 0; sl < 16; sl++) {
            b.append(String.format(Locale.ROOT, "%2d|", t.vls[sl]));
        }
        return b.toString();
    }

    /** {@code guid_info()}: GuidCap from PortInfo, then the GUIDs two per row. */
    List<String> guidInfo(PortId dest) {
        PortInfo pi = new PortInfo().unpack(get(dest, PortInfo.ATTR_ID, 0, "port info failed"), 0);
        int n = pi.guidCap;
        List<String> out = new ArrayList<>();
        int blocks = (n + 7) / 8;
        for (int i = 0; i < blocks; i++) {
            GuidInfo g = new GuidInfo().unpack(get(dest, GuidInfo.ATTR_ID, i, "guid info query failed"), 0);
            int k = i + 1 == blocks ? (n + 1 - i * 8) / 2 * 2 : 8;
            for (int j = 0; j < k; j += 2) {
                out.add(String.format(Locale.ROOT, "%4d: 0x%016x 0x%016x", i * 8 + j, g.guids[j], g.guids[j + 1]));
            }
        }
        out.add(n + " guids capacity for this port");
        return out;
    }
}
