package org.rdma.cm.internal.ib;

import org.rdma.verbs.time.IbClock;

/**
 * What the CM remembers of a connection's peer: {@code struct cm_timewait_info}. While the
 * connection is being set up or is established its entries in the remote ID table (duplicate
 * detection) and the remote QPN table (stale connection detection) are live; in timewait it
 * only carries the timer that ends the wait.
 */
final class CmTimewait {
    /** {@code work.local_id}. */
    final int localId;
    /** {@code work.remote_id}. */
    int remoteId;
    /** {@code remote_ca_guid}. */
    long remoteCaGuid;
    /** {@code remote_qpn}. */
    int remoteQpn;
    /** {@code inserted_remote_id}. */
    boolean insertedRemoteId;
    /** {@code inserted_remote_qp}. */
    boolean insertedRemoteQp;
    /** The pending timewait timer, once in timewait. */
    IbClock.Timer timer;

    CmTimewait(int localId) {
        this.localId = localId;
    }

    /** A key of the remote ID and remote QPN tables: {@code (remote CA GUID, 32-bit value)}. */
    record Key(long caGuid, int value) {
    }

    Key remoteIdKey() {
        return new Key(remoteCaGuid, remoteId);
    }

    Key remoteQpKey() {
        return new Key(remoteCaGuid, remoteQpn);
    }
}
