package org.rdma.cm.internal.ib;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;

/**
 * The CM's global tables ({@code struct ib_cm} under {@code cm.lock}): local communication IDs,
 * listens by device and service ID, the remote ID and remote QPN tables of connections being set
 * up or established, and the SIDR requests being served. The monitor of this object is
 * {@code cm.lock}: taken after an id's lock, never before, and never held while calling out.
 */
final class CmTables {
    /** A SIDR request's identity: the requester's address and its request ID. */
    record SidrKey(Gid requester, int requestId) {
    }

    /** Local IDs are a cyclic counter XOR a random operand, as the kernel hides its allocation order. */
    private final int randomOperand = new SecureRandom().nextInt();
    private int nextLocal;
    private final Map<Integer, CmIdImpl> localIds = new HashMap<>();
    private final Map<IbDevice, List<CmIdImpl>> listens = new HashMap<>();
    private long listenServiceId = IbCm.ASSIGN_SERVICE_ID;
    private final Map<CmTimewait.Key, CmTimewait> remoteIds = new HashMap<>();
    private final Map<CmTimewait.Key, CmTimewait> remoteQps = new HashMap<>();
    private final Map<SidrKey, CmIdImpl> remoteSidr = new HashMap<>();

    // ------------------------------------------------------------------ local IDs

    /** {@code cm_alloc_id_priv()}: a new id with a fresh local ID, visible to lookups at once. */
    synchronized CmIdImpl create(IbDevice device, IbCmHandler handler, Object context) {
        int id;
        do {
            id = nextLocal++ ^ randomOperand;
        } while (id == 0 || localIds.containsKey(id));
        CmIdImpl c = new CmIdImpl(device, id, handler, context);
        localIds.put(id, c);
        return c;
    }

    /** {@code cm_acquire_id()}: the id with this local ID whose remote ID is {@code remoteId}. */
    synchronized CmIdImpl acquire(int localId, int remoteId) {
        CmIdImpl c = localIds.get(localId);
        return c != null && c.remoteIdRaw() == remoteId ? c : null;
    }

    /** {@code cm_free_id()}: the local ID may be reused. */
    synchronized void freeLocalId(CmIdImpl c) {
        localIds.remove(c.localId, c);
    }

    /** Every id holding a local ID (live ones and destroyed ones waiting out timewait). */
    synchronized List<CmIdImpl> ids() {
        return new ArrayList<>(localIds.values());
    }

    /** {@link #ids()} oldest first: the order of the counter under their IDs, the same in every run. */
    synchronized List<CmIdImpl> idsOldestFirst() {
        List<CmIdImpl> l = new ArrayList<>(localIds.values());
        l.sort(java.util.Comparator.comparingInt(c -> c.localId ^ randomOperand));
        return l;
    }

    synchronized int size() {
        return localIds.size();
    }

    // ------------------------------------------------------------------ listens

    /** A locally administered service ID for {@link IbCm#ASSIGN_SERVICE_ID}. */
    synchronized long assignServiceId() {
        return listenServiceId++;
    }

    /**
     * {@code cm_insert_listen()}: {@code c} if it was inserted; the existing listen if it
     * overlaps and {@code sharedHandler} is its handler (its share count grows); else {@code null}.
     */
    synchronized CmIdImpl insertListen(CmIdImpl c, IbCmHandler sharedHandler) {
        List<CmIdImpl> l = listens.computeIfAbsent(c.device, d -> new ArrayList<>());
        for (CmIdImpl cur : l) {
            if ((cur.serviceMaskRaw() & c.serviceIdRaw()) == (c.serviceMaskRaw() & cur.serviceIdRaw())) {
                if (sharedHandler == null || cur.handler != sharedHandler || cur.context != null) {
                    return null;
                }
                cur.listenShareCount++;
                return cur;
            }
        }
        c.listenShareCount++;
        l.add(c);
        return c;
    }

    /** {@code cm_find_listen()}. */
    synchronized CmIdImpl findListen(IbDevice device, long serviceId) {
        List<CmIdImpl> l = listens.get(device);
        if (l != null) {
            for (CmIdImpl c : l) {
                if ((c.serviceMaskRaw() & serviceId) == c.serviceIdRaw()) {
                    return c;
                }
            }
        }
        return null;
    }

    /** Drops one holder of a listen; true when it was the last and the listen is gone. */
    synchronized boolean releaseListen(CmIdImpl c) {
        if (--c.listenShareCount > 0) {
            return false;
        }
        List<CmIdImpl> l = listens.get(c.device);
        if (l != null) {
            l.remove(c);
            if (l.isEmpty()) {
                listens.remove(c.device);
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ remote IDs and QPNs

    /** {@code cm_insert_remote_id()}: null if inserted, else the entry already there (a duplicate). */
    synchronized CmTimewait insertRemoteId(CmTimewait tw) {
        CmTimewait cur = remoteIds.putIfAbsent(tw.remoteIdKey(), tw);
        if (cur != null) {
            return cur;
        }
        tw.insertedRemoteId = true;
        return null;
    }

    /** {@code cm_insert_remote_qpn()}: null if inserted, else the connection already using the peer's QP (stale). */
    synchronized CmTimewait insertRemoteQpn(CmTimewait tw) {
        CmTimewait cur = remoteQps.putIfAbsent(tw.remoteQpKey(), tw);
        if (cur != null) {
            return cur;
        }
        tw.insertedRemoteQp = true;
        return null;
    }

    /** {@code cm_find_remote_id()}. */
    synchronized CmTimewait findRemoteId(long caGuid, int remoteId) {
        return remoteIds.get(new CmTimewait.Key(caGuid, remoteId));
    }

    /** Takes only the remote ID entry out (a REP found a stale connection after inserting it). */
    synchronized void removeRemoteId(CmTimewait tw) {
        if (tw.insertedRemoteId) {
            remoteIds.remove(tw.remoteIdKey(), tw);
            tw.insertedRemoteId = false;
        }
    }

    /** {@code cm_cleanup_timewait()}: takes the entry out of both tables. */
    synchronized void cleanupTimewait(CmTimewait tw) {
        removeRemoteId(tw);
        if (tw.insertedRemoteQp) {
            remoteQps.remove(tw.remoteQpKey(), tw);
            tw.insertedRemoteQp = false;
        }
    }

    // ------------------------------------------------------------------ SIDR

    /** {@code cm_insert_remote_sidr()}: null if inserted, else the id already serving this request. */
    synchronized CmIdImpl insertRemoteSidr(CmIdImpl c, SidrKey key) {
        CmIdImpl cur = remoteSidr.putIfAbsent(key, c);
        if (cur != null) {
            return cur;
        }
        c.sidrKey = key;
        return null;
    }

    synchronized void removeRemoteSidr(CmIdImpl c) {
        if (c.sidrKey != null) {
            remoteSidr.remove(c.sidrKey, c);
            c.sidrKey = null;
        }
    }

    /** Entries in the remote tables, for leak checks. */
    synchronized int remoteEntries() {
        return remoteIds.size() + remoteQps.size() + remoteSidr.size();
    }
}
