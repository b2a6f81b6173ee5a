package org.rdma.verbs.spi;

import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;

/** One GID table slot as a driver reports it ({@code ops.query_gid} plus RoCE's type and netdev). */
public final class GidEntry {
    /** The GID. */
    public final Gid gid;
    /** Its type. */
    public final GidType type;
    /** The network interface it belongs to, or {@code null} on IB ports. */
    public final String netdev;

    /** A slot. */
    public GidEntry(Gid gid, GidType type, String netdev) {
        this.gid = gid;
        this.type = type;
        this.netdev = netdev;
    }
}
