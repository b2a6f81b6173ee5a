package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** An initiator's access to a TPG with its mapped LUNs and CHAP secrets (targetcli /iscsi/IQN/tpgN/acls/INITIATOR). */
@Component(configurationPid = Pids.ACL, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = AclComponent.Config.class, factory = true)
public final class AclComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target node ACL", description = "An initiator's access to a TPG with its mapped LUNs and CHAP secrets (targetcli /iscsi/IQN/tpgN/acls/INITIATOR).")
    public @interface Config {
        @AttributeDefinition(name = "Fabric", description = "The fabric module: iscsi")
        String fabric() default "iscsi";

        @AttributeDefinition(name = "Target WWN", description = "The target's name, e.g. iqn.2003-01.org.example:disk")
        String wwn();

        @AttributeDefinition(name = "TPG tag", description = "The target portal group tag, 0..65535")
        int tag() default 1;

        @AttributeDefinition(name = "Initiator", description = "The initiator's name, e.g. iqn.1994-05.com.example:host")
        String node_wwn();

        @AttributeDefinition(name = "Mapped LUNs", required = false, description = "MAPPED_LUN:TPG_LUN[:ro], e.g. 0:0 or 1:2:ro")
        String[] mapped_luns() default {};

        @AttributeDefinition(name = "CHAP userid", required = false, description = "CHAP_N the initiator sends")
        String chap_userid() default "";

        @AttributeDefinition(name = "CHAP password", required = false, type = org.osgi.service.metatype.annotations.AttributeType.PASSWORD,
                description = "The secret the initiator proves")
        String chap_password() default "";

        @AttributeDefinition(name = "Mutual CHAP userid", required = false, description = "CHAP_N the target sends back; empty: one-way")
        String chap_mutual_userid() default "";

        @AttributeDefinition(name = "Mutual CHAP password", required = false, type = org.osgi.service.metatype.annotations.AttributeType.PASSWORD,
                description = "The secret the target proves; empty: one-way")
        String chap_mutual_password() default "";
    }

    @Activate
    public AclComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.ACL, properties);
    }
}
