package org.rdma.cm.rdma;

import java.net.SocketAddress;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Gid;

/**
 * A snapshot of {@code struct rdma_route} with its {@code struct rdma_addr}: the addresses, the
 * GIDs and P_Key of {@code dev_addr}, and the resolved path records (primary first).
 */
public final class RdmaRoute {
    /** {@code addr.src_addr}, or {@code null} before a bind. */
    public SocketAddress srcAddr;
    /** {@code addr.dst_addr}, or {@code null}. */
    public SocketAddress dstAddr;
    /** The source GID ({@code rdma_read_gids()}). */
    public Gid sgid = Gid.ZERO;
    /** The destination GID. */
    public Gid dgid = Gid.ZERO;
    /** {@code dev_addr} P_Key. */
    public int pkey = 0xFFFF;
    /** {@code path_rec[0..num_pri_alt_paths)}: empty before route resolution. */
    public PathRecord[] pathRec = new PathRecord[0];

    /** {@code num_pri_alt_paths}. */
    public int numPaths() {
        return pathRec.length;
    }

    @Override
    public String toString() {
        return "RdmaRoute[" + srcAddr + " -> " + dstAddr + " sgid " + sgid + " dgid " + dgid + " paths "
                + pathRec.length + "]";
    }
}
