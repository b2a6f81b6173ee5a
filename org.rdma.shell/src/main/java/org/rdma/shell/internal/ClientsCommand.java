package org.rdma.shell.internal;

import java.io.PrintStream;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.RuntimeDTO;

/**
 * {@code rdma:clients}: the registered {@code ib_client}s in registration order with the devices
 * each was added to, then every provider or client service the core could not use, with the
 * reason. Linux has no iproute2 command for the client list (the kernel keeps it in the
 * {@code clients} xarray of {@code drivers/infiniband/core/device.c}); this command mirrors the
 * iproute2 {@code rdma dev show} view of that list, and shows failures the way the OSGi
 * whiteboards' runtime DTOs do, so nothing is dropped silently.
 *
 * <pre>
 * ID  NAME  SERVICE.ID  DEVICES
 * 0   umad  41          mlx4_0,mlx4_1
 * failed providers and clients: none
 * </pre>
 */
@Component(service = ClientsCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=clients"})
public class ClientsCommand {
    private final IbRuntime runtime;

    /** A command reading {@code runtime}. */
    @Activate
    public ClientsCommand(@Reference IbRuntime runtime) {
        this.runtime = runtime;
    }

    /** {@code rdma:clients}, printed to the session's output. */
    @Descriptor("list the registered ib_clients with their devices, and every provider or client the core refused")
    public void clients() {
        show(System.out);
    }

    void show(PrintStream out) {
        RuntimeDTO dto = runtime.getRuntimeDTO();
        RdmaFormat.clientTable(dto.clients).forEach(out::println);
        var failed = RdmaFormat.failedTable(dto.failedProviders, dto.failedClients);
        if (failed.isEmpty()) {
            out.println("failed providers and clients: none");
        } else {
            failed.forEach(out::println);
        }
    }
}
