package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** A storage object exported by a TPG (targetcli /iscsi/IQN/tpgN/luns/lunN). */
@Component(configurationPid = Pids.LUN, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = LunComponent.Config.class, factory = true)
public final class LunComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target LUN", description = "A storage object exported by a TPG (targetcli /iscsi/IQN/tpgN/luns/lunN).")
    public @interface Config {
        @AttributeDefinition(name = "Fabric", description = "The fabric module: iscsi")
        String fabric() default "iscsi";

        @AttributeDefinition(name = "Target WWN", description = "The target's name, e.g. iqn.2003-01.org.example:disk")
        String wwn();

        @AttributeDefinition(name = "TPG tag", description = "The target portal group tag, 0..65535")
        int tag() default 1;

        @AttributeDefinition(name = "LUN", description = "The LUN number, 0..16383")
        int index();

        @AttributeDefinition(name = "Storage object", description = "/backstores/fileio/NAME or /backstores/ramdisk/NAME")
        String storage_object();
    }

    @Activate
    public LunComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.LUN, properties);
    }
}
