package org.rdma.diags.internal;

import java.io.PrintStream;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.diags.internal.DiagOptions.Opt;
import org.rdma.mad.umad.UmadService;
import org.rdma.verbs.RdmaException;

/**
 * {@code smpquery [options] <op> <dest dr_path|lid|guid> [op params]}: infiniband-diags'
 * {@code smpquery} (infiniband-diags/smpquery.c). Asks a node's SMA by LID (default, or
 * {@code -L}), by directed route ({@code -D 0,1,3}) or by port GUID ({@code -G}, resolved through
 * the SA), from the port {@code -C ca -P port} (else libibumad's default):
 *
 * <pre>
 * # Node info: Lid 2
 * BaseVers:........................1
 * ClassVers:.......................1
 * NodeType:........................Switch
 * </pre>
 *
 * Operations: NodeInfo (NI), NodeDesc (ND), PortInfo (PI) [portnum], SwitchInfo (SI),
 * PKeyTable (PKeys) [portnum], SL2VLTable (SL2VL) [portnum], GUIDInfo (GI). No answer is
 * ETIMEDOUT, an error status EIO, bad arguments EINVAL, an unknown CA ENODEV. The queries are
 * {@link SmpQuery}'s; this class parses and prints.
 */
@Component(service = SmpqueryCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=smpquery"})
public class SmpqueryCommand {
    static final String USAGE_ARGS = "<op> <dest dr_path|lid|guid> [op params]";

    private final UmadService umad;

    /** A command sending SMPs through {@code umad}. */
    @Activate
    public SmpqueryCommand(@Reference UmadService umad) {
        this.umad = umad;
    }

    /** {@code smpquery [options] <op> <dest> [op params]}, printed to the session's output. */
    public void smpquery(String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        DiagOptions o = new DiagOptions("smpquery", USAGE_ARGS + "\n\nSupported ops (and aliases, case insensitive):\n"
                + ops(), "", List.of(new Opt("extended", 'x', false, null, "use extended speeds"))).parse(args);
        if (o.help()) {
            o.usage().forEach(out::println);
            return;
        }
        List<String> a = o.operands();
        if (a.size() < 2) {
            throw o.error("an operation and a destination are required");
        }
        SmpQuery.Op op = SmpQuery.Op.match(a.get(0));
        if (op == null) {
            throw o.error("operation '" + a.get(0) + "' not supported");
        }
        if (!op.portArg && a.size() > 2 || a.size() > 3) {
            throw o.error("too many arguments for " + op.name);
        }
        try (MadRpc rpc = MadRpc.open(umad, o.ca(), o.port(), o.timeout(MadRpc.DEF_TIMEOUT_MS), MadRpc.DEF_RETRIES)) {
            String key = o.get("m_key", null);
            if (key != null) {
                rpc.setMkey(o.number("m_key", key, Long.MIN_VALUE + 1, Long.MAX_VALUE));
            }
            PortId dest = rpc.resolve(a.get(1), o.destType());
            List<String> lines;
            try {
                lines = new SmpQuery(rpc, o.showKeys(), o.has("extended")).run(op, dest, a.subList(2, a.size()), o);
            } catch (RdmaException e) {
                throw DiagText.fail("operation " + a.get(0), e);
            }
            lines.forEach(out::println);
        }
    }

    private static String ops() {
        StringBuilder b = new StringBuilder();
        for (SmpQuery.Op op : SmpQuery.Op.values()) {
            b.append("  ").append(op.name).append(" (").append(op.alias).append(") <addr>")
                    .append(op.portArg ? " [<portnum>]" : "").append('\n');
        }
        return b.toString();
    }
}
