package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;

/**
 * {@code ibv_devinfo [-d DEV] [-i PORT] [-v] [-l]}: rdma-core's {@code ibv_devinfo}
 * ({@code libibverbs/examples/devinfo.c}). Every device in registration order, or the one named
 * by {@code -d}; every port, or the one named by {@code -i}; with {@code -v} the long list of
 * device and port attributes and the GID tables; {@code -l} lists the device names only.
 *
 * <pre>
 * hca_id:	mlx4_0
 * 	transport:			InfiniBand (0)
 * 	fw_ver:				2.42.5000
 * 	...
 * 		port:	1
 * 			state:			PORT_ACTIVE (4)
 * 			max_mtu:		4096 (5)
 * </pre>
 *
 * An unknown device is {@code ENODEV}; bad options are {@code EINVAL}. Each device is held with
 * {@link IbCore#getByName} while it is printed and put afterwards; the text comes from
 * {@link Devinfo}.
 */
@Component(service = DevinfoCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ibv_devinfo"})
public class DevinfoCommand {
    static final String USAGE = "ibv_devinfo [-d|--ib-dev DEV] [-i|--ib-port PORT] [-l|--list] [-v|--verbose]";

    private final IbCore core;

    /** A command reading devices from {@code core}. */
    @Activate
    public DevinfoCommand(@Reference IbCore core) {
        this.core = core;
    }

    /** {@code ibv_devinfo [options]}, printed to the session's output. */
    @Descriptor("query RDMA devices and ports (ibv_devinfo)")
    public void ibv_devinfo(@Descriptor(USAGE) String... args) {
        show(System.out, args);
    }

    void show(PrintStream out, String... args) {
        Options o = new Options(USAGE).option('d', "ib-dev", true).option('i', "ib-port", true)
                .option('l', "list", false).option('v', "verbose", false).parse(args);
        if (!o.operands().isEmpty()) {
            throw o.error("unexpected argument '" + o.operands().get(0) + "'");
        }
        int port = (int) o.number("ib-port", 0, 1, 255);
        boolean verbose = o.has("verbose");
        if (o.has("list")) {
            List<IbDevice> all = core.devices();
            out.println(all.size() + " HCA" + (all.size() != 1 ? "s" : "") + " found:");
            all.forEach(d -> out.println("\t" + d.name()));
            out.println();
            return;
        }
        String name = o.get("ib-dev", null);
        if (name != null) {
            print(out, name, port, verbose);
            return;
        }
        List<IbDevice> all = core.devices();
        if (all.isEmpty()) {
            throw new RdmaException(Errno.ENODEV, "No IB devices found");
        }
        for (IbDevice d : all) {
            try {
                print(out, d.name(), port, verbose);
            } catch (RdmaException e) {
                if (e.errno() != Errno.ENODEV) {
                    throw e;
                }
                // unregistered since the listing: it is simply gone
            }
        }
    }

    private void print(PrintStream out, String name, int port, boolean verbose) {
        IbDevice dev = core.getByName(name, null);
        if (dev == null) {
            throw new RdmaException(Errno.ENODEV, "IB device '" + name + "' wasn't found");
        }
        try {
            Devinfo.lines(dev, port, verbose).forEach(out::println);
        } finally {
            dev.put();
        }
    }
}
