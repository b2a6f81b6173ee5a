/** SCSI devices (LIO's {@code se_device}): a backstore with attributes, identity and mode state. */
package org.rdma.target.internal.device;
