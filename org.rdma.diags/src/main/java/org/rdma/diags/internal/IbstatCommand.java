package org.rdma.diags.internal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.diags.internal.DiagOptions.Opt;
import org.rdma.mad.umad.UmadCa;
import org.rdma.mad.umad.UmadPortAttr;
import org.rdma.mad.umad.UmadService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * {@code ibstat [-l] [-s] [-p] [<ca_name> [portnum]]}: infiniband-diags' {@code ibstat}
 * (infiniband-diags/ibstat.c) over libibumad's CA and port descriptions ({@link UmadService},
 * which reads them from the devices' verbs as sysfs would present them):
 *
 * <pre>
 * CA 'mlx4_0'
 * 	CA type: MT4099
 * 	Number of ports: 1
 * 	...
 * 	Port 1:
 * 		State: Active
 * 		Rate: 40
 * </pre>
 *
 * {@code -l} lists the CA names, {@code -p} the port GUIDs, {@code -s} the CAs without ports;
 * CAs come in name order ({@code umad_sort_ca_device_list()}). An unknown CA is ENODEV, a port
 * the CA lacks EINVAL.
 */
@Component(service = IbstatCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=ibstat"})
public class IbstatCommand {
    static final String USAGE_ARGS = "<ca_name> [portnum]";
    private static final String[] NODE_TYPES = {"???", "CA", "Switch", "Router", "iWARP RNIC"};
    private static final String[] PORT_STATES = {"???", "Down", "Initializing", "Armed", "Active"};
    private static final String[] PHYS_STATES = {"No state change", "Sleep", "Polling", "Disabled",
        "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest"};

    private final UmadService umad;

    /** A command reading CAs from {@code umad}. */
    @Activate
    public IbstatCommand(@Reference UmadService umad) {
        this.umad = umad;
    }

    /** {@code ibstat [options] [<ca_name> [portnum]]}, printed to the session's output. */
    public void ibstat(String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        DiagOptions o = new DiagOptions("ibstat", USAGE_ARGS, "CDeGKLPsty", List.of(
                new Opt("list_of_cas", 'l', false, null, "list all IB devices"),
                new Opt("short", 's', false, null, "short output"),
                new Opt("port_list", 'p', false, null, "show port list"))).parse(args);
        if (o.help()) {
            o.usage().forEach(out::println);
            return;
        }
        List<String> a = o.operands();
        if (a.size() > 2) {
            throw o.error("too many arguments");
        }
        int port = a.size() > 1 ? (int) o.number("portnum", a.get(1), 0, 254) : -1;
        List<String> cas = new ArrayList<>(umad.getCasNames());
        cas.sort(null);
        if (!a.isEmpty()) {
            if (!cas.contains(a.get(0))) {
                throw new RdmaException(Errno.ENODEV, "'" + a.get(0) + "' IB device can't be found");
            }
            cas = List.of(a.get(0));
        }
        if (o.has("port_list")) {
            for (String ca : cas) {
                for (long g : umad.getCaPortguids(ca)) {
                    if (g != 0) {
                        out.printf(Locale.ROOT, "0x%016x%n", g);
                    }
                }
            }
            return;
        }
        for (String ca : cas) {
            if (o.has("list_of_cas")) {
                out.println(ca);
            } else {
                lines(umad.getCa(ca), port, o.has("short")).forEach(out::println);
            }
        }
    }

    /** {@code ca_stat()}: the CA, then every port, or only the port asked for, or no ports. */
    static List<String> lines(UmadCa ca, int portNum, boolean noPorts) {
        List<String> out = new ArrayList<>();
        if (ca.nodeType() == 0) {
            return out;
        }
        String type = ca.nodeType() < NODE_TYPES.length ? NODE_TYPES[ca.nodeType()] : "???";
        if (!noPorts && portNum >= 0) {
            UmadPortAttr p = portNum > ca.numports() ? null : ca.port(portNum);
            if (p == null) {
                throw new RdmaException(Errno.EINVAL, String.format(Locale.ROOT,
                        "%s: '%s' has no port number %d - max (%d)", type, ca.caName(), portNum, ca.numports()));
            }
            out.add(type + ": '" + ca.caName() + "'");
            port(out, p, true);
            return out;
        }
        out.add(type + " '" + ca.caName() + "'");
        out.add("\t" + type + " type: " + ca.caType());
        out.add("\tNumber of ports: " + ca.numports());
        out.add("\tFirmware version: " + ca.fwVer());
        out.add("\tHardware version: " + ca.hwVer());
        out.add(String.format(Locale.ROOT, "\tNode GUID: 0x%016x", ca.nodeGuid()));
        out.add(String.format(Locale.ROOT, "\tSystem image GUID: 0x%016x", ca.systemGuid()));
        if (!noPorts) {
            for (UmadPortAttr p : ca.ports()) {
                port(out, p, false);
            }
        }
        return out;
    }

    /** {@code port_dump()}: indented under its CA, or alone. */
    private static void port(List<String> out, UmadPortAttr p, boolean alone) {
        String pre = alone ? "" : "\t\t";
        out.add((alone ? "" : "\t") + "Port " + p.portnum() + ":");
        out.add(pre + "State: " + (p.state() >= 0 && p.state() < PORT_STATES.length ? PORT_STATES[p.state()] : "???"));
        out.add(pre + "Physical state: "
                + (p.physState() >= 0 && p.physState() < PHYS_STATES.length ? PHYS_STATES[p.physState()] : "???"));
        out.add(pre + "Rate: " + (p.rate() != 2 ? Integer.toString(p.rate()) : "2.5"));
        out.add(pre + "Base lid: " + p.baseLid());
        out.add(pre + "LMC: " + p.lmc());
        out.add(pre + "SM lid: " + p.smLid());
        out.add(pre + String.format(Locale.ROOT, "Capability mask: 0x%08x", p.capmask()));
        out.add(pre + String.format(Locale.ROOT, "Port GUID: 0x%016x", p.portGuid()));
        out.add(pre + "Link layer: " + p.linkLayer());
    }
}
