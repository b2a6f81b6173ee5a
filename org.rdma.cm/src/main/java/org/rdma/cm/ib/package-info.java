/**
 * The IB communication manager API (include/rdma/ib_cm.h): communication identifiers, listens
 * by service ID and mask, the chapter 12 connection messages (REQ, MRA, REJ, REP, RTU, DREQ,
 * DREP, LAP, APR) and service ID resolution (SIDR_REQ, SIDR_REP), the events reported to a
 * {@link org.rdma.cm.ib.IbCmHandler}, and {@code ib_cm_init_qp_attr()}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.cm.ib;
