package org.rdma.diags.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.diags.internal.DiagOptions.Opt;
import org.rdma.mad.umad.UmadService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.NodeInfo;

/**
 * {@code ibnetdiscover [options] [topology-file]}: infiniband-diags' {@code ibnetdiscover}
 * (infiniband-diags/ibnetdiscover.c over libibnetdisc). Discovers the subnet with directed-route
 * SMPs from the local port ({@code -C ca -P port}) and prints its topology file, the format
 * ibsim and org.rdma.fabric's topology parser read:
 *
 * <pre>
 * switchguid=0x200000(200000)
 * Switch	4 "S-0000000000200000"		# "S0" base port 0 lid 2 lmc 0
 * [1]	"S-0000000000200001"[2]		# "S1" lid 3 4xQDR
 * [3]	"H-0000000000100000"[1](100001) 		# "h0" lid 1 4xQDR
 * </pre>
 *
 * {@code -l}, {@code -H}, {@code -S}, {@code -R} list nodes instead, {@code -p} prints the ports
 * report, {@code -f} adds raw speed/width/VLCap; a file operand receives the output instead of
 * the session. A local port that does not answer is ETIMEDOUT, an unknown CA ENODEV. The work
 * is {@link Discovery}'s and {@link TopologyFormat}'s.
 */
@Component(service = IbnetdiscoverCommand.class, property = {"osgi.command.scope=rdma",
    "osgi.command.function=ibnetdiscover"})
public class IbnetdiscoverCommand {
    static final String USAGE_ARGS = "[topology-file]";

    private final UmadService umad;
    private final Clock wallClock;

    /** A command discovering through {@code umad}, its header dated by the system clock. */
    @Activate
    public IbnetdiscoverCommand(@Reference UmadService umad) {
        this(umad, Clock.systemDefaultZone());
    }

    /** With the clock of the header's date (tests). */
    IbnetdiscoverCommand(UmadService umad, Clock wallClock) {
        this.umad = umad;
        this.wallClock = wallClock;
    }

    /** {@code ibnetdiscover [options] [topology-file]}, printed to the session's output. */
    public void ibnetdiscover(String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        DiagOptions o = new DiagOptions("ibnetdiscover", USAGE_ARGS, "DGKLs", List.of(
                new Opt("full", 'f', false, null, "show full information (ports' speed and width, vlcap)"),
                new Opt("list", 'l', false, null, "list of connected nodes"),
                new Opt("Hca_list", 'H', false, null, "list of connected CAs"),
                new Opt("Switch_list", 'S', false, null, "list of connected switches"),
                new Opt("Router_list", 'R', false, null, "list of connected routers"),
                new Opt("ports", 'p', false, null, "obtain a ports report"))).parse(args);
        if (o.help()) {
            o.usage().forEach(out::println);
            return;
        }
        List<String> a = o.operands();
        if (a.size() > 1) {
            throw o.error("too many arguments");
        }
        Discovery.Fabric fabric;
        try (MadRpc rpc = MadRpc.open(umad, o.ca(), o.port(), o.timeout(MadRpc.DEF_TIMEOUT_MS), MadRpc.DEF_RETRIES)) {
            String key = o.get("m_key", null);
            if (key != null) {
                rpc.setMkey(o.number("m_key", key, Long.MIN_VALUE + 1, Long.MAX_VALUE));
            }
            fabric = new Discovery(rpc).discover();
        }
        List<String> lines = new ArrayList<>();
        if (o.has("ports")) {
            lines.addAll(TopologyFormat.portsReport(fabric));
        } else if (o.has("list") || o.has("Hca_list") || o.has("Switch_list") || o.has("Router_list")) {
            // the last list option wins, as in the C tool; -l lists CAs, switches and routers
            String last = o.given().stream().map(g -> g.opt().name())
                    .filter(n -> n.endsWith("_list") || n.equals("list")).reduce((x, y) -> y).orElseThrow();
            if (last.equals("list") || last.equals("Hca_list")) {
                lines.addAll(TopologyFormat.list(fabric, NodeInfo.NODE_TYPE_CA));
            }
            if (last.equals("list") || last.equals("Switch_list")) {
                lines.addAll(TopologyFormat.list(fabric, NodeInfo.NODE_TYPE_SWITCH));
            }
            if (last.equals("list") || last.equals("Router_list")) {
                lines.addAll(TopologyFormat.list(fabric, NodeInfo.NODE_TYPE_ROUTER));
            }
        } else {
            lines.addAll(TopologyFormat.topology(fabric, ZonedDateTime.now(wallClock), o.has("full")));
        }
        if (a.isEmpty()) {
            lines.forEach(out::println);
            return;
        }
        try {
            Files.writeString(Path.of(a.get(0)), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RdmaException(Errno.EIO, "can't open file " + a.get(0) + " for writing: " + e.getMessage(), e);
        }
    }
}
