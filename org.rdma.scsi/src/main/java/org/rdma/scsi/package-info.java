/**
 * The SCSI vocabulary shared by initiators and the target core: status codes (SAM-5 5.3), sense
 * keys and additional sense codes (SPC-4 4.5.6, annex D), fixed and descriptor sense data (SPC-4
 * 4.5), operation codes and CDB builders (SPC-4, SBC-3), LUN encodings (SAM-5 4.6), task
 * attributes (SAM-5 8.6), task management functions (SAM-5 7) and the {@link
 * org.rdma.scsi.BlockDevice} service that an initiator publishes for each logical unit it attaches.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.scsi;
