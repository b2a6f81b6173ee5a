package org.rdma.fabric.internal.shell;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.rdma.fabric.Capture;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FaultCounters;
import org.rdma.fabric.FaultProfile;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * What {@code rdma:capture} and {@code rdma:fault} do on the simulated fabrics: the
 * {@code ibdump}/{@code tcpdump -w} and {@code tc qdisc ... netem} of a {@link Fabric} link.
 * Fabrics are the {@link Fabric} services, named by {@value Fabric#FABRIC_NAME}; with no name,
 * the only fabric. A link is named by either end as {@code NODE/PORT}, with the node's name in
 * the fabric's topology (or its GUID), e.g. {@code sw0/3} or {@code H-0002c903000c0b9c/1}; the
 * fabric itself prints a link as {@code "NODE"[PORT] - "NODE"[PORT]}.
 *
 * <p>The captures it started are kept here (one per link), stopped by {@link #stopCapture}, and
 * closed when their fabric goes away or this component stops. Unknown fabrics, nodes and
 * uncabled ports are {@code ENODEV}; bad values {@code EINVAL}.
 */
@Component(service = FabricTools.class)
public class FabricTools {
    /** One running capture. */
    private record Running(Fabric fabric, FabricLink link, String name, Capture capture) {
    }

    /** A change of a link's faults as {@code rdma:fault} asks for it; {@code null} fields are unchanged. */
    public static final class FaultChange {
        /** Loss probability. */
        public Double drop;
        /** Duplicate probability. */
        public Double duplicate;
        /** Reorder probability. */
        public Double reorder;
        /** Corrupt probability. */
        public Double corrupt;
        /** Fixed delay in nanoseconds. */
        public Long delayNanos;
        /** Remove every fault first. */
        public boolean clear;
        /** Pull the cable ({@link FabricLink#cablePull()}). */
        public boolean pull;
        /** Plug it back ({@link FabricLink#cableRestore()}). */
        public boolean restore;
    }

    private final List<Fabric> fabrics = new CopyOnWriteArrayList<>();
    private final Map<FabricLink, Running> captures = new LinkedHashMap<>();

    /** Tracks a fabric service. */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    public void addFabric(Fabric fabric) {
        fabrics.add(fabric);
    }

    /** Forgets a fabric and stops the captures on it. */
    public void removeFabric(Fabric fabric) {
        fabrics.remove(fabric);
        List<Running> gone = new ArrayList<>();
        synchronized (captures) {
            captures.values().removeIf(r -> r.fabric == fabric && gone.add(r));
        }
        gone.forEach(r -> r.capture.close());
    }

    /** Stops every capture this component started. */
    @Deactivate
    public void deactivate() {
        List<Running> all;
        synchronized (captures) {
            all = new ArrayList<>(captures.values());
            captures.clear();
        }
        all.forEach(r -> r.capture.close());
    }

    /**
     * The fabric named {@code name}, or the only one for {@code null}; {@code ENODEV} if there
     * is no such fabric, {@code EINVAL} if {@code null} and there are several.
     */
    public Fabric fabric(String name) {
        List<Fabric> all = List.copyOf(fabrics);
        if (name == null) {
            if (all.size() == 1) {
                return all.get(0);
            }
            if (all.isEmpty()) {
                throw new RdmaException(Errno.ENODEV, "no fabric");
            }
            List<String> names = new ArrayList<>();
            all.forEach(f -> names.add(f.name()));
            throw new RdmaException(Errno.EINVAL, "several fabrics (" + String.join(", ", names) + "): give -f FABRIC");
        }
        for (Fabric f : all) {
            if (name.equals(f.name())) {
                return f;
            }
        }
        throw new RdmaException(Errno.ENODEV, "no fabric named '" + name + "'");
    }

    /** The link cabled to port {@code NODE/PORT} of the fabric; {@code ENODEV} if none. */
    public FabricLink link(Fabric fabric, String spec) {
        int slash = spec == null ? -1 : spec.lastIndexOf('/');
        if (slash <= 0 || slash == spec.length() - 1) {
            throw new RdmaException(Errno.EINVAL, "a link is NODE/PORT, got '" + spec + "'");
        }
        String node = spec.substring(0, slash);
        int port;
        try {
            port = Integer.parseInt(spec.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new RdmaException(Errno.EINVAL, "bad port number in '" + spec + "'");
        }
        FabricNode n = fabric.findNode(node).orElseThrow(
                () -> new RdmaException(Errno.ENODEV, "no node '" + node + "' in fabric " + fabric.name()));
        FabricPort p;
        try {
            p = n.port(port);
        } catch (RdmaException e) {
            throw new RdmaException(Errno.ENODEV, "node " + node + " has no port " + port, e);
        }
        FabricLink link = p.link();
        if (link == null) {
            throw new RdmaException(Errno.ENODEV, "no cable on " + node + "/" + port);
        }
        return link;
    }

    /** A link as {@code NODE/PORT <-> NODE/PORT}, end A first. */
    public static String name(FabricLink link) {
        return end(link.endA()) + " <-> " + end(link.endB());
    }

    private static String end(FabricPort p) {
        return p.node().name() + "/" + p.portNum();
    }

    // ---------------------------------------------------------------- captures

    /**
     * Starts capturing link {@code spec} of fabric {@code fabricName} to {@code file}: pcap with
     * LINKTYPE_ERF (ERF type 21) on InfiniBand, LINKTYPE_ETHERNET on RoCE, written by the fabric.
     * {@code EBUSY} if the link is being captured already, {@code EIO} if the file cannot be
     * created. Returns the link's name.
     */
    public String startCapture(String fabricName, String spec, Path file) {
        Fabric f = fabric(fabricName);
        FabricLink link = link(f, spec);
        synchronized (captures) {
            Running r = captures.get(link);
            if (r != null && r.capture.isOpen()) {
                throw new RdmaException(Errno.EBUSY, name(link) + " is being captured to " + r.capture.file());
            }
            Capture c;
            try {
                c = link.capture(file);
            } catch (IOException e) {
                throw new RdmaException(Errno.EIO, "cannot create " + file + ": " + e.getMessage(), e);
            }
            captures.put(link, new Running(f, link, name(link), c));
        }
        return name(link);
    }

    /** Stops the capture on a link; returns its line (see {@link #captures()}). {@code ENOENT} if none runs. */
    public String stopCapture(String fabricName, String spec) {
        Fabric f = fabric(fabricName);
        FabricLink link = link(f, spec);
        Running r;
        synchronized (captures) {
            r = captures.remove(link);
        }
        if (r == null) {
            throw new RdmaException(Errno.ENOENT, "no capture on " + name(link));
        }
        r.capture.close();
        return line(r);
    }

    /**
     * One line per capture started here, in start order:
     * {@code sw0/3 <-> host1/1 file /tmp/a.pcap packets 12 running} ({@code stopped} once the
     * fabric closed it).
     */
    public List<String> captures() {
        List<String> out = new ArrayList<>();
        synchronized (captures) {
            captures.values().forEach(r -> out.add(line(r)));
        }
        return out;
    }

    private static String line(Running r) {
        return r.fabric.name() + " " + r.name + " file " + r.capture.file() + " packets " + r.capture.packets()
                + (r.capture.isOpen() ? " running" : " stopped");
    }

    // ---------------------------------------------------------------- faults

    /**
     * Applies {@code change} to both directions of the link (each direction keeps its own
     * unchanged knobs), then pulls or restores the cable; returns {@link #faultLines} after.
     */
    public List<String> applyFaults(String fabricName, String spec, FaultChange change) {
        Fabric f = fabric(fabricName);
        FabricLink link = link(f, spec);
        for (FabricPort from : new FabricPort[] {link.endA(), link.endB()}) {
            FaultProfile p = change.clear ? FaultProfile.NONE : link.faults(from);
            if (change.drop != null) {
                p = p.withDropRate(change.drop);
            }
            if (change.duplicate != null) {
                p = p.withDuplicateRate(change.duplicate);
            }
            if (change.reorder != null) {
                p = p.withReorderRate(change.reorder);
            }
            if (change.corrupt != null) {
                p = p.withCorruptRate(change.corrupt);
            }
            if (change.delayNanos != null) {
                p = p.withDelay(change.delayNanos, TimeUnit.NANOSECONDS);
            }
            link.setFaults(from, p);
        }
        if (change.pull) {
            link.cablePull();
        }
        if (change.restore) {
            link.cableRestore();
        }
        return faultLines(link);
    }

    /**
     * The link's state and, per direction, its faults as {@code tc qdisc show} prints netem and
     * what they did:
     *
     * <pre>
     * sw0/3 <-> host1/1 state up cable present
     *   sw0/3 -> host1/1: delay 0.000ms loss 5% duplicate 0% reorder 0% corrupt 0% (packets 10 dropped 1 ...)
     * </pre>
     */
    public static List<String> faultLines(FabricLink link) {
        List<String> out = new ArrayList<>();
        out.add(name(link) + " state " + (link.isUp() ? "up" : "down") + " cable "
                + (link.isCablePresent() ? "present" : "pulled"));
        for (FabricPort from : new FabricPort[] {link.endA(), link.endB()}) {
            FaultProfile p = link.faults(from);
            FaultCounters c = link.faultCounters(from);
            out.add("  " + end(from) + " -> " + end(link.other(from)) + ": delay " + ms(p.delayNanos()) + " loss "
                    + pct(p.dropRate()) + " duplicate " + pct(p.duplicateRate()) + " reorder " + pct(p.reorderRate())
                    + " corrupt " + pct(p.corruptRate()) + " (packets " + c.packets() + " dropped " + c.dropped()
                    + " duplicated " + c.duplicated() + " reordered " + c.reordered() + " corrupted " + c.corrupted()
                    + " delayed " + c.delayed() + " lost_link_down " + c.lostLinkDown() + ")");
        }
        return out;
    }

    /** The current fault lines of a link. */
    public List<String> showFaults(String fabricName, String spec) {
        return faultLines(link(fabric(fabricName), spec));
    }

    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3fms", nanos / 1e6);
    }

    private static String pct(double rate) {
        java.math.BigDecimal d = java.math.BigDecimal.valueOf(rate * 100).stripTrailingZeros();
        return (d.scale() < 0 ? d.setScale(0) : d).toPlainString() + "%";
    }
}
