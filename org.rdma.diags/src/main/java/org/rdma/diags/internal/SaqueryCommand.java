package org.rdma.diags.internal;

import java.io.PrintStream;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.diags.internal.DiagOptions.Given;
import org.rdma.diags.internal.DiagOptions.Opt;
import org.rdma.diags.internal.SaQuery.NodePrint;
import org.rdma.diags.internal.SaQuery.Params;
import org.rdma.mad.umad.UmadService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * {@code saquery [options] [query-name] [<name> | <lid> | <guid>]}: infiniband-diags'
 * {@code saquery} (infiniband-diags/saquery.c). Asks the SA (at the port's SM LID) and dumps the
 * records as the tool does:
 *
 * <pre>
 * NodeRecord dump:
 * 		lid.....................5
 * 		reserved................0x0
 * 		...
 * </pre>
 *
 * NodeRecords by default (all, or of one LID or node name); {@code -N}, {@code -L}, {@code -l},
 * {@code -G}, {@code -O}, {@code -U}, {@code -D} print NodeRecords in other forms; {@code -p}
 * PathRecords ({@code --src-to-dst a:b}, {@code --sgid-to-dgid}, {@code --slid}, {@code --dlid}
 * ...); {@code -s} the SM ports; {@code -g} and {@code -m} multicast groups and members;
 * {@code -S} ServiceRecords; {@code -c} the SA's ClassPortInfo; query names NR, PIR
 * ({@code lid/port/options}), SR, PR, MCMR, CPI. An SA error status is EIO, no answer ETIMEDOUT,
 * bad arguments EINVAL, a node name nobody has ENOENT. The queries are {@link SaQuery}'s.
 */
@Component(service = SaqueryCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=saquery"})
public class SaqueryCommand {
    static final String USAGE_ARGS = "[query-name] [<name> | <lid> | <guid>]";
    /** saquery's {@code DEFAULT_SA_TIMEOUT_MS}. */
    static final int SA_TIMEOUT_MS = 1000;

    /** The query names ({@code query_cmds[]}); those without a handler here are EOPNOTSUPP. */
    enum Query {
        CPI("ClassPortInfo", "CPI", true), NR("NodeRecord", "NR", true), PIR("PortInfoRecord", "PIR", true),
        SL2VL("SL2VLTableRecord", "SL2VL", false), PKTR("PKeyTableRecord", "PKTR", false),
        VLAR("VLArbitrationTableRecord", "VLAR", false), IIR("InformInfoRecord", "IIR", false),
        LR("LinkRecord", "LR", false), SR("ServiceRecord", "SR", true), PR("PathRecord", "PR", true),
        MCMR("MCMemberRecord", "MCMR", true), LFTR("LFTRecord", "LFTR", false), MFTR("MFTRecord", "MFTR", false),
        GIR("GUIDInfoRecord", "GIR", false), SWIR("SwitchInfoRecord", "SWIR", false),
        SMIR("SMInfoRecord", "SMIR", false);

        final String name;
        final String alias;
        final boolean supported;

        Query(String name, String alias, boolean supported) {
            this.name = name;
            this.alias = alias;
            this.supported = supported;
        }

        /** {@code find_query()}: by name or alias, case insensitive. */
        static Query find(String s) {
            for (Query q : values()) {
                if (q.name.equalsIgnoreCase(s) || q.alias.equalsIgnoreCase(s)) {
                    return q;
                }
            }
            return null;
        }
    }

    /** What saquery was asked to do ({@code enum saquery_command}). */
    private enum Command { QUERY, NODE_RECORD, CLASS_PORT_INFO, ISSM, MCGROUPS, MCMEMBERS }

    private static final List<Opt> OPTS = List.of(
            new Opt("p", 'p', false, null, "get PathRecord info"),
            new Opt("N", 'N', false, null, "get NodeRecord info"),
            new Opt("L", 'L', false, null, "return the Lids of the name specified"),
            new Opt("l", 'l', false, null, "return the unique Lid of the name specified"),
            new Opt("G", 'G', false, null, "return the Guids of the name specified"),
            new Opt("O", 'O', false, null, "return name for the Lid specified"),
            new Opt("U", 'U', false, null, "return name for the Guid specified"),
            new Opt("s", 's', false, null, "return the PortInfoRecords with isSM or isSMdisabled capability mask bit on"),
            new Opt("g", 'g', false, null, "get multicast group info"),
            new Opt("m", 'm', false, null, "get multicast member info"),
            new Opt("c", 'c', false, null, "get the SA's class port info"),
            new Opt("S", 'S', false, null, "get ServiceRecord info"),
            new Opt("list", 'D', false, null, "the node desc of the CA's"),
            new Opt("src-to-dst", (char) 0, true, "<src:dst>", "get a PathRecord for <src:dst>"),
            new Opt("sgid-to-dgid", (char) 0, true, "<sgid-dgid>", "get a PathRecord for <sgid-dgid>"),
            new Opt("smkey", (char) 0, true, "<val>", "SA SM_Key value for the query"),
            new Opt("slid", (char) 0, true, "<lid>", "Source LID (PathRecord)"),
            new Opt("dlid", (char) 0, true, "<lid>", "Destination LID (PathRecord)"),
            new Opt("mlid", (char) 0, true, "<lid>", "Multicast LID (MCMemberRecord)"),
            new Opt("sgid", (char) 0, true, "<gid>", "Source GID (IPv6 format) (PathRecord)"),
            new Opt("dgid", (char) 0, true, "<gid>", "Destination GID (IPv6 format) (PathRecord)"),
            new Opt("gid", (char) 0, true, "<gid>", "Port GID (MCMemberRecord)"),
            new Opt("mgid", (char) 0, true, "<gid>", "Multicast GID (MCMemberRecord)"),
            new Opt("reversible", 'r', true, null, "Reversible path (PathRecord)"),
            new Opt("numb_path", 'n', true, null, "Number of paths (PathRecord)"),
            new Opt("pkey", (char) 0, true, null, "P_Key (PathRecord, MCMemberRecord)"),
            new Opt("qos_class", 'Q', true, null, "QoS Class (PathRecord)"),
            new Opt("sl", (char) 0, true, null, "Service level (PathRecord, MCMemberRecord)"),
            new Opt("mtu", 'M', true, null, "MTU and selector (PathRecord, MCMemberRecord)"),
            new Opt("rate", 'R', true, null, "Rate and selector (PathRecord, MCMemberRecord)"),
            new Opt("pkt_lifetime", (char) 0, true, null, "Packet lifetime and selector (PathRecord, MCMemberRecord)"),
            new Opt("qkey", 'q', true, null, "Q_Key (MCMemberRecord)"),
            new Opt("tclass", 'T', true, null, "Traffic Class (PathRecord, MCMemberRecord)"),
            new Opt("flow_label", 'F', true, null, "Flow Label (PathRecord, MCMemberRecord)"),
            new Opt("hop_limit", 'H', true, null, "Hop limit (PathRecord, MCMemberRecord)"),
            new Opt("scope", (char) 0, true, null, "Scope (MCMemberRecord)"),
            new Opt("join_state", 'J', true, null, "Join state (MCMemberRecord)"),
            new Opt("proxy_join", 'X', true, null, "Proxy join (MCMemberRecord)"),
            new Opt("service_id", (char) 0, true, null, "ServiceID (PathRecord)"));

    private final UmadService umad;

    /** A command asking the SA through {@code umad}. */
    @Activate
    public SaqueryCommand(@Reference UmadService umad) {
        this.umad = umad;
    }

    /** {@code saquery [options] [query-name] [<name> | <lid> | <guid>]}, printed to the session's output. */
    public void saquery(String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        DiagOptions o = new DiagOptions("saquery", USAGE_ARGS, "DGLsy", OPTS).parse(args);
        if (o.help()) {
            o.usage().forEach(out::println);
            return;
        }
        Params p = new Params();
        Command command = Command.QUERY;
        NodePrint print = NodePrint.ALL;
        Query query = null;
        String srcDst = null;
        long smKey = 0;
        for (Given g : o.given()) {
            String v = g.value();
            switch (g.opt().name()) {
                case "p" -> query = Query.PR;
                case "S" -> query = Query.SR;
                case "N" -> command = Command.NODE_RECORD;
                case "L" -> { print = NodePrint.LID_ONLY; command = Command.NODE_RECORD; }
                case "l" -> { print = NodePrint.UNIQUE_LID_ONLY; command = Command.NODE_RECORD; }
                case "G" -> { print = NodePrint.GUID_ONLY; command = Command.NODE_RECORD; }
                case "O" -> { print = NodePrint.NAME_OF_LID; command = Command.NODE_RECORD; }
                case "U" -> { print = NodePrint.NAME_OF_GUID; command = Command.NODE_RECORD; }
                case "list" -> { print = NodePrint.ALL_DESC; command = Command.NODE_RECORD; }
                case "s" -> command = Command.ISSM;
                case "g" -> command = Command.MCGROUPS;
                case "m" -> command = Command.MCMEMBERS;
                case "c" -> command = Command.CLASS_PORT_INFO;
                case "src-to-dst" -> {
                    if (v.indexOf(':') < 0) {
                        throw o.error("--src-to-dst needs <src:dst>");
                    }
                    srcDst = v;
                    p.numbPath = 0x7f;
                    query = Query.PR;
                }
                case "sgid-to-dgid" -> {
                    int dash = v.indexOf('-');
                    if (dash < 0) {
                        throw o.error("--sgid-to-dgid needs <sgid-dgid>");
                    }
                    p.sgid = gid(o, v.substring(0, dash));
                    p.dgid = gid(o, v.substring(dash + 1));
                    p.numbPath = 0x7f;
                    query = Query.PR;
                }
                case "smkey" -> smKey = o.number("smkey", v, Long.MIN_VALUE + 1, Long.MAX_VALUE);
                case "slid" -> p.slid = (int) o.number("slid", v, 0, 0xffff);
                case "dlid" -> p.dlid = (int) o.number("dlid", v, 0, 0xffff);
                case "mlid" -> p.mlid = (int) o.number("mlid", v, 0, 0xffff);
                case "sgid" -> p.sgid = gid(o, v);
                case "dgid" -> p.dgid = gid(o, v);
                case "gid" -> p.gid = gid(o, v);
                case "mgid" -> p.mgid = gid(o, v);
                case "reversible" -> p.reversible = (int) o.number("reversible", v, 0, 1);
                case "numb_path" -> p.numbPath = (int) o.number("numb_path", v, 0, 0x7f);
                case "pkey" -> p.pkey = (int) o.number("pkey", v, 0, 0xffff);
                case "qos_class" -> p.qosClass = (int) o.number("qos_class", v, 0, 0xfff);
                case "sl" -> p.sl = (int) o.number("sl", v, 0, 15);
                case "mtu" -> p.mtu = (int) o.number("mtu", v, 0, 0xff);
                case "rate" -> p.rate = (int) o.number("rate", v, 0, 0xff);
                case "pkt_lifetime" -> p.pktLife = (int) o.number("pkt_lifetime", v, 0, 0xff);
                case "qkey" -> p.qkey = (int) o.number("qkey", v, 0, 0xffff_ffffL);
                case "tclass" -> p.tclass = (int) o.number("tclass", v, 0, 0xff);
                case "flow_label" -> p.flowLabel = (int) o.number("flow_label", v, 0, 0xf_ffff);
                case "hop_limit" -> p.hopLimit = (int) o.number("hop_limit", v, 0, 0xff);
                case "scope" -> p.scope = (int) o.number("scope", v, 0, 0xf);
                case "join_state" -> p.joinState = (int) o.number("join_state", v, 0, 0xf);
                case "proxy_join" -> p.proxyJoin = (int) o.number("proxy_join", v, 0, 1);
                case "service_id" -> p.serviceId = o.number("service_id", v, Long.MIN_VALUE + 1, Long.MAX_VALUE);
                default -> {
                }
            }
        }
        List<String> a = o.operands();
        if (query == null && command == Command.QUERY) {
            query = a.isEmpty() ? null : Query.find(a.get(0));
            if (query == null) {
                query = Query.NR;
            } else {
                a = a.subList(1, a.size());
            }
        }
        String requested = a.isEmpty() ? null : a.get(0);
        if (requested == null && (print == NodePrint.LID_ONLY || print == NodePrint.UNIQUE_LID_ONLY
                || print == NodePrint.GUID_ONLY)) {
            throw o.error("ERROR: name not specified");
        }
        if (print == NodePrint.NAME_OF_LID && (requested == null || DiagOptions.parseNumber(requested) <= 0)) {
            throw o.error(requested == null ? "ERROR: lid not specified" : "ERROR: lid invalid");
        }
        if (print == NodePrint.NAME_OF_GUID && requested == null) {
            throw o.error("ERROR: guid not specified");
        }
        if (query != null && !query.supported) {
            throw new RdmaException(Errno.EOPNOTSUPP, query.name + " queries are not supported");
        }
        int timeout = o.timeout(SA_TIMEOUT_MS);
        try (MadRpc rpc = MadRpc.open(umad, o.ca(), o.port(), timeout, 0)) {
            SaQuery sa = new SaQuery(rpc, smKey, o.showKeys());
            if (srcDst != null) {
                String src = srcDst.substring(0, srcDst.indexOf(':'));
                String dst = srcDst.substring(srcDst.indexOf(':') + 1);
                if (!src.isEmpty()) {
                    p.slid = sa.lid(src);
                }
                if (!dst.isEmpty()) {
                    p.dlid = sa.lid(dst);
                }
            }
            List<String> lines = switch (command) {
                case NODE_RECORD -> sa.printNodeRecords(print, requested);
                case CLASS_PORT_INFO -> sa.classPortInfo();
                case ISSM -> sa.issmRecords();
                case MCGROUPS -> sa.multicastGroups();
                case MCMEMBERS -> sa.multicastMembers(requested);
                case QUERY -> switch (query) {
                    case CPI -> sa.classPortInfo();
                    case NR -> sa.nodeRecords(requested);
                    case PIR -> sa.portInfoRecords(requested);
                    case SR -> sa.serviceRecords();
                    case PR -> sa.pathRecords(p);
                    case MCMR -> sa.mcMemberRecords(p);
                    default -> throw new IllegalStateException(query.name());
                };
            };
            lines.forEach(out::println);
        }
    }

    private static Gid gid(DiagOptions o, String text) {
        try {
            return Gid.parse(text);
        } catch (RdmaException e) {
            throw o.error("bad GID '" + text + "'");
        }
    }
}
