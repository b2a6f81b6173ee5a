/**
 * The consumer verbs API: the Java form of {@code include/rdma/ib_verbs.h} as kernel
 * upper-layer protocols see it. Devices ({@link org.rdma.verbs.IbDevice}), clients
 * ({@link org.rdma.verbs.IbClient}), and the verbs objects PD, AH, CQ, QP, SRQ, WQ, MR and MW.
 *
 * <p>Structures are plain mutable objects with public fields, like OSGi DTOs and like the
 * kernel structs they mirror, so the datapath can reuse them without allocating.
 * Control-path failures throw {@link org.rdma.verbs.RdmaException} carrying the errno;
 * datapath calls return 0 or a negative errno as the kernel does.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.verbs;
