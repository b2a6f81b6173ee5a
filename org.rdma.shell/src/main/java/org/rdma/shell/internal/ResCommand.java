package org.rdma.shell.internal;

import java.io.PrintStream;
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
import org.rdma.verbs.runtime.ResourceDTO;
import org.rdma.verbs.runtime.RuntimeDTO;

/**
 * {@code rdma:res}: the Linux iproute2 {@code rdma resource show} command ({@code rdma/res.c}
 * and {@code rdma/res-*.c}), over the core's resource tracker (restrack).
 *
 * <ul>
 * <li>{@code rdma:res [show] [DEV]}: one summary line per device,
 * {@code 0: mlx4_0: pd 3 cq 4 qp 4 cm_id 0 mr 0 ctx 0 srq 2};
 * <li>{@code rdma:res [show] TYPE [dev|link] [DEV[/PORT]]} with TYPE one of
 * {@code qp cq pd mr srq mw ah wq}: one line per tracked object,
 * {@code link mlx4_0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]}; {@code DEV/PORT}
 * keeps the objects whose {@code link} is that port, as {@code rdma res show qp link} does.
 * </ul>
 *
 * An unknown device fails with {@code ENODEV}. The data come from {@link IbRuntime}; this
 * class only parses and prints.
 */
@Component(service = ResCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=res"})
public class ResCommand {
    static final String USAGE = "rdma:res [show] [DEV] | rdma:res [show] qp|cq|pd|mr|cm_id|srq|mw|ah|wq [dev|link] [DEV[/PORT]]";

    private final IbRuntime runtime;

    /** A command reading {@code runtime}. */
    @Activate
    public ResCommand(@Reference IbRuntime runtime) {
        this.runtime = runtime;
    }

    /** {@code rdma:res [show] [DEV]} or {@code rdma:res [show] TYPE [dev|link] [DEV[/PORT]]}. */
    @Descriptor("show RDMA resources: pd, cq, qp, mr ... (rdma resource show)")
    public void res(@Descriptor(USAGE) String... args) {
        show(System.out, args);
    }

    void show(PrintStream out, String... args) {
        List<String> a = RdmaFormat.arguments(args, 3, USAGE);
        RuntimeDTO dto = runtime.getRuntimeDTO();
        if (a.isEmpty() || !RdmaFormat.RESOURCE_TYPES.contains(a.get(0))) {
            summary(out, dto, a);
        } else {
            objects(out, dto, a);
        }
    }

    /** {@code rdma res show [DEV]}. */
    private void summary(PrintStream out, RuntimeDTO dto, List<String> a) {
        if (a.size() > 1) {
            throw new RdmaException(Errno.EINVAL, "unknown resource type '" + a.get(0) + "'; usage: " + USAGE);
        }
        List<DeviceDTO> devices = RdmaFormat.list(dto.devices);
        int from = 0;
        int to = devices.size();
        if (a.size() == 1) {
            from = RdmaFormat.deviceIndex(dto.devices, a.get(0));
            to = from + 1;
        }
        for (int i = from; i < to; i++) {
            String name = devices.get(i).name;
            Map<String, Integer> counts;
            try {
                counts = runtime.resourceCounts(name);
            } catch (RdmaException e) {
                if (e.errno() == Errno.ENODEV && a.isEmpty()) {
                    continue; // unregistered since the snapshot: listing all, it is simply gone
                }
                throw e;
            }
            out.println(RdmaFormat.resSummaryLine(devices.get(i).index, name, counts));
        }
    }

    /** {@code rdma res show TYPE [dev|link] [DEV[/PORT]]}. */
    private void objects(PrintStream out, RuntimeDTO dto, List<String> a) {
        String type = a.get(0);
        List<String> rest = a.subList(1, a.size());
        if (!rest.isEmpty() && ("dev".equals(rest.get(0)) || "link".equals(rest.get(0)))) {
            rest = rest.subList(1, rest.size());
        }
        if (rest.size() > 1) {
            throw new RdmaException(Errno.EINVAL, "too many arguments; usage: " + USAGE);
        }
        String device = null;
        String link = null;
        if (!rest.isEmpty()) {
            device = rest.get(0);
            int slash = device.indexOf('/');
            if (slash >= 0) {
                link = device;
                device = device.substring(0, slash);
            }
            RdmaFormat.deviceIndex(dto.devices, device);
        }
        for (ResourceDTO r : RdmaFormat.list(runtime.resources(device, type))) {
            if (link == null || (r.attrs != null && link.equals(r.attrs.get("link")))) {
                out.println(RdmaFormat.resLine(r));
            }
        }
    }
}
