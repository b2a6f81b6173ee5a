package org.rdma.cm.rdma;

import java.net.SocketAddress;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpType;

/**
 * A communication identifier: {@code struct rdma_cm_id}. The getters read the id's current
 * values; they change as the id is bound, resolved and connected.
 */
@ProviderType
public interface RdmaCmId {
    /** {@code id->device}: the device the id is bound to, or {@code null}. */
    IbDevice device();

    /** {@code id->port_num}: 0 while unbound. */
    int portNum();

    /** {@code id->qp}: the QP of {@link RdmaCmService#createQp}, or {@code null}. */
    IbQp qp();

    /** {@code id->ps}. */
    RdmaPortSpace ps();

    /** {@code id->qp_type}. */
    QpType qpType();

    /** {@code id->route}: a snapshot of the addresses, GIDs and paths. */
    RdmaRoute route();

    /** {@code rdma_get_local_addr()}: {@code route.addr.src_addr}, or {@code null}. */
    SocketAddress srcAddr();

    /** {@code rdma_get_peer_addr()}: {@code route.addr.dst_addr}, or {@code null}. */
    SocketAddress dstAddr();

    /** The id's state ({@code id_priv->state}). */
    RdmaCmState state();

    /** {@code id->context}. */
    Object context();

    /** Sets {@code id->context} (a new id from a {@code CONNECT_REQUEST} starts with the listener's). */
    void setContext(Object context);

    /** {@code id->event_handler}; {@code null} for an id on an event channel. */
    RdmaCmHandler handler();

    /** The event channel the id reports to, or {@code null} for a callback id. */
    RdmaEventChannel channel();
}
