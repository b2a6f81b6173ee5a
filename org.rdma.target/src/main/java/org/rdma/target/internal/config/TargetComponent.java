package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** A target of a fabric by its WWN (targetcli /iscsi/IQN). */
@Component(configurationPid = Pids.TARGET, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = TargetComponent.Config.class, factory = true)
public final class TargetComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target", description = "A target of a fabric by its WWN (targetcli /iscsi/IQN).")
    public @interface Config {
        @AttributeDefinition(name = "Fabric", description = "The fabric module: iscsi")
        String fabric() default "iscsi";

        @AttributeDefinition(name = "WWN", description = "The target's name, e.g. iqn.2003-01.org.example:disk")
        String wwn();
    }

    @Activate
    public TargetComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.TARGET, properties);
    }
}
