package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.PortDTO;
import org.rdma.verbs.runtime.RuntimeDTO;

/**
 * {@code rdma:statistic [show] [link [DEV[/PORT]]]}: the Linux iproute2 {@code rdma statistic
 * show} command ({@code rdma/stat.c}): one line per port with the driver's hardware counters,
 * in the driver's order.
 *
 * <pre>
 * link rxe0/1 sent_pkts 12 rcvd_pkts 12 duplicate_request 0 out_of_seq_request 0 ... icrc_err 0
 * </pre>
 *
 * A port whose driver keeps no counters prints its {@code link DEV/PORT} alone. An unknown device
 * is {@code ENODEV}, a bad port {@code EINVAL}.
 */
@Component(service = StatisticCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=statistic"})
public class StatisticCommand {
    static final String USAGE = "rdma:statistic [show] [link [DEV[/PORT]]]";

    private final IbRuntime runtime;

    /** A command reading {@code runtime}. */
    @Activate
    public StatisticCommand(@Reference IbRuntime runtime) {
        this.runtime = runtime;
    }

    /** {@code rdma:statistic [show] [link [DEV[/PORT]]]}, printed to the session's output. */
    @Descriptor("show the ports' hardware counters (rdma statistic show)")
    public void statistic(@Descriptor(USAGE) String... args) {
        show(System.out, args);
    }

    void show(PrintStream out, String... args) {
        List<String> a = new ArrayList<>(RdmaFormat.arguments(args, 2, USAGE));
        if (!a.isEmpty()) {
            if (!"link".equals(a.get(0))) {
                throw new RdmaException(Errno.EINVAL, "unknown object '" + a.get(0) + "'; usage: " + USAGE);
            }
            a.remove(0);
        }
        RuntimeDTO dto = runtime.getRuntimeDTO();
        List<DeviceDTO> devices = RdmaFormat.list(dto.devices);
        if (a.isEmpty()) {
            for (DeviceDTO d : devices) {
                List<String> lines = new ArrayList<>();
                try {
                    for (PortDTO p : RdmaFormat.list(d.ports)) {
                        lines.add(line(d.name, p.port));
                    }
                } catch (RdmaException e) {
                    if (e.errno() == Errno.ENODEV) {
                        continue; // unregistered since the snapshot, as rdma res skips it
                    }
                    throw e;
                }
                lines.forEach(out::println);
            }
            return;
        }
        RdmaFormat.LinkArg link = RdmaFormat.linkArg(a.get(0), USAGE);
        DeviceDTO d = devices.get(RdmaFormat.deviceIndex(dto.devices, link.device()));
        for (PortDTO p : RdmaFormat.ports(d, link.port())) {
            out.println(line(d.name, p.port));
        }
    }

    private String line(String device, int port) {
        StringBuilder b = new StringBuilder("link ").append(device).append('/').append(port);
        for (Map.Entry<String, Long> e : runtime.hwStats(device, port).entrySet()) {
            b.append(' ').append(e.getKey()).append(' ').append(Long.toUnsignedString(e.getValue()));
        }
        return b.toString();
    }
}
