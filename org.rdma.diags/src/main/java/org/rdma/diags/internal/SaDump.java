package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.NodeRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.NodeInfo;

/**
 * saquery's record dumps (infiniband-diags/saquery.c {@code dump_node_record()},
 * {@code dump_path_record()}, {@code dump_one_portinfo_record()}, {@code dump_service_record()},
 * {@code dump_one_mcmember_record()} ...): records decoded with the SA codecs of org.rdma.mad.sa,
 * printed field by field as the C structs of OpenSM's ib_types.h print them (so a byte that packs
 * a selector with a value, like a PathRecord's {@code mtu}, prints as that byte).
 */
final class SaDump {
    private static final String[] NODE_TYPES = {"UNKNOWN", "Channel Adapter", "Switch", "Router"};

    private SaDump() {
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** {@code ib_get_node_type_str()}. */
    static String nodeType(int t) {
        return NODE_TYPES[t >= 0 && t < NODE_TYPES.length ? t : 0];
    }

    private static int u16(byte[] b, int off) {
        return (b[off] & 0xff) << 8 | b[off + 1] & 0xff;
    }

    /** {@code dump_node_record()}. */
    static List<String> nodeRecord(byte[] m, int off) {
        NodeRecord r = new NodeRecord().unpack(m, off);
        NodeInfo ni = r.nodeInfo;
        return List.of("NodeRecord dump:",
                "\t\tlid....................." + r.lid,
                f("\t\treserved................0x%X", u16(m, off + 2)),
                f("\t\tbase_version............0x%X", ni.baseVersion),
                f("\t\tclass_version...........0x%X", ni.classVersion),
                "\t\tnode_type..............." + nodeType(ni.nodeType),
                "\t\tnum_ports..............." + ni.numPorts,
                f("\t\tsys_guid................0x%016x", ni.sysImageGuid),
                f("\t\tnode_guid...............0x%016x", ni.nodeGuid),
                f("\t\tport_guid...............0x%016x", ni.portGuid),
                f("\t\tpartition_cap...........0x%X", ni.partitionCap),
                f("\t\tdevice_id...............0x%X", ni.deviceId),
                f("\t\trevision................0x%X", ni.revision),
                "\t\tport_num................" + ni.localPortNum,
                f("\t\tvendor_id...............0x%X", ni.vendorId),
                "\t\tNodeDescription........." + DiagText.nodeDesc(m, off + 44));
    }

    /** {@code dump_path_record()}: the record's bytes as {@code ib_path_rec_t} groups them. */
    static List<String> pathRecord(byte[] m, int off) {
        PathRecord p = new PathRecord().unpack(m, off);
        long hopFlowRaw = (long) p.rawTraffic << 31 | (long) p.flowLabel << 8 | p.hopLimit;
        StringBuilder resv2 = new StringBuilder();
        for (int i = 58; i < 64; i++) {
            resv2.append(f("%02X", m[off + i] & 0xff));
        }
        return List.of("PathRecord dump:",
                f("\t\tservice_id..............0x%016x", p.serviceId),
                "\t\tdgid...................." + DiagText.inet6(p.dgid),
                "\t\tsgid...................." + DiagText.inet6(p.sgid),
                "\t\tdlid...................." + p.dlid,
                "\t\tslid...................." + p.slid,
                f("\t\thop_flow_raw............0x%X", hopFlowRaw),
                f("\t\ttclass..................0x%X", p.trafficClass),
                f("\t\tnum_path_revers.........0x%X", p.reversible << 7 | p.numbPath),
                f("\t\tpkey....................0x%X", p.pkey),
                f("\t\tqos_class...............0x%X", p.qosClass),
                f("\t\tsl......................0x%X", p.sl),
                f("\t\tmtu.....................0x%X", p.mtuSelector << 6 | p.mtu),
                f("\t\trate....................0x%X", p.rateSelector << 6 | p.rate),
                f("\t\tpkt_life................0x%X", p.packetLifeTimeSelector << 6 | p.packetLifeTime),
                f("\t\tpreference..............0x%X", p.preference),
                "\t\tresv2...................0x" + resv2);
    }

    /** {@code dump_portinfo_record()}: saquery {@code -s}'s short form. */
    static List<String> portInfoRecordShort(byte[] m, int off) {
        PortInfoRecord r = new PortInfoRecord().unpack(m, off);
        return List.of("PortInfoRecord dump:",
                "\t\tEndPortLid.............." + r.lid,
                "\t\tPortNum................." + r.portNum,
                "\t\tbase_lid................" + r.portInfo.lid,
                "\t\tmaster_sm_base_lid......" + r.portInfo.masterSmLid,
                f("\t\tcapability_mask.........0x%X", r.portInfo.capabilityMask));
    }

    /** {@code dump_one_portinfo_record()}: the RID, then {@code dump_portinfo(pi, 2)}. */
    static List<String> portInfoRecord(byte[] m, int off, boolean showKeys) {
        PortInfoRecord r = new PortInfoRecord().unpack(m, off);
        List<String> out = new ArrayList<>(List.of("PortInfoRecord dump:",
                "\tRID",
                "\t\tEndPortLid.............." + r.lid,
                "\t\tPortNum................." + r.portNum,
                f("\t\tOptions.................0x%x", m[off + 3] & 0xff),
                "\tPortInfo dump:"));
        out.addAll(AttrDumps.portInfo(m, off + 4, 2, showKeys));
        return out;
    }

    /** {@code dump_one_mcmember_record()}. */
    static List<String> mcMemberRecord(byte[] m, int off) {
        McMemberRecord r = new McMemberRecord().unpack(m, off);
        return List.of("MCMember Record dump:",
                "\t\tMGID...................." + DiagText.inet6(r.mgid),
                "\t\tPortGid................." + DiagText.inet6(r.portGid),
                f("\t\tqkey....................0x%x", r.qkey),
                f("\t\tmlid....................0x%x", r.mlid),
                f("\t\tmtu.....................0x%x", r.mtuSelector << 6 | r.mtu),
                f("\t\tTClass..................0x%x", r.trafficClass),
                f("\t\tpkey....................0x%x", r.pkey),
                f("\t\trate....................0x%x", r.rateSelector << 6 | r.rate),
                f("\t\tpkt_life................0x%x", r.packetLifeTimeSelector << 6 | r.packetLifeTime),
                f("\t\tSL......................0x%x", r.sl),
                f("\t\tFlowLabel...............0x%x", r.flowLabel),
                f("\t\tHopLimit................0x%x", r.hopLimit),
                f("\t\tScope...................0x%x", r.scope),
                f("\t\tJoinState...............0x%x", r.joinState),
                f("\t\tProxyJoin...............0x%x", r.proxyJoin));
    }

    /** {@code dump_multicast_group_record()}: saquery {@code -g}. */
    static List<String> mcGroupRecord(byte[] m, int off) {
        McMemberRecord r = new McMemberRecord().unpack(m, off);
        return List.of("MCMemberRecord group dump:",
                "\t\tMGID...................." + DiagText.inet6(r.mgid),
                f("\t\tMlid....................0x%X", r.mlid),
                f("\t\tMtu.....................0x%X", r.mtuSelector << 6 | r.mtu),
                f("\t\tpkey....................0x%X", r.pkey),
                f("\t\tRate....................0x%X", r.rateSelector << 6 | r.rate),
                f("\t\tSL......................0x%X", r.sl));
    }

    /**
     * {@code dump_multicast_member_record()}: saquery {@code -m}, the member's node named from
     * the NodeRecords; with {@code mlid} &ge; 0 only the PortGid lines of that group.
     */
    static List<String> mcMemberOfGroup(byte[] m, int off, String nodeName, int mlid) {
        McMemberRecord r = new McMemberRecord().unpack(m, off);
        if (mlid >= 0) {
            return r.mlid == mlid ? List.of("\t\tPortGid................." + DiagText.inet6(r.portGid) + " ("
                    + nodeName + ")") : List.of();
        }
        return List.of("MCMemberRecord member dump:",
                "\t\tMGID...................." + DiagText.inet6(r.mgid),
                f("\t\tMlid....................0x%X", r.mlid),
                "\t\tPortGid................." + DiagText.inet6(r.portGid),
                f("\t\tScopeState..............0x%X", r.scope << 4 | r.joinState),
                f("\t\tProxyJoin...............0x%X", r.proxyJoin),
                "\t\tNodeDescription........." + nodeName);
    }

    /** {@code dump_service_record()}; the key shown only with {@code -K}. */
    static List<String> serviceRecord(byte[] m, int off, boolean showKeys) {
        ServiceRecord r = new ServiceRecord().unpack(m, off);
        StringBuilder key = new StringBuilder("0x");
        for (byte b : r.key) {
            key.append(f("%02x", b & 0xff));
        }
        List<String> out = new ArrayList<>(List.of("ServiceRecord dump:",
                f("\t\tServiceID...............0x%016x", r.id),
                "\t\tServiceGID.............." + DiagText.inet6(r.gid),
                f("\t\tServiceP_Key............0x%X", r.pkey),
                f("\t\tServiceLease............0x%X", r.lease),
                "\t\tServiceKey.............." + (showKeys ? key : DiagText.NOT_DISPLAYED),
                "\t\tServiceName............." + r.nameText()));
        byte[] d = r.data;
        for (int i = 0; i < 16; i++) {
            out.add(dataLine("ServiceData8." + (i + 1), f("0x%X", d[i] & 0xff)));
        }
        for (int i = 0; i < 8; i++) {
            out.add(dataLine("ServiceData16." + (i + 1), f("0x%X", MadFields.bits(d, 16 + 2 * i, 0, 0, 16))));
        }
        for (int i = 0; i < 4; i++) {
            out.add(dataLine("ServiceData32." + (i + 1), f("0x%X", MadFields.bits(d, 32 + 4 * i, 0, 0, 32))));
        }
        for (int i = 0; i < 2; i++) {
            out.add(dataLine("ServiceData64." + (i + 1), f("0x%016x", MadFields.bits(d, 48 + 8 * i, 0, 0, 64))));
        }
        return out;
    }

    /** A ServiceData label dotted to column 24, as the C format strings have it. */
    private static String dataLine(String label, String value) {
        return "\t\t" + label + ".".repeat(24 - label.length()) + value;
    }

    /** {@code dump_class_port_info()}: saquery {@code -c}. */
    static List<String> classPortInfo(byte[] m, int off) {
        ClassPortInfo c = new ClassPortInfo().unpack(m, off);
        return List.of("SA ClassPortInfo:",
                "\t\tBase version............." + c.baseVersion,
                "\t\tClass version............" + c.classVersion,
                f("\t\tCapability mask..........0x%04X", c.capabilityMask),
                f("\t\tCapability mask 2........0x%08X", c.capabilityMask2),
                f("\t\tResponse time value......0x%02X", c.respTimeValue),
                "\t\tRedirect GID............." + DiagText.inet6(Gid.of(c.redirectGid)),
                f("\t\tRedirect TC/SL/FL........0x%08X", c.redirectTc << 24 | c.redirectSl << 20 | c.redirectFl),
                "\t\tRedirect LID............." + c.redirectLid,
                f("\t\tRedirect PKey............0x%04X", c.redirectPkey),
                f("\t\tRedirect QP..............0x%08X", c.redirectQp),
                f("\t\tRedirect QKey............0x%08X", c.redirectQkey),
                "\t\tTrap GID................." + DiagText.inet6(Gid.of(c.trapGid)),
                f("\t\tTrap TC/SL/FL............0x%08X", c.trapTc << 24 | c.trapSl << 20 | c.trapFl),
                "\t\tTrap LID................." + c.trapLid,
                f("\t\tTrap PKey................0x%04X", c.trapPkey),
                f("\t\tTrap HL/QP...............0x%08X", c.trapHl << 24 | c.trapQp),
                f("\t\tTrap QKey................0x%08X", c.trapQkey));
    }

    /**
     * {@code sa_report_err()}'s text for a failed query: {@code Query result returned 0x0300,
     * SA(SA_ERR_NO_RECORDS)}.
     */
    static String statusText(int status) {
        String[] mad = {"MAD No invalid fields", "MAD Bad version", "MAD Method specified is not supported",
            "MAD Method/Attribute combination is not supported", "MAD Reserved", "MAD Reserved", "MAD Reserved",
            "MAD Invalid value in Attribute field(s) or Attribute Modifier", "MAD UNKNOWN ERROR"};
        String[] sa = {"SA_NO_ERROR", "SA_ERR_NO_RESOURCES", "SA_ERR_REQ_INVALID", "SA_ERR_NO_RECORDS",
            "SA_ERR_TOO_MANY_RECORDS", "SA_ERR_REQ_INVALID_GID", "SA_ERR_REQ_INSUFFICIENT_COMPONENTS",
            "SA_ERR_REQ_DENIED", "SA_ERR_STATUS_PRIO_SUGGESTED", "SA_ERR_UNKNOWN"};
        StringBuilder b = new StringBuilder(f("Query result returned 0x%04x, ", status));
        int st = status & 0xff;
        if (st != 0) {
            b.append(" (").append((st & 1) != 0 ? "BUSY" : "").append("; ")
                    .append((st & 2) != 0 ? "Redirection Required" : "").append("; ")
                    .append(mad[Math.min(st >> 2, mad.length - 1)]).append(')');
        }
        st = status >> 8 & 0xff;
        if (st != 0) {
            b.append(" SA(").append(sa[Math.min(st, sa.length - 1)]).append(')');
        }
        return b.toString();
    }
}
