/**
 * The iSCSI PDU codec (RFC 7143 chapter 11; Linux include/scsi/iscsi_proto.h): the opcode table,
 * the 48-byte basic header segment as a flyweight over a {@link java.nio.ByteBuffer}, additional
 * header segments, CRC32C digests and padding, an incremental {@link org.rdma.iscsi.pdu.PduReader}
 * for stream transports and a {@link org.rdma.iscsi.pdu.PduWriter} that encodes into a caller's
 * buffer without allocating. iSER reuses the header codec with its own framing.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.iscsi.pdu;
