package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.RuntimeDTO;

/**
 * {@code rdma:dev [show] [DEV]}: the Linux iproute2 {@code rdma dev show [DEV]} command
 * ({@code rdma/dev.c}). One line per registered device, in registration order:
 *
 * <pre>
 * 0: mlx4_0: node_type ca fw 2.42.5000 node_guid 0002:c903:00a1:b2c0 sys_image_guid 0002:c903:00a1:b2c3
 * </pre>
 *
 * An unknown device name fails with {@code ENODEV}. The data come from the core's
 * {@link IbRuntime}; this class only parses and prints.
 */
@Component(service = DevCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=dev"})
public class DevCommand {
    static final String USAGE = "rdma:dev [show] [DEV]";

    private final IbRuntime runtime;

    /** A command reading {@code runtime}. */
    @Activate
    public DevCommand(@Reference IbRuntime runtime) {
        this.runtime = runtime;
    }

    /** {@code rdma:dev [show] [DEV]}, printed to the session's output. */
    @Descriptor("show RDMA devices (rdma dev show)")
    public void dev(@Descriptor(USAGE) String... args) {
        show(System.out, args);
    }

    void show(PrintStream out, String... args) {
        List<String> a = RdmaFormat.arguments(args, 1, USAGE);
        RuntimeDTO dto = runtime.getRuntimeDTO();
        List<DeviceDTO> devices = RdmaFormat.list(dto.devices);
        if (a.isEmpty()) {
            for (DeviceDTO d : devices) {
                out.println(RdmaFormat.devLine(d.index, d));
            }
        } else {
            DeviceDTO d = devices.get(RdmaFormat.deviceIndex(dto.devices, a.get(0)));
            out.println(RdmaFormat.devLine(d.index, d));
        }
    }
}
