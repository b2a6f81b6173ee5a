package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * A target portal group with its attributes and demo-mode CHAP secrets (targetcli
 * /iscsi/IQN/tpgN; LIO's tpgt_N with attrib/ and auth/). The attribute keys are LIO's names
 * with dots ({@code generate.node.acls}); their defaults are LIO's ({@link TpgAttributes}).
 */
@Component(configurationPid = Pids.TPG, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = TpgComponent.Config.class, factory = true)
public final class TpgComponent extends SpecComponent {
    /** The keys; {@link SpecProperties} reads them. */
    @ObjectClassDefinition(name = "SCSI target portal group",
            description = "A target portal group of a target (targetcli /iscsi/IQN/tpgN).")
    public @interface Config {
        @AttributeDefinition(name = "Fabric", description = "The fabric module: iscsi")
        String fabric() default "iscsi";

        @AttributeDefinition(name = "Target WWN", description = "The target's name, e.g. iqn.2003-01.org.example:disk")
        String wwn();

        @AttributeDefinition(name = "TPG tag", description = "The target portal group tag, 0..65535")
        int tag() default 1;

        @AttributeDefinition(name = "Enabled", description = "The TPG takes logins")
        boolean enable() default true;

        @AttributeDefinition(name = "Authentication", description = "1: the login must pass CHAP (LIO attribute authentication)")
        int authentication() default 1;

        @AttributeDefinition(name = "Cache dynamic ACLs", description = "1: keep generated ACLs after logout (demo mode) (LIO attribute cache_dynamic_acls)")
        int cache_dynamic_acls() default 0;

        @AttributeDefinition(name = "Default CmdSN depth", description = "The command window of a session without an ACL, 1..512 (LIO attribute default_cmdsn_depth)")
        int default_cmdsn_depth() default 64;

        @AttributeDefinition(name = "Default ErrorRecoveryLevel", description = "0..2 (LIO attribute default_erl)")
        int default_erl() default 0;

        @AttributeDefinition(name = "Demo mode discovery", description = "1: SendTargets answers initiators without an ACL (LIO attribute demo_mode_discovery)")
        int demo_mode_discovery() default 1;

        @AttributeDefinition(name = "Demo mode write protect", description = "1: LUNs of generated ACLs are read-only (LIO attribute demo_mode_write_protect)")
        int demo_mode_write_protect() default 1;

        @AttributeDefinition(name = "Fabric protection type", description = "T10-PI type the fabric offers: 0, 1 or 3 (LIO attribute fabric_prot_type)")
        int fabric_prot_type() default 0;

        @AttributeDefinition(name = "Generate node ACLs", description = "1: every initiator sees every LUN (demo mode) (LIO attribute generate_node_acls)")
        int generate_node_acls() default 0;

        @AttributeDefinition(name = "Login keys workaround", description = "1: tolerate initiators that omit keys (LIO attribute login_keys_workaround)")
        int login_keys_workaround() default 1;

        @AttributeDefinition(name = "Login timeout", description = "Seconds, 5..30 (LIO attribute login_timeout)")
        int login_timeout() default 15;

        @AttributeDefinition(name = "Network interface timeout", description = "Seconds, 2..15 (LIO attribute netif_timeout)")
        int netif_timeout() default 2;

        @AttributeDefinition(name = "Production mode write protect", description = "1: LUNs of explicit ACLs are read-only (LIO attribute prod_mode_write_protect)")
        int prod_mode_write_protect() default 0;

        @AttributeDefinition(name = "T10-PI", description = "1: the TPG passes protection information (LIO attribute t10_pi)")
        int t10_pi() default 0;

        @AttributeDefinition(name = "SendTargets of enabled TPGs only", description = "1: SendTargets lists only enabled TPGs (LIO attribute tpg_enabled_sendtargets)")
        int tpg_enabled_sendtargets() default 1;

        @AttributeDefinition(name = "CHAP userid", required = false, description = "CHAP_N of demo-mode logins")
        String chap_userid() default "";

        @AttributeDefinition(name = "CHAP password", required = false, type = AttributeType.PASSWORD,
                description = "The secret demo-mode initiators prove")
        String chap_password() default "";

        @AttributeDefinition(name = "Mutual CHAP userid", required = false, description = "CHAP_N the target sends back")
        String chap_mutual_userid() default "";

        @AttributeDefinition(name = "Mutual CHAP password", required = false, type = AttributeType.PASSWORD,
                description = "The secret the target proves")
        String chap_mutual_password() default "";
    }

    @Activate
    public TpgComponent(@Reference ConfigTree tree, Map<String, Object> properties) {
        super(tree, Pids.TPG, properties);
    }
}
