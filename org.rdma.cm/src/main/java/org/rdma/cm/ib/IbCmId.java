package org.rdma.cm.ib;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.IbDevice;

/**
 * A communication identifier: {@code struct ib_cm_id}, from {@link IbCmService#createCmId} or
 * handed to the consumer with a {@link IbCmEventType#REQ_RECEIVED} event. The getters read the
 * id's current values; state changes as messages come and go.
 */
@ProviderType
public interface IbCmId {
    /** {@code cm_id->cm_handler}. */
    IbCmHandler handler();

    /** {@code cm_id->context}. */
    Object context();

    /** Sets {@code cm_id->context} (consumers re-point a new id at their own connection object). */
    void setContext(Object context);

    /** {@code cm_id->device}. */
    IbDevice device();

    /** The port of the primary path ({@code cm_id_priv->av.port->port_num}); 0 before one is known. */
    int portNum();

    /** {@code cm_id->service_id}. */
    long serviceId();

    /** {@code cm_id->service_mask}. */
    long serviceMask();

    /** {@code cm_id->state}. */
    IbCmState state();

    /** {@code cm_id->lap_state}. */
    IbCmLapState lapState();

    /** {@code cm_id->local_id}: the local communication ID, never 0 once allocated. */
    int localId();

    /** {@code cm_id->remote_id}: the peer's communication ID, 0 until known. */
    int remoteId();

    /** {@code cm_id->remote_cm_qpn}: 1 unless redirected. */
    int remoteCmQpn();
}
