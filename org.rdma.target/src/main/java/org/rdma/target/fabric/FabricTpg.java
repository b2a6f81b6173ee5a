package org.rdma.target.fabric;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A target portal group (LIO's {@code struct se_portal_group}): one SCSI target port of a target,
 * with its LUNs, node ACLs and attributes.
 */
@ProviderType
public interface FabricTpg {
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
}
