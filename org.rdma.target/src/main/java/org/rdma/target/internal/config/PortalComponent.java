package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Where a fabric listens for a TPG (targetcli /iscsi/IQN/tpgN/portals/ADDR:PORT). */
@Component(configurationPid = Pids.PORTAL, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = PortalComponent.Config.class, factory = true)
public final class PortalComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target network portal", description = "Where a fabric listens for a TPG (targetcli /iscsi/IQN/tpgN/portals/ADDR:PORT).")
    public @interface Config {
        @AttributeDefinition(name = "Fabric", description = "The fabric module: iscsi")
        String fabric() default "iscsi";

        @AttributeDefinition(name = "Target WWN", description = "The target's name, e.g. iqn.2003-01.org.example:disk")
        String wwn();

        @AttributeDefinition(name = "TPG tag", description = "The target portal group tag, 0..65535")
        int tag() default 1;

        @AttributeDefinition(name = "IP address", description = "IPv4 or IPv6 literal; 0.0.0.0 or :: for every address")
        String ip_address() default "0.0.0.0";

        @AttributeDefinition(name = "Port", description = "TCP port")
        int port() default 3260;

        @AttributeDefinition(name = "iSER", description = "Served by iSER instead of TCP")
        boolean iser() default false;
    }

    @Activate
    public PortalComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.PORTAL, properties);
    }
}
