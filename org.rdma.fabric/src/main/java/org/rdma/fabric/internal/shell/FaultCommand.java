package org.rdma.fabric.internal.shell;

import java.io.PrintStream;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code rdma:fault [-f FABRIC] LINK [drop P] [duplicate P] [reorder P] [corrupt P] [delay MS]
 * [clear] [pull|restore]}: link faults of the simulated fabric, the knobs of
 * {@code tc qdisc change dev X root netem loss P duplicate P reorder P corrupt P delay MS} plus
 * a cable pull, applied to both directions of the link. P is a probability ({@code 0.05}) or a
 * percentage ({@code 5%}); MS may have decimals. {@code clear} removes every fault first. With
 * nothing but LINK it shows the link's faults and what they did:
 *
 * <pre>
 * sw0/3 &lt;-&gt; host1/1 state up cable present
 *   sw0/3 -&gt; host1/1: delay 0.000ms loss 5% duplicate 0% reorder 0% corrupt 0% (packets 10 dropped 1 ...)
 *   host1/1 -&gt; sw0/3: delay 0.000ms loss 5% duplicate 0% reorder 0% corrupt 0% (packets 9 dropped 0 ...)
 * </pre>
 *
 * An unknown fabric or link is {@code ENODEV}; a bad value {@code EINVAL}. The work is
 * {@link FabricTools}'; this class parses and prints.
 */
@Component(service = FaultCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=fault"})
public class FaultCommand {
    static final String USAGE = "rdma:fault [-f FABRIC] LINK [drop P] [duplicate P] [reorder P] [corrupt P]"
            + " [delay MS] [clear] [pull|restore]";

    private final FabricTools tools;

    /** A command working through {@code tools}. */
    @Activate
    public FaultCommand(@Reference FabricTools tools) {
        this.tools = tools;
    }

    /** {@code rdma:fault ...}, printed to the session's output. */
    @Descriptor("show or set the fault injection of a simulated fabric link (tc netem)")
    public void fault(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        FabricArgs o = FabricArgs.parse(USAGE, args);
        List<String> a = o.operands();
        if (a.isEmpty()) {
            throw o.error("LINK is required");
        }
        String fabric = o.fabric();
        String link = a.get(0);
        if (a.size() == 1) {
            tools.showFaults(fabric, link).forEach(out::println);
            return;
        }
        FabricTools.FaultChange c = new FabricTools.FaultChange();
        for (int i = 1; i < a.size(); i++) {
            String key = a.get(i);
            switch (key) {
                case "clear":
                    c.clear = true;
                    continue;
                case "pull":
                    c.pull = true;
                    continue;
                case "restore":
                    c.restore = true;
                    continue;
                default:
                    break;
            }
            if (i + 1 >= a.size()) {
                throw o.error(isKnob(key) ? "'" + key + "' needs a value" : "unknown fault '" + key + "'");
            }
            String value = a.get(++i);
            switch (key) {
                case "drop":
                case "loss":
                    c.drop = probability(o, key, value);
                    break;
                case "duplicate":
                    c.duplicate = probability(o, key, value);
                    break;
                case "reorder":
                    c.reorder = probability(o, key, value);
                    break;
                case "corrupt":
                    c.corrupt = probability(o, key, value);
                    break;
                case "delay":
                    c.delayNanos = delay(o, value);
                    break;
                default:
                    throw o.error("unknown fault '" + key + "'");
            }
        }
        if (c.pull && c.restore) {
            throw o.error("pull and restore together");
        }
        tools.applyFaults(fabric, link, c).forEach(out::println);
    }

    private static boolean isKnob(String key) {
        return List.of("drop", "loss", "duplicate", "reorder", "corrupt", "delay").contains(key);
    }

    /** {@code 0.05} or {@code 5%}, within [0, 1]; EINVAL otherwise. */
    static double probability(FabricArgs o, String key, String value) {
        double p;
        try {
            p = value.endsWith("%") ? Double.parseDouble(value.substring(0, value.length() - 1)) / 100
                    : Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw o.error("bad " + key + " probability '" + value + "'");
        }
        if (!(p >= 0 && p <= 1)) {
            throw o.error(key + " probability must be within [0, 1] (or 0%..100%), got '" + value + "'");
        }
        return p;
    }

    /** Milliseconds (decimals allowed, optional {@code ms} suffix), not negative, to nanoseconds. */
    static long delay(FabricArgs o, String value) {
        String v = value.endsWith("ms") ? value.substring(0, value.length() - 2) : value;
        double ms;
        try {
            ms = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw o.error("bad delay '" + value + "' (milliseconds)");
        }
        if (!(ms >= 0 && ms <= 3_600_000)) {
            throw o.error("delay must be within [0, 3600000] ms, got '" + value + "'");
        }
        return Math.round(ms * 1e6);
    }
}
