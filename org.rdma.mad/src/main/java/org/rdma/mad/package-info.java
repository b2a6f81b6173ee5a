/**
 * The MAD layer (drivers/infiniband/core/mad.c, agent.c, smi.c, mad_rmpp.c, user_mad.c):
 * management agents on the SMI (QP0) and GSI (QP1) of every port, with transaction matching,
 * response timeouts and retries, RMPP segmentation and reassembly, and a user-MAD interface for
 * tools.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.rdma.mad;
