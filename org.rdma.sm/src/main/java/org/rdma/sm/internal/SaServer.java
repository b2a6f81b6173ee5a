package org.rdma.sm.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.NodeRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.sa.SaRecord;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.sm.internal.Subnet.EndPort;
import org.rdma.sm.internal.Subnet.Node;
import org.rdma.verbs.Gid;
import org.rdma.verbs.QpType;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.MadAttribute;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.MulticastForwardingTable;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;

/**
 * The subnet administrator on the SM's port: OpenSM's {@code osm_sa_t} with its record
 * receivers: {@code osm_sa_path_record.c}, {@code osm_sa_node_record.c},
 * {@code osm_sa_portinfo_record.c}, {@code osm_sa_service_record.c} (leases) and
 * {@code osm_sa_mcmember_record.c} (group creation with MGID and MLID allocation, join, leave),
 * answering SubnAdmGet with the one matching record and SubnAdmGetTable with all of them through the
 * MAD layer's RMPP. Runs on the SM's executor and answers from its last complete sweep.
 */
final class SaServer {
    private static final Logger LOG = Logger.getLogger(SaServer.class.getName());
    /** {@code IB_SA_MAD_STATUS_NO_RECORDS}, in the class-specific status bits. */
    static final int STATUS_NO_RECORDS = 3 << 8;
    /** {@code IB_SA_MAD_STATUS_TOO_MANY_RECORDS}. */
    static final int STATUS_TOO_MANY_RECORDS = 4 << 8;
    /** {@code IB_SA_MAD_STATUS_REQ_INVALID}. */
    static final int STATUS_REQ_INVALID = 2 << 8;
    /** {@code IB_SA_MAD_STATUS_NO_RESOURCES}. */
    static final int STATUS_NO_RESOURCES = 1 << 8;
    /** MAD status: method/attribute combination not supported. */
    static final int STATUS_UNSUPPORTED_ATTR = 0x000C;
    /** The MGID prefix of groups the SA creates ({@code ff12:a01b:...}: link-local scope, SA-assigned). */
    static final long MGID_PREFIX = 0xff12_a01b_0000_0000L;
    /** Indefinite service lease. */
    static final int LEASE_INFINITE = 0xffff_ffff;
    static final int RMPP_TIMEOUT_MS = 200;
    static final int RMPP_RETRIES = 3;
    /** ClassPortInfo CapabilityMask: UD multicast (MCMemberRecord joins) is supported ({@code OSM_CAP_IS_UD_MCAST_SUP}). */
    static final int CAP_IS_UD_MCAST_SUP = 1 << 9;
    /**
     * ClassPortInfo CapabilityMask: PortInfoRecord CapabilityMask is compared bitwise when the
     * AttributeModifier asks ({@code OSM_CAP_IS_PORT_INFO_CAPMASK_MATCH_SUPPORTED}).
     */
    static final int CAP_IS_PORT_INFO_CAPMASK_MATCH_SUP = 1 << 13;
    /**
     * ClassPortInfo RespTimeValue: 4.096 us * 2^16 = 268 ms, the first such time not below the
     * SA's 200 ms transaction timeout, as OpenSM encodes its own.
     */
    static final int RESP_TIME_VALUE = 16;

    /** A multicast group: {@code osm_mgrp_t}. */
    static final class Group {
        final McMemberRecord rec;
        /** JoinState by member port GID. */
        final Map<Gid, Integer> members = new LinkedHashMap<>();

        Group(McMemberRecord rec) {
            this.rec = rec;
        }
    }

    private record Service(ServiceRecord rec, long expiresNanos) {
    }

    private final SubnetManager sm;
    private MadAgent agent;
    /** Requests seen, by {@link #key}. */
    private final Map<Integer, Integer> requests = new HashMap<>();
    private final Map<Gid, Group> groups = new LinkedHashMap<>();
    private final List<Service> services = new ArrayList<>();
    private long mgidCounter;

    SaServer(SubnetManager sm) {
        this.sm = sm;
    }

    void start() {
        MadRegRequest req = MadRegRequest.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION,
                MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_MGMT_METHOD_SET, MadHdr.IB_SA_METHOD_GET_TABLE,
                MadHdr.IB_SA_METHOD_DELETE);
        agent = sm.mad.registerMadAgent(sm.device, sm.portNum, QpType.GSI, req, MadAgent.RMPP_VERSION,
                (a, wc) -> sm.mad.freeSendMad(wc.sendBuf()), (a, sb, wc) -> sm.run(() -> request(a, wc)), this, 0);
    }

    void close() {
        MadAgent a = agent;
        agent = null;
        if (a != null) {
            try {
                sm.mad.unregisterMadAgent(a);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "unregister", e);
            }
        }
    }

    /** Requests seen for {@code method}/{@code attrId} (tests, the shell). */
    int requests(int method, int attrId) {
        return requests.getOrDefault(key(method, attrId), 0);
    }

    private static Integer key(int method, int attrId) {
        return method << 16 | attrId;
    }

    /** The members of every group, as end ports of {@code s}, by MLID. */
    Map<Integer, Collection<EndPort>> mcastMembers(Subnet s) {
        Map<Integer, Collection<EndPort>> out = new TreeMap<>();
        for (Group g : groups.values()) {
            List<EndPort> eps = new ArrayList<>();
            for (Gid gid : g.members.keySet()) {
                EndPort ep = s.ports.get(gid.interfaceId());
                if (ep != null) {
                    eps.add(ep);
                }
            }
            out.put(g.rec.mlid, eps);
        }
        return out;
    }

    // ================================================================== dispatch

    private void request(MadAgent a, MadRecvWc wc) {
        MadHdr h = wc.hdr();
        requests.merge(key(h.method, h.attrId), 1, Integer::sum);
        byte[] m = wc.mad();
        long mask = SaMad.compMask(m);
        boolean table = h.method == MadHdr.IB_SA_METHOD_GET_TABLE;
        try {
            switch (h.attrId) {
                case SaMad.ATTR_PATH_REC -> {
                    if (h.method != MadHdr.IB_MGMT_METHOD_GET && !table) {
                        fail(a, wc, STATUS_UNSUPPORTED_ATTR);
                        return;
                    }
                    answer(a, wc, table, paths(new PathRecord().unpack(m, SaMad.DATA_OFFSET), mask, table, wc.wc().slid));
                }
                case SaMad.ATTR_NODE_REC -> answer(a, wc, table, nodes(new NodeRecord().unpack(m, SaMad.DATA_OFFSET), mask));
                case SaMad.ATTR_PORT_INFO_REC ->
                        answer(a, wc, table, portInfos(new PortInfoRecord().unpack(m, SaMad.DATA_OFFSET), mask,
                                (h.attrMod & PortInfoRecord.ENHANCED_COMP_MASK) != 0));
                case SaMad.ATTR_SERVICE_REC -> service(a, wc, h.method, new ServiceRecord().unpack(m, SaMad.DATA_OFFSET), mask);
                case SaMad.ATTR_MC_MEMBER_REC -> mcMember(a, wc, h.method, new McMemberRecord().unpack(m, SaMad.DATA_OFFSET), mask);
                case MadHdr.IB_MGMT_ATTR_CLASS_PORT_INFO -> classPortInfo(a, wc, h.method);
                default -> fail(a, wc, STATUS_UNSUPPORTED_ATTR);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SA request " + h, e);
            fail(a, wc, STATUS_REQ_INVALID);
        }
    }

    // ================================================================== ClassPortInfo (osm_cpi_rcv_process)

    /**
     * SubnAdmGet(ClassPortInfo): what this SA supports (UD multicast; no traps, Notice, optional
     * records, multipath or PortInfo capability-mask matching) and how long it takes to answer;
     * no redirection and no trap destination. Any other method is not supported.
     */
    private void classPortInfo(MadAgent a, MadRecvWc wc, int method) {
        if (method != MadHdr.IB_MGMT_METHOD_GET) {
            fail(a, wc, STATUS_UNSUPPORTED_ATTR);
            return;
        }
        ClassPortInfo c = new ClassPortInfo();
        c.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
        c.classVersion = SaMad.IB_SA_CLASS_VERSION;
        c.capabilityMask = CAP_IS_UD_MCAST_SUP | CAP_IS_PORT_INFO_CAPMASK_MATCH_SUP;
        c.respTimeValue = RESP_TIME_VALUE;
        respond(a, wc, MadHdr.IB_MGMT_METHOD_GET_RESP, 0, List.of(c), false);
    }

    // ================================================================== PathRecord (osm_pr_rcv_process)

    /** Paths matching {@code q}; without SGID or SLID the source is the requester's port ({@code requesterLid}). */
    private List<SaRecord> paths(PathRecord q, long mask, boolean table, int requesterLid) {
        Subnet s = sm.subnet();
        List<SaRecord> out = new ArrayList<>();
        boolean bySrc = (mask & (PathRecord.SGID | PathRecord.SLID)) != 0;
        List<EndPort> srcs = bySrc
                ? endPorts(s, q.sgid, (mask & PathRecord.SGID) != 0, q.slid, (mask & PathRecord.SLID) != 0)
                : endPorts(s, Gid.ZERO, false, requesterLid, true);
        List<EndPort> dsts = endPorts(s, q.dgid, (mask & PathRecord.DGID) != 0, q.dlid, (mask & PathRecord.DLID) != 0);
        for (EndPort src : srcs) {
            for (EndPort dst : dsts) {
                Routing.Route r = Routing.trace(s, src, dst);
                if (r == null) {
                    continue;
                }
                PathRecord p = new PathRecord();
                p.serviceId = q.serviceId;
                p.sgid = src.gid(sm.subnetPrefix);
                p.dgid = dst.gid(sm.subnetPrefix);
                p.slid = src.lid;
                p.dlid = dst.lid;
                p.reversible = 1;
                p.numbPath = 1;
                p.pkey = 0xffff;
                p.mtuSelector = 2;
                p.mtu = r.mtu();
                p.rateSelector = 2;
                p.rate = r.rate();
                p.packetLifeTimeSelector = 2;
                p.packetLifeTime = r.packetLifeTime();
                if (pathMatches(q, mask, p)) {
                    out.add(p);
                    if (!table) {
                        return out;
                    }
                }
            }
        }
        return out;
    }

    /** The end ports with this LID and/or port GUID: one lookup when either is given (both are unique). */
    private static List<EndPort> endPorts(Subnet s, Gid gid, boolean byGid, int lid, boolean byLid) {
        EndPort ep;
        if (byLid) {
            ep = s.byLid.get(lid);
            if (ep != null && byGid && ep.guid != gid.interfaceId()) {
                ep = null;
            }
        } else if (byGid) {
            ep = s.ports.get(gid.interfaceId());
        } else {
            return new ArrayList<>(s.ports.values());
        }
        return ep == null ? List.of() : List.of(ep);
    }

    /** The component-mask checks beyond the end points: P_Key, SL, MTU, rate and lifetime selectors. */
    private static boolean pathMatches(PathRecord q, long mask, PathRecord p) {
        if ((mask & PathRecord.PKEY) != 0 && (q.pkey & 0x7fff) != 0x7fff) {
            return false;
        }
        if ((mask & PathRecord.SL) != 0 && q.sl != 0) {
            return false;
        }
        if ((mask & PathRecord.MTU) != 0 && !selected((mask & PathRecord.MTU_SELECTOR) != 0 ? q.mtuSelector : 2,
                q.mtu, p.mtu)) {
            return false;
        }
        if ((mask & PathRecord.RATE) != 0 && !selected((mask & PathRecord.RATE_SELECTOR) != 0 ? q.rateSelector : 2,
                Routing.rateRank(q.rate), Routing.rateRank(p.rate))) {
            return false;
        }
        return (mask & PathRecord.PACKET_LIFE_TIME) == 0 || selected((mask & PathRecord.PACKET_LIFE_TIME_SELECTOR) != 0
                ? q.packetLifeTimeSelector : 2, q.packetLifeTime, p.packetLifeTime);
    }

    /** IBTA selector: 0 greater than, 1 less than, 2 exactly, 3 largest (or smallest) available. */
    private static boolean selected(int selector, int want, int have) {
        return switch (selector) {
            case 0 -> have > want;
            case 1 -> have < want;
            case 2 -> have == want;
            default -> true;
        };
    }

    // ================================================================== NodeRecord, PortInfoRecord

    private List<SaRecord> nodes(NodeRecord q, long mask) {
        List<SaRecord> out = new ArrayList<>();
        for (EndPort ep : sm.subnet().ports.values()) {
            if ((mask & NodeRecord.LID) != 0 && ep.lid != q.lid) {
                continue;
            }
            NodeRecord r = new NodeRecord();
            r.lid = ep.lid;
            byte[] b = new byte[NodeInfo.BYTES];
            ep.node.info.pack(b, 0);
            r.nodeInfo = new NodeInfo().unpack(b, 0);
            r.nodeInfo.portGuid = ep.guid;
            r.nodeInfo.localPortNum = ep.portNum;
            r.nodeDesc = ep.node.desc;
            out.add(r);
        }
        return out;
    }

    /**
     * PortInfoRecords matching {@code q} by LID, port and CapabilityMask: equal, or with
     * {@code enhanced} (AttributeModifier bit 31) holding every bit of the query's, as
     * {@code osm_sa_portinfo_record.c} compares ({@code saquery -s} finds the SM ports this way).
     */
    private List<SaRecord> portInfos(PortInfoRecord q, long mask, boolean enhanced) {
        int caps = q.portInfo.capabilityMask;
        List<SaRecord> out = new ArrayList<>();
        for (Node n : sm.subnet().nodes.values()) {
            for (int p = 0; p < n.ports.length; p++) {
                PortInfo pi = n.ports[p];
                if (pi == null) {
                    continue;
                }
                int lid = n.isSwitch() ? n.ports[0] == null ? 0 : lidOfNode(n) : pi.lid;
                boolean capsMatch = enhanced ? (pi.capabilityMask & caps) == caps : pi.capabilityMask == caps;
                if ((mask & PortInfoRecord.LID) != 0 && lid != q.lid
                        || (mask & PortInfoRecord.PORT_NUM) != 0 && p != q.portNum
                        || (mask & PortInfoRecord.CAPABILITY_MASK) != 0 && !capsMatch) {
                    continue;
                }
                PortInfoRecord r = new PortInfoRecord();
                r.lid = lid;
                r.portNum = p;
                r.portInfo = pi;
                out.add(r);
            }
        }
        return out;
    }

    private int lidOfNode(Node sw) {
        return sm.lidOf(sw.info.portGuid);
    }

    // ================================================================== ServiceRecord (leases)

    private void service(MadAgent a, MadRecvWc wc, int method, ServiceRecord q, long mask) {
        long now = sm.clock.nanoTime();
        services.removeIf(sv -> sv.expiresNanos >= 0 && sv.expiresNanos <= now);
        switch (method) {
            case MadHdr.IB_MGMT_METHOD_SET -> {
                services.removeIf(sv -> sameService(sv.rec, q));
                long exp = q.lease == LEASE_INFINITE ? -1 : now + TimeUnit.SECONDS.toNanos(q.lease & 0xffff_ffffL);
                services.add(new Service(q, exp));
                respond(a, wc, MadHdr.IB_MGMT_METHOD_GET_RESP, 0, List.of(q), false);
            }
            case MadHdr.IB_SA_METHOD_DELETE -> {
                // osm_svcr_get_by_rid(): the one record with this ID, GID and P_Key, not all that
                // the component mask matches (their answer would not fit a DeleteResp)
                List<SaRecord> gone = new ArrayList<>();
                for (Iterator<Service> it = services.iterator(); it.hasNext();) {
                    Service sv = it.next();
                    if (sameService(sv.rec, q)) {
                        gone.add(sv.rec);
                        it.remove();
                    }
                }
                respond(a, wc, MadHdr.IB_SA_METHOD_DELETE_RESP, gone.isEmpty() ? STATUS_NO_RECORDS : 0, gone, false);
            }
            default -> {
                List<SaRecord> out = new ArrayList<>();
                for (Service sv : services) {
                    if (serviceMatches(q, mask, sv.rec)) {
                        out.add(sv.rec);
                    }
                }
                answer(a, wc, method == MadHdr.IB_SA_METHOD_GET_TABLE, out);
            }
        }
    }

    /** A service record's identity ({@code osm_svcr_get_by_rid()}): ServiceID, ServiceGID and ServiceP_Key. */
    private static boolean sameService(ServiceRecord a, ServiceRecord b) {
        return a.id == b.id && a.gid.equals(b.gid) && a.pkey == b.pkey;
    }

    private static boolean serviceMatches(ServiceRecord q, long mask, ServiceRecord r) {
        return ((mask & ServiceRecord.SERVICE_ID) == 0 || q.id == r.id)
                && ((mask & ServiceRecord.SERVICE_GID) == 0 || q.gid.equals(r.gid))
                && ((mask & ServiceRecord.SERVICE_PKEY) == 0 || q.pkey == r.pkey)
                && ((mask & ServiceRecord.SERVICE_KEY) == 0 || Arrays.equals(q.key, r.key))
                && ((mask & ServiceRecord.SERVICE_NAME) == 0 || Arrays.equals(q.name, r.name));
    }

    // ================================================================== MCMemberRecord

    private void mcMember(MadAgent a, MadRecvWc wc, int method, McMemberRecord q, long mask) {
        switch (method) {
            case MadHdr.IB_MGMT_METHOD_SET -> join(a, wc, q, mask);
            case MadHdr.IB_SA_METHOD_DELETE -> leave(a, wc, q);
            default -> {
                List<SaRecord> out = new ArrayList<>();
                for (Group g : groups.values()) {
                    if ((mask & McMemberRecord.MGID) != 0 && !g.rec.mgid.equals(q.mgid)
                            || (mask & McMemberRecord.MLID) != 0 && g.rec.mlid != q.mlid) {
                        continue;
                    }
                    for (Map.Entry<Gid, Integer> m : g.members.entrySet()) {
                        if ((mask & McMemberRecord.PORT_GID) == 0 || m.getKey().equals(q.portGid)) {
                            out.add(memberRecord(g, m.getKey(), m.getValue()));
                        }
                    }
                }
                answer(a, wc, method == MadHdr.IB_SA_METHOD_GET_TABLE, out);
            }
        }
    }

    private static McMemberRecord memberRecord(Group g, Gid port, int joinState) {
        McMemberRecord r = g.rec.copy();
        r.portGid = port;
        r.joinState = joinState;
        return r;
    }

    /** {@code mcmr_rcv_join_mgrp()}: creates the group if needed (MGID and MLID allocated), adds the member. */
    private void join(MadAgent a, MadRecvWc wc, McMemberRecord q, long mask) {
        if (q.joinState == 0 || q.portGid.isZero()) {
            fail(a, wc, STATUS_REQ_INVALID);
            return;
        }
        Group g = q.mgid.isZero() ? null : groups.get(q.mgid);
        if (g == null) {
            if ((q.joinState & McMemberRecord.FULLMEMBER_JOIN) == 0) {
                fail(a, wc, STATUS_REQ_INVALID);
                return;
            }
            int mlid = freeMlid();
            if (mlid < 0) {
                fail(a, wc, STATUS_NO_RESOURCES);
                return;
            }
            McMemberRecord rec = q.copy();
            if (rec.mgid.isZero()) {
                rec.mgid = Gid.of(MGID_PREFIX, ++mgidCounter);
            }
            rec.mlid = mlid;
            rec.pkey = (mask & McMemberRecord.PKEY) != 0 && rec.pkey != 0 ? rec.pkey : 0xffff;
            rec.mtuSelector = 2;
            rec.mtu = (mask & McMemberRecord.MTU) != 0 && rec.mtu != 0 ? rec.mtu : PortInfo.MTU_2048;
            rec.rateSelector = 2;
            rec.rate = (mask & McMemberRecord.RATE) != 0 && rec.rate != 0 ? rec.rate : 3;
            rec.packetLifeTimeSelector = 2;
            rec.packetLifeTime = Routing.PACKET_LIFE_BASE + 2;
            rec.scope = rec.mgid.bytes()[1] & 0xf;
            rec.joinState = 0;
            rec.portGid = Gid.ZERO;
            g = new Group(rec);
            groups.put(rec.mgid, g);
        }
        Group grp = g;
        int js = g.members.merge(q.portGid, q.joinState, (x, y) -> x | y);
        Gid port = q.portGid;
        sm.updateMulticast(() -> respond(a, wc, MadHdr.IB_MGMT_METHOD_GET_RESP, 0,
                List.of(memberRecord(grp, port, js)), false));
    }

    /** {@code mcmr_rcv_leave_mgrp()}: removes JoinState bits; the last member deletes the group. */
    private void leave(MadAgent a, MadRecvWc wc, McMemberRecord q) {
        Group g = groups.get(q.mgid);
        Integer js = g == null ? null : g.members.get(q.portGid);
        if (js == null) {
            fail(a, wc, STATUS_REQ_INVALID);
            return;
        }
        int left = js & ~q.joinState;
        if (left == 0) {
            g.members.remove(q.portGid);
        } else {
            g.members.put(q.portGid, left);
        }
        if (g.members.isEmpty()) {
            groups.remove(g.rec.mgid);
        }
        McMemberRecord r = memberRecord(g, q.portGid, left);
        sm.updateMulticast(() -> respond(a, wc, MadHdr.IB_SA_METHOD_DELETE_RESP, 0, List.of(r), false));
    }

    private int freeMlid() {
        java.util.BitSet used = new java.util.BitSet();
        for (Group g : groups.values()) {
            used.set(g.rec.mlid - MulticastForwardingTable.IB_LID_MCAST_START);
        }
        int i = used.nextClearBit(0);
        return i >= 0x3fff ? -1 : MulticastForwardingTable.IB_LID_MCAST_START + i;
    }

    /** The groups (tests, the shell). */
    Map<Gid, Group> groups() {
        return groups;
    }

    // ================================================================== responses

    /**
     * Get: the one record, NO_RECORDS for none and TOO_MANY_RECORDS for several (C15-0.1.30, as
     * OpenSM's {@code osm_sa_respond()}; a PathRecord Get asks for one path, so it finds at most one);
     * GetTable: all of them through RMPP, none being an empty table with success.
     */
    private void answer(MadAgent a, MadRecvWc wc, boolean table, List<SaRecord> recs) {
        if (table) {
            respond(a, wc, MadHdr.IB_SA_METHOD_GET_TABLE_RESP, 0, recs, true);
        } else if (recs.size() != 1) {
            fail(a, wc, recs.isEmpty() ? STATUS_NO_RECORDS : STATUS_TOO_MANY_RECORDS);
        } else {
            respond(a, wc, MadHdr.IB_MGMT_METHOD_GET_RESP, 0, recs, false);
        }
    }

    private void fail(MadAgent a, MadRecvWc wc, int status) {
        int method = wc.hdr().method;
        int resp = method == MadHdr.IB_SA_METHOD_GET_TABLE ? MadHdr.IB_SA_METHOD_GET_TABLE_RESP
                : method == MadHdr.IB_SA_METHOD_DELETE ? MadHdr.IB_SA_METHOD_DELETE_RESP : MadHdr.IB_MGMT_METHOD_GET_RESP;
        respond(a, wc, resp, status, List.of(), false);
    }

    /** Records padded to 8-byte units (AttributeOffset), one MAD or an RMPP transfer. */
    private void respond(MadAgent a, MadRecvWc wc, int method, int status, List<? extends MadAttribute> recs,
            boolean rmpp) {
        if (agent == null) {
            return;
        }
        // no record, no stride: OpenSM's osm_sa_respond() and osm_sa_send_error() put 0
        int stride = recs.isEmpty() ? 0 : (recs.get(0).byteLength() + 7) / 8 * 8;
        try {
            MadSendBuf r = sm.mad.createResponse(a, wc, rmpp, MadHdr.IB_MGMT_SA_HDR,
                    rmpp ? recs.size() * stride : SaMad.DATA_SIZE);
            byte[] m = r.mad();
            Arrays.fill(m, 24, 36, (byte) 0);
            Arrays.fill(m, MadHdr.IB_MGMT_SA_HDR, m.length, (byte) 0);
            m[3] = (byte) method;
            m[4] = (byte) (status >>> 8);
            m[5] = (byte) status;
            SaMad.setAttrOffset(m, stride / 8);
            for (int i = 0; i < recs.size(); i++) {
                recs.get(i).pack(m, MadHdr.IB_MGMT_SA_HDR + i * stride);
            }
            if (rmpp) {
                r.setTimeoutMs(RMPP_TIMEOUT_MS);
                r.setRetries(RMPP_RETRIES);
            }
            if (sm.mad.postSendMad(r) != 0) {
                sm.mad.freeSendMad(r);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SA response", e);
        }
    }
}
