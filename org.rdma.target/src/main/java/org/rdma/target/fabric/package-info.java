/**
 * The fabric SPI of the SCSI target core (LIO's {@code target_core_fabric_ops}, {@code se_session}
 * and {@code se_cmd}): how a transport (iSCSI over TCP now, iSER and SRP over RDMA next) hands
 * commands and task management functions of an I_T nexus to the core and is called back to move
 * data and deliver status. Nothing here assumes a byte stream: data buffers are allocated by the
 * core per command, so an RDMA fabric can register them and move them with RDMA READ and WRITE.
 *
 * <p>How an engine finds its work: the configuration (targetcli, Config Admin) makes TPGs, and
 * each is an OSGi service of type {@link org.rdma.target.fabric.FabricTpg} with the properties
 * {@code target.fabric}, {@code target.wwn}, {@code target.tpgt}, {@code target.tpg.enabled} and
 * {@code target.portals}. The iSCSI engine binds those of {@code (target.fabric=iscsi)},
 * listens on their {@link org.rdma.target.fabric.FabricTpg#portals() portals}, checks logins
 * with their {@link org.rdma.target.fabric.FabricTpg#attribute attributes} and
 * {@link org.rdma.target.fabric.FabricTpg#chapCredentials CHAP secrets}, and opens sessions on
 * them; SendTargets lists {@link org.rdma.target.fabric.TargetCore#tpgs}. A fabric other than
 * iSCSI also registers a {@link org.rdma.target.fabric.FabricModule} (its WWN rule and protocol
 * identifier); the core describes iSCSI itself.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.target.fabric;
