/**
 * The RDMA connection manager API (include/rdma/rdma_cm.h and librdmacm's rdma_cma.h): ids
 * addressed by IP ({@link java.net.InetSocketAddress}) or InfiniBand ({@link IbSocketAddress})
 * socket addresses, address and route resolution, connection set-up over the IB CM with the IP CM
 * private-data header, UD ids through SIDR, multicast, the kernel's event set, and event channels
 * for consumers that poll instead of taking callbacks.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.cm.rdma;
