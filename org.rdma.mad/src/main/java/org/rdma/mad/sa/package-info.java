/**
 * The SA client (drivers/infiniband/core/sa_query.c, multicast.c; include/rdma/ib_sa.h): path,
 * service, GUIDInfo and MCMember record queries, GetTable, multicast joins with per-port
 * aggregation, and the SA attribute codecs built on {@code IbPack} field tables.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.rdma.mad.sa;
