package org.rdma.cm.internal.ib;

import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;

/**
 * Where a connection's messages and data go on one path: {@code struct cm_av}. The address
 * vector doubles as the QP's primary or alternate path in {@code ib_cm_init_qp_attr()}.
 */
final class CmAv {
    /** {@code av->port}: the CM port, {@code null} until a path is known. */
    CmPort port;
    /** {@code av->ah_attr}. */
    final AhAttr ahAttr = new AhAttr();
    /** {@code av->pkey_index}. */
    int pkeyIndex;
    /** {@code av->timeout}: the local ACK timeout exponent of the path. */
    int timeout;
    /** {@code av->dgid}: for SIDR, the requester's address (key of the duplicate table). */
    Gid dgid = Gid.ZERO;

    boolean isSet() {
        return port != null;
    }

    /** {@code rdma_ah_get_dlid()} non-zero or a GRH: the vector addresses someone. */
    boolean hasPath() {
        return port != null && (ahAttr.dlid != 0 || ahAttr.hasGrh());
    }

    void copyFrom(CmAv o) {
        port = o.port;
        AhAttr.replace(ahAttr, o.ahAttr);
        pkeyIndex = o.pkeyIndex;
        timeout = o.timeout;
        dgid = o.dgid;
    }

    void clear() {
        AhAttr.destroy(ahAttr);
        port = null;
    }
}
