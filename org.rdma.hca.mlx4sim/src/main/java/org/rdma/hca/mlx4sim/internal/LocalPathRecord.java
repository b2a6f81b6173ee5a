package org.rdma.hca.mlx4sim.internal;

import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.GidEntry;

/**
 * The path record a RoCE port synthesises locally instead of asking an SA (RDMAoE: "a SA_Query API
 * that locally returns path records with the corresponding GIDs"; today's
 * {@code cma_resolve_iboe_route()} / {@code ib_init_ah_attr_from_path()} for RoCE): SGID and DGID,
 * hop limit 64 for routable (non link-local) destinations, SL 0, the port's active MTU, the
 * resolved destination MAC, as an address vector ready for create-AH or modify-QP.
 */
final class LocalPathRecord {
    private LocalPathRecord() {
    }

    /** Builds the address vector from {@code sgidIndex} to {@code dgid} on a RoCE port. */
    static AhAttr build(Mlx4Port port, int sgidIndex, Gid dgid) {
        if (port.isIb()) {
            throw new RdmaException(Errno.EINVAL, "local path records are for RoCE ports; ask the SA on " + port);
        }
        GidEntry s = port.roce.entry(sgidIndex);
        if (s == null) {
            throw new RdmaException(Errno.EINVAL, "no GID at index " + sgidIndex);
        }
        AhAttr a = new AhAttr();
        a.type = AhAttrType.ROCE;
        a.portNum = port.num;
        a.sl = 0;
        int hop = dgid.isLinkLocal() ? 1 : 64;
        a.setGrh(dgid, 0, sgidIndex, hop, 0, null);
        port.roce.resolve(a);
        return a;
    }
}
