package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Memory as a SCSI device (targetcli /backstores/ramdisk; LIO's target_core_rd). */
@Component(configurationPid = Pids.RAMDISK, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = RamdiskComponent.Config.class, factory = true)
public final class RamdiskComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target ramdisk backstore", description = "Memory as a SCSI device (targetcli /backstores/ramdisk; LIO's target_core_rd).")
    public @interface Config {
        @AttributeDefinition(name = "Name", description = "The storage object's name, unique among ramdisk")
        String name();

        @AttributeDefinition(name = "Size", description = "Bytes")
        long size();

        @AttributeDefinition(name = "Block size", description = "Logical block size", options = {
                @org.osgi.service.metatype.annotations.Option(label = "512", value = "512"),
                @org.osgi.service.metatype.annotations.Option(label = "4096", value = "4096")})
        int block_size() default 512;

        @AttributeDefinition(name = "Unit serial", required = false, description = "VPD 0x80 serial and NAA 6 source; empty: derived from the name")
        String wwn() default "";
    }

    @Activate
    public RamdiskComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.RAMDISK, properties);
    }
}
