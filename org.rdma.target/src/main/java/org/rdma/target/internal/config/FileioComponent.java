package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** A file as a SCSI device (targetcli /backstores/fileio; LIO's target_core_file). */
@Component(configurationPid = Pids.FILEIO, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = FileioComponent.Config.class, factory = true)
public final class FileioComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target fileio backstore", description = "A file as a SCSI device (targetcli /backstores/fileio; LIO's target_core_file).")
    public @interface Config {
        @AttributeDefinition(name = "Name", description = "The storage object's name, unique among fileio")
        String name();

        @AttributeDefinition(name = "File", description = "The backing file; created sparse at the size when missing")
        String file();

        @AttributeDefinition(name = "Size", description = "Bytes")
        long size();

        @AttributeDefinition(name = "Block size", description = "Logical block size", options = {
                @org.osgi.service.metatype.annotations.Option(label = "512", value = "512"),
                @org.osgi.service.metatype.annotations.Option(label = "4096", value = "4096")})
        int block_size() default 512;

        @AttributeDefinition(name = "Write cache", description = "Write back (WCE); off: every write is forced before its status")
        boolean write_back() default true;

        @AttributeDefinition(name = "Read-only", description = "Writes answer DATA PROTECT, WRITE PROTECTED")
        boolean readonly() default false;

        @AttributeDefinition(name = "Thin provisioning", description = "UNMAP deallocates (LIO emulate_tpu); an allocation map beside the file")
        boolean thin_provisioning() default false;

        @AttributeDefinition(name = "Unit serial", required = false, description = "VPD 0x80 serial and NAA 6 source; empty: derived from the name")
        String wwn() default "";
    }

    @Activate
    public FileioComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.FILEIO, properties);
    }
}
