/**
 * The fabric SPI of the SCSI target core (LIO's {@code target_core_fabric_ops}, {@code se_session}
 * and {@code se_cmd}): how a transport (iSCSI over TCP now, iSER and SRP over RDMA next) hands
 * commands and task management functions of an I_T nexus to the core and is called back to move
 * data and deliver status. Nothing here assumes a byte stream: data buffers are allocated by the
 * core per command, so an RDMA fabric can register them and move them with RDMA READ and WRITE.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.target.fabric;
