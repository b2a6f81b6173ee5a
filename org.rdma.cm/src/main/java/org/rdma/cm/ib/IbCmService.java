package org.rdma.cm.ib;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.QpAttr;

/**
 * The IB CM: the exported functions of drivers/infiniband/core/cm.c. Errors throw
 * {@link org.rdma.verbs.RdmaException} with the kernel's errno: {@code EINVAL} for a call the id's
 * state does not allow or a bad parameter, {@code ENODEV} when the device or port is gone,
 * {@code EBUSY} for a service ID already listened on, {@code ENOMEM} when the MAD layer refuses a
 * send. Events reach the id's {@link IbCmHandler}.
 */
@ProviderType
public interface IbCmService {
    /**
     * {@code ib_create_cm_id()}: a new id in {@link IbCmState#IDLE} on {@code device}.
     *
     * @throws org.rdma.verbs.RdmaException ENODEV if the CM does not serve the device
     */
    IbCmId createCmId(IbDevice device, IbCmHandler handler, Object context);

    /**
     * {@code ib_destroy_cm_id()}: leaves the id's state as the IBTA requires (a REJ for a pending
     * request, a DREQ for an established connection; a connected id passes through timewait
     * before its communication ID is reused), cancels its outstanding MAD and waits until no
     * handler of the id runs any more on another thread. As in the kernel, a handler does not
     * destroy its own id but returns non-zero (a call from there is tolerated: the id is gone
     * when the handler returns).
     */
    void destroyCmId(IbCmId cmId);

    /**
     * {@code ib_cm_listen()}: the id receives REQs and SIDR_REQs whose service ID matches
     * {@code serviceId} under {@code serviceMask} (0 means an exact match). With
     * {@link IbCm#ASSIGN_SERVICE_ID} the CM picks an unused locally administered ID, readable
     * afterwards from {@link IbCmId#serviceId()}.
     *
     * @throws org.rdma.verbs.RdmaException EINVAL if the id is not idle or the ID is in the
     *         reserved assigned range; EBUSY if an overlapping listen exists on the device
     */
    void cmListen(IbCmId cmId, long serviceId, long serviceMask);

    /**
     * {@code ib_cm_insert_listen()}: the listen on {@code device} for exactly {@code serviceId}
     * with the same handler, shared (its share count grows, and {@link #destroyCmId} of each
     * holder drops it), or a new one.
     *
     * @throws org.rdma.verbs.RdmaException EINVAL if a listen on the ID exists with another
     *         handler, or with a context (such a listen is not shared)
     */
    IbCmId cmInsertListen(IbDevice device, IbCmHandler handler, long serviceId);

    /**
     * {@code ib_send_cm_req()}: sends a REQ on the primary path's port; the id goes to
     * {@link IbCmState#REQ_SENT}. The REQ is resent {@link IbCmReqParam#maxCmRetries} times each
     * time the response timeout (remote CM response timeout plus twice the packet life time)
     * passes without an answer; then {@link IbCmEventType#REQ_ERROR} is reported.
     */
    void sendCmReq(IbCmId cmId, IbCmReqParam param);

    /** {@code ib_send_cm_rep()}: accepts a received REQ; {@link IbCmState#REP_SENT}. */
    void sendCmRep(IbCmId cmId, IbCmRepParam param);

    /** {@code ib_send_cm_rtu()}: completes the connection after a REP; {@link IbCmState#ESTABLISHED}. */
    void sendCmRtu(IbCmId cmId, byte[] privateData);

    /**
     * {@code ib_send_cm_dreq()}: starts disconnecting an established connection;
     * {@link IbCmState#DREQ_SENT}, resent like a REQ until the DREP comes, then timewait
     * ({@link IbCmEventType#DREQ_ERROR} if it never comes). If the DREQ cannot be sent the id
     * enters timewait at once. EINVAL if the id is not established.
     */
    void sendCmDreq(IbCmId cmId, byte[] privateData);

    /** {@code ib_send_cm_drep()}: answers a DREQ; the id enters timewait even if the send fails. */
    void sendCmDrep(IbCmId cmId, byte[] privateData);

    /**
     * {@code ib_send_cm_rej()}: rejects a received REQ or REP (or aborts a sent REQ/REP).
     *
     * @param ari additional rejection information, at most {@link IbCm#REJ_ARI_LENGTH} bytes, or {@code null}
     */
    void sendCmRej(IbCmId cmId, IbCmRejReason reason, byte[] ari, byte[] privateData);

    /**
     * {@code ib_send_cm_mra()}: asks the peer for more time to answer its REQ, REP or LAP.
     *
     * @param serviceTimeout the time needed (low 5 bits), possibly with {@link IbCm#MRA_FLAG_DELAY}
     *                       to send the MRA only when a duplicate arrives
     */
    void sendCmMra(IbCmId cmId, int serviceTimeout, byte[] privateData);

    /** {@code ib_send_cm_lap()}: proposes a new alternate path on an established connection. */
    void sendCmLap(IbCmId cmId, PathRecord alternatePath, byte[] privateData);

    /**
     * {@code ib_send_cm_apr()}: answers a received LAP.
     *
     * @param info additional information, at most {@link IbCm#APR_INFO_LENGTH} bytes, or {@code null}
     */
    void sendCmApr(IbCmId cmId, IbCmAprStatus status, byte[] info, byte[] privateData);

    /** {@code ib_send_cm_sidr_req()}: asks the node on {@code param.path} for a UD service's QPN and Q_Key. */
    void sendCmSidrReq(IbCmId cmId, IbCmSidrReqParam param);

    /** {@code ib_send_cm_sidr_rep()}: answers a received SIDR_REQ; the id returns to idle. */
    void sendCmSidrRep(IbCmId cmId, IbCmSidrRepParam param);

    /**
     * {@code ib_cm_init_qp_attr()}: fills {@code qpAttr} for the transition to
     * {@code qpAttr.qpState} ({@code INIT}, {@code RTR} or {@code RTS}) from what the CM
     * exchanged, and returns the attribute mask to pass to {@code ib_modify_qp()}.
     *
     * @throws org.rdma.verbs.RdmaException EINVAL for another target state or an id not
     *         connecting or connected
     */
    int cmInitQpAttr(IbCmId cmId, QpAttr qpAttr);

    /**
     * {@code ib_cm_notify()}: {@link IbEventType#COMM_EST} (data arrived before the RTU: the
     * passive side becomes established) or {@link IbEventType#PATH_MIG} (the QP failed over to
     * the alternate path).
     */
    void cmNotify(IbCmId cmId, IbEventType event);

    /** Every communication identifier alive, for listings ({@code rdma res show cm_id}). */
    List<IbCmIdDTO> cmIds();

    /** A per-port counter for one message attribute ID ({@link IbCm#REQ_ATTR_ID} ...); 0 if unknown. */
    long counter(IbDevice device, int portNum, IbCmCounterGroup group, int attrId);
}
