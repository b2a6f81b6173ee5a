package org.rdma.fabric.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.Topology;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * One simulated fabric per factory configuration of PID {@value #PID}: builds it from the
 * configured topology (a file in the ibnetdiscover/ibsim format, or the same text inline) and
 * registers it as a {@link Fabric} service with {@value Fabric#FABRIC_NAME} and the node and
 * link counts. Deleting the configuration or stopping the bundle unregisters and closes it.
 *
 * <p>The service is registered by the component itself rather than declared, so that
 * {@value Fabric#FABRIC_NAME} is always present (defaulting to the configuration's name) whatever
 * the configuration carries.
 */
@Component(configurationPid = FabricComponent.PID, configurationPolicy = ConfigurationPolicy.REQUIRE, service = {})
@Designate(ocd = FabricComponent.Config.class, factory = true)
public final class FabricComponent {
    /** The factory PID. */
    public static final String PID = "org.rdma.fabric";

    /** Configuration of one fabric. */
    @ObjectClassDefinition(name = "RDMA simulated fabric",
            description = "A simulated InfiniBand subnet and Ethernet segments, from an ibnetdiscover-format topology.")
    public @interface Config {
        /** @return the fabric's name, published as fabric.name */
        @AttributeDefinition(name = "Name", description = "The fabric's name (service property fabric.name); "
                + "HCA drivers name it in their configuration.")
        String fabric_name() default "fabric0";

        /** @return path of a topology file */
        @AttributeDefinition(name = "Topology file", required = false,
                description = "Path of a topology file in the ibnetdiscover / ibsim format.")
        String topology_file() default "";

        /** @return inline topology text */
        @AttributeDefinition(name = "Topology", required = false,
                description = "The topology text itself, used when no file is given (newlines as \\n).")
        String topology() default "";

        /** @return the seed of the fault generators */
        @AttributeDefinition(name = "Seed", description = "Seed of the link fault generators.")
        long seed() default 1;
    }

    private final FabricImpl fabric;
    private final ServiceRegistration<Fabric> registration;

    /**
     * Builds and registers the fabric.
     *
     * @param context the bundle context
     * @param clock   the platform clock
     * @param config  the configuration
     * @param props   the configuration properties (for the PID)
     * @throws IOException if the topology file cannot be read
     */
    @Activate
    public FabricComponent(BundleContext context, @Reference IbClock clock, Config config, Map<String, Object> props)
            throws IOException {
        Topology topology;
        if (!config.topology_file().isBlank()) {
            topology = Topology.parse(Path.of(config.topology_file()));
        } else if (!config.topology().isBlank()) {
            topology = Topology.parse(config.topology().replace("\\n", "\n"));
        } else {
            topology = Topology.builder().build();
        }
        String name = config.fabric_name();
        if (name == null || name.isBlank()) {
            throw new RdmaException(Errno.EINVAL, "fabric.name must not be empty");
        }
        this.fabric = new FabricImpl(name, topology, clock, config.seed());
        Hashtable<String, Object> sp = new Hashtable<>();
        sp.put(Fabric.FABRIC_NAME, name);
        sp.put("fabric.nodes", fabric.nodes().size());
        sp.put("fabric.links", fabric.links().size());
        Object pid = props.get(Constants.SERVICE_PID);
        if (pid != null) {
            sp.put("fabric.config.pid", pid);
        }
        this.registration = context.registerService(Fabric.class, fabric, sp);
    }

    @Deactivate
    void deactivate() {
        try {
            registration.unregister();
        } catch (IllegalStateException alreadyGone) {
            // the bundle is stopping
        }
        fabric.close();
    }
}
