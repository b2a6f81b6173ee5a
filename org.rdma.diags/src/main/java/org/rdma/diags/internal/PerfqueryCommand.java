package org.rdma.diags.internal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.diags.internal.DiagOptions.Opt;
import org.rdma.mad.umad.UmadService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * {@code perfquery [options] [<lid|guid> [[port(s)] [reset_mask]]]}: infiniband-diags'
 * {@code perfquery} (infiniband-diags/perfquery.c). Reads a port's PortCounters, or with
 * {@code -x} its PortCountersExtended, from the performance management agent at a LID (the local
 * port without one), and with {@code -r} resets them after reading, with {@code -R} only resets.
 * {@code -a} aggregates all ports (AllPortSelect, or port by port), {@code -l} prints each port:
 *
 * <pre>
 * # Port counters: Lid 5 port 1 (CapMask: 0x1200)
 * PortSelect:......................1
 * CounterSelect:...................0x0000
 * ...
 * </pre>
 *
 * No answer is ETIMEDOUT, an error status EIO, bad arguments EINVAL. The work is
 * {@link PerfQuery}'s.
 */
@Component(service = PerfqueryCommand.class, property = {"osgi.command.scope=rdma",
    "osgi.command.function=perfquery"})
public class PerfqueryCommand {
    static final String USAGE_ARGS = " [<lid|guid> [[port(s)] [reset_mask]]]";

    private final UmadService umad;

    /** A command sending PerfMgt MADs through {@code umad}. */
    @Activate
    public PerfqueryCommand(@Reference UmadService umad) {
        this.umad = umad;
    }

    /** {@code perfquery [options] [<lid|guid> [[port(s)] [reset_mask]]]}, printed to the session's output. */
    public void perfquery(String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        DiagOptions o = new DiagOptions("perfquery", USAGE_ARGS, "DK", List.of(
                new Opt("extended", 'x', false, null, "show extended port counters"),
                new Opt("all_ports", 'a', false, null, "show aggregated counters"),
                new Opt("loop_ports", 'l', false, null, "iterate through each port"),
                new Opt("reset_after_read", 'r', false, null, "reset counters after read"),
                new Opt("Reset_only", 'R', false, null, "only reset counters"))).parse(args);
        if (o.help()) {
            o.usage().forEach(out::println);
            return;
        }
        List<String> a = o.operands();
        if (a.size() > 3) {
            throw o.error("too many arguments");
        }
        boolean all = o.has("all_ports");
        boolean loop = o.has("loop_ports");
        boolean extended = o.has("extended");
        List<Integer> ports = a.size() > 1 ? PerfQuery.ports(a.get(1), o) : new ArrayList<>();
        int port = ports.isEmpty() ? all ? MadRpc.ALL_PORTS : 0 : ports.get(0);
        long mask = a.size() > 2 ? o.number("reset_mask", a.get(2), 0, 0xffff_ffffL) : 0xffff;
        try (MadRpc rpc = MadRpc.open(umad, o.ca(), o.port(), o.timeout(MadRpc.DEF_TIMEOUT_MS), MadRpc.DEF_RETRIES)) {
            PortId dest;
            if (a.isEmpty()) {
                // resolve_self(): the local port, by its own LID and number (even with -a)
                dest = PortId.ofLid(rpc.self().baseLid(), rpc.self().smSl());
                port = rpc.self().portnum();
            } else {
                dest = rpc.resolve(a.get(0), o.destType());
            }
            PerfQuery q = new PerfQuery(rpc, dest, extended);
            q.classPortInfo(port);
            boolean emulateAll = false;
            if (!q.allPortSelect()) {
                if (!all && port == MadRpc.ALL_PORTS) {
                    throw new RdmaException(Errno.EOPNOTSUPP, "AllPortSelect not supported");
                }
                emulateAll = all && port == MadRpc.ALL_PORTS;
            }
            List<Integer> each = ports.size() > 1 ? ports : List.of(port);
            if (emulateAll || loop && (all || port == MadRpc.ALL_PORTS)) {
                each = q.allPorts();
            }
            boolean aggregate = emulateAll && !loop || ports.size() > 1 && all && !loop;
            if (!o.has("Reset_only")) {
                if (aggregate) {
                    q.aggregate(each).forEach(out::println);
                } else {
                    for (int p : each) {
                        q.counters(p).forEach(out::println);
                    }
                }
                if (!o.has("reset_after_read")) {
                    return;
                }
            }
            for (int p : each) {
                q.reset(p, mask, a.size() > 2);
            }
        }
    }
}
