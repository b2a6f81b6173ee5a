/**
 * The generic RDMA READ/WRITE API of {@code include/rdma/rw.h} ({@code drivers/infiniband/core/rw.c}):
 * a target-side ULP describes a transfer between its DMA-mapped scatter/gather list and a peer's
 * (remote address, rkey), and the {@link org.rdma.verbs.rw.RdmaRw} service builds the work
 * requests: plain SGE lists split by the QP's SGE limits, or fast-registered MRs from the QP's
 * pools where the device needs or prefers them, or a signature (T10-PI) MR. The context
 * ({@link org.rdma.verbs.rw.RdmaRwCtx}) is the caller's and is reused without allocating.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.verbs.rw;
