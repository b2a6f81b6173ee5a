package org.rdma.target.fabric;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A target portal group (LIO's {@code struct se_portal_group}): one SCSI target port of a target,
 * with its LUNs, node ACLs and attributes.
 *
 * <p>Every configured TPG is also an OSGi service of this type with the properties below, so a
 * fabric engine follows its TPGs as a whiteboard (LIO's {@code fabric_make_tpg},
 * {@code fabric_drop_tpg}, the {@code enable} attribute and {@code fabric_make_np}): a DS
 * reference with {@code target="(target.fabric=iscsi)"}, cardinality MULTIPLE and policy DYNAMIC
 * binds a TPG when it is created, is called with the new properties when it is enabled, disabled
 * or its portals change, and unbinds it when it is deleted (then its sessions are closed by the
 * core: the engine logs them out first).
 */
@ProviderType
public interface FabricTpg {
    /** Service property: the fabric's name (String), as {@link FabricModule#FABRIC}. */
    String FABRIC = FabricModule.FABRIC;
    /** Service property: the target's name (String), an IQN for iSCSI. */
    String WWN = "target.wwn";
    /** Service property: the target portal group tag (Integer). */
    String TAG = "target.tpgt";
    /** Service property: whether the TPG takes logins (Boolean). */
    String ENABLED = "target.tpg.enabled";
    /** Service property: the network portals as {@link NetworkPortal#toString()} (String[]). */
    String PORTALS = "target.portals";

    /** The fabric the TPG belongs to, e.g. {@code "iscsi"}. */
    String fabric();

    /** The target's name (an IQN for iSCSI). */
    String targetName();

    /** The target portal group tag. */
    int tag();

    /** Whether the TPG takes logins (LIO's {@code enable}). */
    boolean enabled();

    /**
     * Opens an I_T nexus for an initiator after the fabric's login (LIO's
     * {@code target_setup_session()}): its LUNs are its node ACL's mapped LUNs, or with
     * {@code generate_node_acls} every LUN of the TPG (read-only with
     * {@code demo_mode_write_protect}). Each LUN starts with a POWER ON, RESET, OR BUS DEVICE
     * RESET OCCURRED unit attention.
     *
     * @throws TargetException {@code ENODEV} when the TPG is disabled, {@code EACCES} when the
     *         initiator has no ACL and node ACLs are not generated
     */
    FabricSession openSession(String initiatorName, String initiatorPortName, FabricOps ops);

    /** Where the fabric listens for this TPG (LIO's {@code tpg_np} list); empty without portals. */
    List<NetworkPortal> portals();

    /**
     * A TPG attribute by LIO's name (the {@code attrib/} files of an iSCSI TPG:
     * {@code authentication}, {@code login_timeout}, {@code netif_timeout},
     * {@code default_cmdsn_depth}, {@code default_erl}, {@code demo_mode_discovery},
     * {@code tpg_enabled_sendtargets}, {@code generate_node_acls}, ...), as configured or LIO's
     * default.
     *
     * @throws TargetException {@code ENOENT} for a name that is not a TPG attribute
     */
    int attribute(String name);

    /**
     * The CHAP secrets an initiator logs in with (LIO's {@code iscsi_node_auth} lookup): its node
     * ACL's, or with {@code generate_node_acls} and no ACL the TPG's own ({@code set auth} on the
     * TPG). Whether CHAP is required is the {@code authentication} attribute.
     *
     * @return empty when the initiator has neither
     */
    Optional<ChapCredentials> chapCredentials(String initiatorName);
}
