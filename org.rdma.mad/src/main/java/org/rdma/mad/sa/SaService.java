package org.rdma.mad.sa;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbDevice;

/**
 * The SA client API: the exported functions of drivers/infiniband/core/sa_query.c and
 * multicast.c. Query calls return a query id (&ge; 0) for {@link #cancelQuery}, or a negative
 * errno; their callback runs exactly once, in the MAD layer's completion context.
 */
@ProviderType
public interface SaService {
    /** {@code ib_sa_register_client()}. */
    void registerClient(SaClient client);

    /** {@code ib_sa_unregister_client()}: waits until the client's queries have called back. */
    void unregisterClient(SaClient client);

    /**
     * {@code ib_sa_path_rec_get()}: SubnAdmGet(PathRecord). On a RoCE port the record is built
     * locally from the port's attributes (no MAD).
     */
    int pathRecGet(SaClient client, IbDevice device, int portNum, PathRecord rec, long compMask, int timeoutMs,
            SaCallback<PathRecord> callback);

    /** {@code ib_sa_service_rec_query()}: Get, Set or Delete of a ServiceRecord (else -EINVAL). */
    int serviceRecQuery(SaClient client, IbDevice device, int portNum, int method, ServiceRecord rec, long compMask,
            int timeoutMs, SaCallback<ServiceRecord> callback);

    /** {@code ib_sa_guid_info_rec_query()}: Get, Set or Delete of a GUIDInfoRecord. */
    int guidInfoRecQuery(SaClient client, IbDevice device, int portNum, GuidInfoRecord rec, long compMask, int method,
            int timeoutMs, SaCallback<GuidInfoRecord> callback);

    /** {@code ib_sa_mcmember_rec_query()}: a raw MCMemberRecord Get/Set/Delete (joins go through {@link #joinMulticast}). */
    int mcmemberRecQuery(SaClient client, IbDevice device, int portNum, int method, McMemberRecord rec, long compMask,
            int timeoutMs, SaCallback<McMemberRecord> callback);

    /**
     * SubnAdmGetTable of {@code attrId} with a template record: the (RMPP-reassembled) response
     * split into records of the size its AttributeOffset gives.
     */
    int getTable(SaClient client, IbDevice device, int portNum, SaRecord template, long compMask, int timeoutMs,
            SaCallback<List<byte[]>> callback);

    /** {@code ib_sa_cancel_query()}: the query's callback runs with -EINTR, unless it already ran. */
    void cancelQuery(int id);

    /**
     * {@code ib_init_ah_attr_from_path()}: an address vector for {@code rec} on {@code portNum}
     * (a GRH when the path leaves the subnet, or always on RoCE).
     *
     * @throws org.rdma.verbs.RdmaException ENOENT/EINVAL when the source GID is not on the port
     */
    void initAhAttrFromPath(IbDevice device, int portNum, PathRecord rec, AhAttr ahAttr);

    /**
     * {@code ib_sa_join_multicast()}: joins {@code rec.mgid} with {@code rec.joinState}. The SA is
     * asked only when the port's aggregate membership gains a JoinState bit; other joiners get the
     * group's cached record. The callback reports the join (status 0 with the record).
     */
    McastMember joinMulticast(SaClient client, IbDevice device, int portNum, McMemberRecord rec, long compMask,
            SaCallback<McMemberRecord> callback, Object context);

    /** {@code ib_sa_free_multicast()}: leaves; the SA hears of it when a JoinState bit loses its last member. */
    void freeMulticast(McastMember member);

    /** {@code ib_sa_get_mcmember_rec()}: the cached record of a group joined on the port; ENOENT otherwise. */
    McMemberRecord getMcmemberRec(IbDevice device, int portNum, org.rdma.verbs.Gid mgid);
}
