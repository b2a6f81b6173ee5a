/**
 * iSCSI text negotiation (RFC 7143 chapters 6 and 13, Linux's iscsi_target_parameters.c): the
 * key=value data segment of Login and Text PDUs with its continuation across PDUs, the key table
 * with each key's result function and range, the acceptor's negotiation producing the session's
 * {@link org.rdma.iscsi.text.OperationalParameters}, and CHAP with MD5 (RFC 1994, RFC 7143 12.1.3).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.iscsi.text;
