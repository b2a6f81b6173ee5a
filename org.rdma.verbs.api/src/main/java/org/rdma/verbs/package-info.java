/**
 * The consumer verbs API: the Java form of {@code include/rdma/ib_verbs.h} as kernel
 * upper-layer protocols see it. Devices ({@link org.rdma.verbs.IbDevice}), clients
 * ({@link org.rdma.verbs.IbClient}), and the verbs objects PD, AH, CQ, QP, SRQ, WQ, MR and MW.
 *
 * <p>Structures are plain mutable objects with public fields, like OSGi DTOs and like the
 * kernel structs they mirror, so the datapath can reuse them without allocating.
 * Control-path failures throw {@link org.rdma.verbs.RdmaException} carrying the errno;
 * datapath calls return 0 or a negative errno as the kernel does.
 *
 * <p>1.1: signature (T10-PI) MRs ({@link org.rdma.verbs.SigAttrs}, {@link org.rdma.verbs.MrStatus},
 * {@link org.rdma.verbs.IbMr#checkMrStatus}), the QP's MR pools ({@link org.rdma.verbs.IbMrPool})
 * and what {@code rdma_rw} reads from a QP and device.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.3.0")
package org.rdma.verbs;
