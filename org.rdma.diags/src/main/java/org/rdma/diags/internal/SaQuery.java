package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.diags.internal.MadRpc.SaResult;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.NodeRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;

/**
 * The queries of {@code saquery} (infiniband-diags/saquery.c): a template record and component
 * mask built from the options ({@code CHECK_AND_SET_VAL}), a SubnAdmGetTable through
 * {@link MadRpc#sa}, every record of the answer dumped by {@link SaDump}. A reply with an error
 * status is EIO with {@code sa_report_err()}'s text.
 */
final class SaQuery {
    /** The NodeRecord printing modes of saquery ({@code node_print_desc}). */
    enum NodePrint {
        /** The whole record. */
        ALL,
        /** {@code -L}: the LIDs. */
        LID_ONLY,
        /** {@code -l}: the first LID only. */
        UNIQUE_LID_ONLY,
        /** {@code -G}: the port GUIDs. */
        GUID_ONLY,
        /** {@code -D}: {@code LID "name"} of every CA. */
        ALL_DESC,
        /** {@code -O}: the name of a LID. */
        NAME_OF_LID,
        /** {@code -U}: the name of a port GUID. */
        NAME_OF_GUID
    }

    /**
     * The query parameters ({@code struct query_params}); -1 marks an unset value where 0 is a
     * valid one, as saquery does.
     */
    static final class Params {
        long serviceId;
        Gid sgid = Gid.ZERO;
        Gid dgid = Gid.ZERO;
        Gid gid = Gid.ZERO;
        Gid mgid = Gid.ZERO;
        int slid;
        int dlid;
        int mlid;
        int flowLabel;
        int hopLimit = -1;
        int tclass;
        int reversible = -1;
        int numbPath = -1;
        int pkey;
        int qosClass = -1;
        int sl = -1;
        int mtu;
        int rate;
        int pktLife;
        int qkey;
        int scope;
        int joinState;
        int proxyJoin = -1;
    }

    private final MadRpc rpc;
    private final long smKey;
    private final boolean showKeys;

    SaQuery(MadRpc rpc, long smKey, boolean showKeys) {
        this.rpc = rpc;
        this.smKey = smKey;
        this.showKeys = showKeys;
    }

    /** {@code get_any_records()}: a GetTable; EIO with the SA's status when it failed. */
    SaResult table(int attrId, int attrMod, long compMask, byte[] template) {
        SaResult r;
        try {
            r = rpc.sa(MadHdr.IB_SA_METHOD_GET_TABLE, attrId, attrMod, compMask, smKey, template);
        } catch (RdmaException e) {
            throw DiagText.fail("Query SA failed", e);
        }
        if (r.status() != 0) {
            throw new RdmaException(Errno.EIO, SaDump.statusText(r.status()));
        }
        return r;
    }

    private SaResult allNodes() {
        return table(SaMad.ATTR_NODE_REC, 0, 0, null);
    }

    /**
     * {@code get_lid()}: a name (NodeDescription, looked up in the NodeRecords) or a LID; ENOENT
     * when no node has the name, EINVAL for a LID out of range.
     */
    int lid(String name) {
        if (!name.isEmpty() && Character.isLetter(name.charAt(0))) {
            SaResult r = allNodes();
            for (int off : r.records()) {
                if (DiagText.nodeDesc(r.mad(), off + 44).equals(name)) {
                    return new NodeRecord().unpack(r.mad(), off).lid;
                }
            }
            throw new RdmaException(Errno.ENOENT, "Failed to find lid for \"" + name + "\"");
        }
        long v = DiagOptions.parseNumber(name);
        if (v <= 0 || v > 0xffff) {
            throw new RdmaException(Errno.EINVAL, "Invalid lid specified: \"" + name + "\"");
        }
        return (int) v;
    }

    /** {@code parse_lid_and_ports()}: {@code lid[/n1[/n2]]}, -1 for a number not given. */
    int[] lidAndPorts(String s) {
        String[] p = s.split("/", -1);
        int[] out = {lid(p[0]), -1, -1};
        for (int i = 1; i < Math.min(3, p.length); i++) {
            long v = DiagOptions.parseNumber(p[i]);
            out[i] = v == Long.MIN_VALUE ? -1 : (int) v;
        }
        return out;
    }

    // ------------------------------------------------------------------ NodeRecords

    /** {@code query_node_records()}: one LID's NodeRecord, or every one. */
    List<String> nodeRecords(String lidArg) {
        NodeRecord q = new NodeRecord();
        long mask = 0;
        if (lidArg != null) {
            q.lid = lidAndPorts(lidArg)[0];
            mask |= q.lid != 0 ? NodeRecord.LID : 0;
        }
        byte[] t = new byte[NodeRecord.BYTES];
        q.pack(t, 0);
        SaResult r = table(SaMad.ATTR_NODE_REC, 0, mask, t);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.nodeRecord(r.mad(), off));
        }
        return out;
    }

    /** {@code print_node_records()}: every NodeRecord, filtered and printed as {@code mode} says. */
    List<String> printNodeRecords(NodePrint mode, String requested) {
        SaResult r = allNodes();
        List<String> out = new ArrayList<>();
        if (mode == NodePrint.ALL_DESC) {
            out.add("   LID \"name\"");
            out.add("================");
        }
        for (int off : r.records()) {
            NodeRecord nr = new NodeRecord().unpack(r.mad(), off);
            String name = DiagText.nodeDesc(r.mad(), off + 44);
            switch (mode) {
                case ALL_DESC:
                    if (nr.nodeInfo.nodeType == NodeInfo.NODE_TYPE_CA) {
                        out.add(String.format(Locale.ROOT, "%6d  \"%s\"", nr.lid, name));
                    }
                    break;
                case NAME_OF_LID:
                    if (nr.lid == DiagOptions.parseNumber(requested)) {
                        out.add(name);
                    }
                    break;
                case NAME_OF_GUID:
                    if (nr.nodeInfo.portGuid == DiagOptions.parseNumber(requested)) {
                        out.add(name);
                    }
                    break;
                default:
                    if (requested != null && !requested.equals(name)) {
                        break;
                    }
                    if (mode == NodePrint.LID_ONLY || mode == NodePrint.UNIQUE_LID_ONLY) {
                        out.add(Integer.toString(nr.lid));
                        if (mode == NodePrint.UNIQUE_LID_ONLY) {
                            return out;
                        }
                    } else if (mode == NodePrint.GUID_ONLY) {
                        out.add(String.format(Locale.ROOT, "0x%016x", nr.nodeInfo.portGuid));
                    } else {
                        out.addAll(SaDump.nodeRecord(r.mad(), off));
                    }
                    break;
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ PathRecords

    /** {@code query_path_records()}: the template and mask from {@code p}. */
    List<String> pathRecords(Params p) {
        PathRecord pr = new PathRecord();
        long mask = 0;
        if (p.serviceId != 0) {
            pr.serviceId = p.serviceId;
            mask |= PathRecord.SERVICE_ID;
        }
        if (!p.sgid.isZero()) {
            pr.sgid = p.sgid;
            mask |= PathRecord.SGID;
        }
        if (!p.dgid.isZero()) {
            pr.dgid = p.dgid;
            mask |= PathRecord.DGID;
        }
        if (p.slid != 0) {
            pr.slid = p.slid;
            mask |= PathRecord.SLID;
        }
        if (p.dlid != 0) {
            pr.dlid = p.dlid;
            mask |= PathRecord.DLID;
        }
        if (p.hopLimit != -1) {
            pr.hopLimit = p.hopLimit & 0xff;
            mask |= PathRecord.HOP_LIMIT;
        }
        if ((p.flowLabel & 0xff) != 0) {
            // saquery sets the flow label through an 8-bit check, shifted into hop_flow_raw
            pr.flowLabel = p.flowLabel & 0xff;
            mask |= PathRecord.FLOW_LABEL;
        }
        if (p.tclass != 0) {
            pr.trafficClass = p.tclass;
            mask |= PathRecord.TRAFFIC_CLASS;
        }
        if ((byte) p.reversible != -1) {
            pr.reversible = p.reversible & 1;
            mask |= PathRecord.REVERSIBLE;
        }
        if ((byte) p.numbPath != -1) {
            pr.numbPath = p.numbPath & 0x7f;
            mask |= PathRecord.NUMB_PATH;
        }
        if (p.pkey != 0) {
            pr.pkey = p.pkey;
            mask |= PathRecord.PKEY;
        }
        if ((short) p.sl != -1) {
            pr.sl = p.sl & 0xf;
            mask |= PathRecord.SL;
        }
        if (p.qosClass != -1) {
            pr.qosClass = p.qosClass & 0xfff;
            mask |= PathRecord.QOS_CLASS;
        }
        if (p.mtu != 0) {
            pr.mtuSelector = p.mtu >> 6;
            pr.mtu = p.mtu & 0x3f;
            mask |= PathRecord.MTU | PathRecord.MTU_SELECTOR;
        }
        if (p.rate != 0) {
            pr.rateSelector = p.rate >> 6;
            pr.rate = p.rate & 0x3f;
            mask |= PathRecord.RATE | PathRecord.RATE_SELECTOR;
        }
        if (p.pktLife != 0) {
            pr.packetLifeTimeSelector = p.pktLife >> 6;
            pr.packetLifeTime = p.pktLife & 0x3f;
            mask |= PathRecord.PACKET_LIFE_TIME | PathRecord.PACKET_LIFE_TIME_SELECTOR;
        }
        byte[] t = new byte[PathRecord.BYTES];
        pr.pack(t, 0);
        SaResult r = table(SaMad.ATTR_PATH_REC, 0, mask, t);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.pathRecord(r.mad(), off));
        }
        return out;
    }

    // ------------------------------------------------------------------ PortInfoRecords

    /** {@code query_portinfo_records()}: {@code [lid]/[port]/[options]}. */
    List<String> portInfoRecords(String arg) {
        PortInfoRecord q = new PortInfoRecord();
        long mask = 0;
        int options = -1;
        if (arg != null) {
            int[] lp = lidAndPorts(arg);
            if (lp[0] != 0) {
                q.lid = lp[0];
                mask |= PortInfoRecord.LID;
            }
            if ((byte) lp[1] != -1) {
                q.portNum = lp[1] & 0xff;
                mask |= PortInfoRecord.PORT_NUM;
            }
            options = lp[2];
        }
        byte[] t = new byte[PortInfoRecord.BYTES];
        q.pack(t, 0);
        if ((byte) options != -1) {
            t[3] = (byte) options;
            mask |= 1L << 2;
        }
        SaResult r = table(SaMad.ATTR_PORT_INFO_REC, 0, mask, t);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.portInfoRecord(r.mad(), off, showKeys));
        }
        return out;
    }

    /**
     * {@code print_issm_records()}: the PortInfoRecords whose CapabilityMask has IsSM, then those
     * with IsSMdisabled, as the SA selects them (a bitwise CapabilityMask match).
     */
    List<String> issmRecords() {
        List<String> out = new ArrayList<>();
        out.add("IsSM ports");
        out.addAll(capMaskRecords(PortCapFlags.SM));
        out.add("");
        out.add("IsSMdisabled ports");
        out.addAll(capMaskRecords(PortCapFlags.SM_DISABLED));
        return out;
    }

    private List<String> capMaskRecords(int bit) {
        PortInfoRecord q = new PortInfoRecord();
        q.portInfo.capabilityMask = bit;
        byte[] t = new byte[PortInfoRecord.BYTES];
        q.pack(t, 0);
        SaResult r = table(SaMad.ATTR_PORT_INFO_REC, PortInfoRecord.ENHANCED_COMP_MASK, PortInfoRecord.CAPABILITY_MASK, t);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.portInfoRecordShort(r.mad(), off));
        }
        return out;
    }

    // ------------------------------------------------------------------ ServiceRecords

    /** {@code query_service_records()}: every ServiceRecord. */
    List<String> serviceRecords() {
        SaResult r = table(SaMad.ATTR_SERVICE_REC, 0, 0, null);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.serviceRecord(r.mad(), off, showKeys));
        }
        return out;
    }

    // ------------------------------------------------------------------ MCMemberRecords

    /** {@code query_mcmember_records()}: the template and mask from {@code p}. */
    List<String> mcMemberRecords(Params p) {
        McMemberRecord mr = new McMemberRecord();
        long mask = 0;
        if (!p.mgid.isZero()) {
            mr.mgid = p.mgid;
            mask |= McMemberRecord.MGID;
        }
        if (!p.gid.isZero()) {
            mr.portGid = p.gid;
            mask |= McMemberRecord.PORT_GID;
        }
        if (p.mlid != 0) {
            mr.mlid = p.mlid;
            mask |= McMemberRecord.MLID;
        }
        if (p.qkey != 0) {
            mr.qkey = p.qkey;
            mask |= McMemberRecord.QKEY;
        }
        if (p.mtu != 0) {
            mr.mtuSelector = p.mtu >> 6;
            mr.mtu = p.mtu & 0x3f;
            mask |= McMemberRecord.MTU | McMemberRecord.MTU_SELECTOR;
        }
        if (p.rate != 0) {
            mr.rateSelector = p.rate >> 6;
            mr.rate = p.rate & 0x3f;
            mask |= McMemberRecord.RATE | McMemberRecord.RATE_SELECTOR;
        }
        if (p.pktLife != 0) {
            mr.packetLifeTimeSelector = p.pktLife >> 6;
            mr.packetLifeTime = p.pktLife & 0x3f;
            mask |= McMemberRecord.PACKET_LIFE_TIME | McMemberRecord.PACKET_LIFE_TIME_SELECTOR;
        }
        if (p.tclass != 0) {
            mr.trafficClass = p.tclass;
            mask |= McMemberRecord.TRAFFIC_CLASS;
        }
        if (p.pkey != 0) {
            mr.pkey = p.pkey;
            mask |= McMemberRecord.PKEY;
        }
        if ((byte) p.sl != -1) {
            mr.sl = p.sl & 0xf;
            mask |= McMemberRecord.SL;
        }
        if ((p.flowLabel & 0xff) != 0) {
            mr.flowLabel = p.flowLabel & 0xff;
            mask |= McMemberRecord.FLOW_LABEL;
        }
        if ((byte) p.hopLimit != -1) {
            mr.hopLimit = p.hopLimit & 0xff;
            mask |= McMemberRecord.HOP_LIMIT;
        }
        if (p.scope != 0) {
            mr.scope = p.scope & 0xf;
            mask |= McMemberRecord.SCOPE;
        }
        if (p.joinState != 0) {
            mr.joinState = p.joinState & 0xf;
            mask |= McMemberRecord.JOIN_STATE;
        }
        if ((byte) p.proxyJoin != -1) {
            mr.proxyJoin = p.proxyJoin & 1;
            mask |= McMemberRecord.PROXY_JOIN;
        }
        byte[] t = new byte[McMemberRecord.BYTES];
        mr.pack(t, 0);
        SaResult r = table(SaMad.ATTR_MC_MEMBER_REC, 0, mask, t);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.mcMemberRecord(r.mad(), off));
        }
        return out;
    }

    /** {@code print_multicast_group_records()}: saquery {@code -g}. */
    List<String> multicastGroups() {
        SaResult r = table(SaMad.ATTR_MC_MEMBER_REC, 0, 0, null);
        List<String> out = new ArrayList<>();
        for (int off : r.records()) {
            out.addAll(SaDump.mcGroupRecord(r.mad(), off));
        }
        return out;
    }

    /**
     * {@code print_multicast_member_records()}: saquery {@code -m}, each member named by the
     * NodeRecord whose port GUID is the member's interface ID ({@code <unknown>} otherwise);
     * {@code requested} an MLID to list only that group's member GIDs.
     */
    List<String> multicastMembers(String requested) {
        SaResult groups = table(SaMad.ATTR_MC_MEMBER_REC, 0, 0, null);
        SaResult nodes = allNodes();
        int mlid = requested == null ? -1 : (int) DiagOptions.parseNumber(requested);
        List<String> out = new ArrayList<>();
        for (int off : groups.records()) {
            McMemberRecord mr = new McMemberRecord().unpack(groups.mad(), off);
            String name = "<unknown>";
            for (int n : nodes.records()) {
                if (new NodeRecord().unpack(nodes.mad(), n).nodeInfo.portGuid == mr.portGid.interfaceId()) {
                    name = DiagText.nodeDesc(nodes.mad(), n + 44);
                    break;
                }
            }
            out.addAll(SaDump.mcMemberOfGroup(groups.mad(), off, name, mlid));
        }
        return out;
    }

    // ------------------------------------------------------------------ ClassPortInfo

    /** {@code query_sa_cpi()}: SubnAdmGet(ClassPortInfo), then {@code dump_class_port_info()}. */
    List<String> classPortInfo() {
        SaResult r;
        try {
            r = rpc.sa(MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_MGMT_ATTR_CLASS_PORT_INFO, 0, 0, smKey, null);
        } catch (RdmaException e) {
            throw DiagText.fail("Query SA failed", e);
        }
        if (r.status() != 0) {
            throw new RdmaException(Errno.EIO, "Failed to query SA:ClassPortInfo: " + SaDump.statusText(r.status()));
        }
        return SaDump.classPortInfo(r.mad(), SaMad.DATA_OFFSET);
    }
}
