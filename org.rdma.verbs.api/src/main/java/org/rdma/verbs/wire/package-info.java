/**
 * IBTA wire codecs: the {@code ib_pack}/{@code ib_unpack} field-table codec, the UD header
 * ({@code ib_ud_header_init}/{@code ib_ud_header_pack}/{@code ib_ud_header_unpack}), and the
 * ICRC/VCRC engines.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.verbs.wire;
