package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.PortDTO;
import org.rdma.verbs.runtime.RuntimeDTO;

/**
 * {@code rdma:link [show] [-d|--details] [DEV[/PORT]]}: the Linux iproute2 {@code rdma link show}
 * command ({@code rdma/link.c}). One line per port of every device, or of one device, or one port:
 *
 * <pre>
 * link mlx4_0/1 subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP
 * link mlx4_0/2 state ACTIVE physical_state LINK_UP netdev eth2
 * </pre>
 *
 * With {@code -d}, each port is followed by its capability names ({@code     caps: <...>}) and
 * its GIDs. An unknown device is {@code ENODEV}, a bad port {@code EINVAL}. The data come from
 * {@link IbRuntime}'s port DTOs; the lines from {@link RdmaFormat#linkLines}.
 */
@Component(service = LinkCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=link"})
public class LinkCommand {
    static final String USAGE = "rdma:link [show] [-d|--details] [DEV[/PORT]]";

    private final IbRuntime runtime;

    /** A command reading {@code runtime}. */
    @Activate
    public LinkCommand(@Reference IbRuntime runtime) {
        this.runtime = runtime;
    }

    /** {@code rdma:link [show] [-d] [DEV[/PORT]]}, printed to the session's output. */
    @Descriptor("show RDMA links: port state, LID, GIDs, netdev (rdma link show)")
    public void link(@Descriptor(USAGE) String... args) {
        show(System.out, args);
    }

    void show(PrintStream out, String... args) {
        boolean details = false;
        List<String> rest = new ArrayList<>();
        for (String a : RdmaFormat.list(args)) {
            if ("-d".equals(a) || "--details".equals(a) || "-details".equals(a)) {
                details = true;
            } else {
                rest.add(a);
            }
        }
        List<String> a = RdmaFormat.arguments(rest.toArray(new String[0]), 1, USAGE);
        RuntimeDTO dto = runtime.getRuntimeDTO();
        List<DeviceDTO> devices = RdmaFormat.list(dto.devices);
        if (a.isEmpty()) {
            for (DeviceDTO d : devices) {
                for (PortDTO p : RdmaFormat.list(d.ports)) {
                    RdmaFormat.linkLines(d, p, details).forEach(out::println);
                }
            }
            return;
        }
        RdmaFormat.LinkArg link = RdmaFormat.linkArg(a.get(0), USAGE);
        DeviceDTO d = devices.get(RdmaFormat.deviceIndex(dto.devices, link.device()));
        for (PortDTO p : RdmaFormat.ports(d, link.port())) {
            RdmaFormat.linkLines(d, p, details).forEach(out::println);
        }
    }
}
